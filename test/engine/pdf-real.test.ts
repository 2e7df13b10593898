import { env } from "cloudflare:workers";
import {
  clip,
  closePath,
  degrees,
  endPath,
  lineTo,
  moveTo,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from "pdf-lib";
import { describe, expect, it } from "vitest";
import { decodePngToGray } from "../../workers/engine/image/png";
import { judgeTextLayer } from "../../workers/engine/pdf/text-plausibility";
import { characterErrorRate } from "./cer";
import { failure, pageText, put, readPage, realFixture, realText } from "./helpers";

/** Share of dark pixels of a stored page image. */
async function inkShare(key: string): Promise<number> {
  const img = await decodePngToGray(new Uint8Array(await (await env.FILES.get(key))!.arrayBuffer()));
  let dark = 0;
  for (const v of img!.data) if (v < 128) dark++;
  return dark / img!.data.length;
}

// OCR of a 2550x3300 scan takes seconds alone and far longer on a busy machine: generous timeouts.
describe("scanned PDF pages in every encoding pdf.js decodes (real files from OCRmyPDF's tests)", { timeout: 240_000 }, () => {
  it.each([
    ["JBIG2", "ocrmypdf_linn.pdf"],
    ["CCITT G4", "ocrmypdf_ccitt.pdf"],
  ])("%s: the page is read, not blank (CER against OCRmyPDF's linn.txt)", async (_, name) => {
    const key = await put(`uploads/scans/${name}`, realFixture(name));
    const page = await readPage(name, key, 0, ["eng"]);
    expect(page.pre.path).toBe("ocr");
    expect(await inkShare(page.pre.key)).toBeGreaterThan(0.02);
    const cer = characterErrorRate(realText("ocrmypdf_linn.txt"), page.text.text);
    expect(cer, page.text.text).toBeLessThan(0.05);
  });

  it("JPEG 2000: the picture is drawn (not a white page)", async () => {
    const key = await put("uploads/scans/lichtenstein.pdf", realFixture("ocrmypdf_lichtenstein.pdf"));
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/scans/lichtenstein.png", languages: ["eng"] });
    expect(pre.path).toBe("ocr");
    expect(await inkShare(pre.key)).toBeGreaterThan(0.1);
  });

  it("a scan drawn through a non-rectangular clipping path shows and reads only what the clip leaves visible", async () => {
    // No corpus file clips a scan with a path other than a rectangle: this one is built here (pdf-lib)
    // from OCRmyPDF's linn.pdf, its page drawn through a trapezoid whose lower edge slants from
    // y = 560 pt on the left to 470 pt on the right. Poppler shows the heading and the first
    // paragraphs; the address at the foot of the page lies outside the clip.
    const doc = await PDFDocument.create();
    const [linn] = await doc.embedPdf(realFixture("ocrmypdf_linn.pdf"), [0]);
    const page = doc.addPage([612, 792]);
    page.pushOperators(
      pushGraphicsState(),
      moveTo(0, 792),
      lineTo(612, 792),
      lineTo(612, 470),
      lineTo(0, 560),
      closePath(),
      clip(),
      endPath(),
    );
    page.drawPage(linn!, { x: 0, y: 0, width: 612, height: 792 });
    page.pushOperators(popGraphicsState());
    const key = await put("uploads/scans/linn-clipped.pdf", await doc.save());
    const read = await readPage("linn-clipped", key, 0, ["eng"]);
    expect(read.pre.path).toBe("ocr");
    const img = (await decodePngToGray(new Uint8Array(await (await env.FILES.get(read.pre.key))!.arrayBuffer())))!;
    // The page image: ink above the clip's edge, none in the lower half (the page is not turned).
    let below = 0;
    for (let i = Math.floor(img.height / 2) * img.width; i < img.data.length; i++) if (img.data[i]! < 128) below++;
    expect(below / img.data.length).toBeLessThan(1e-4);
    expect(read.text.text).toContain("LinnSequencer");
    expect(read.text.text).toContain("MIDI Sequence Recorder");
    for (const hidden of ["Oxnard", "Tarzana", "SIGNATURE", "TEMPO CHANGES"]) expect(read.text.text).not.toContain(hidden);
  });

  it("an image too large to decode in the engine (81 megapixels) is drawn by the browser at page resolution and read", async () => {
    const key = await put("uploads/scans/enormous.pdf", realFixture("ocrmypdf_enormous.pdf"));
    const page = await readPage("enormous", key, 0, ["eng"]);
    expect(page.pre.path).toBe("rasterized");
    expect(Math.max(page.pre.width, page.pre.height)).toBeLessThanOrEqual(3508);
    expect(page.text.text, page.text.text).toMatch(/9000\s*x\s*9000 pixels at 300 DPI/);
    expect(page.text.text, page.text.text).toContain("81 megapixels");
  });

  it("composes every image draw: a JPEG with a CCITT soft mask and a stencil mask (masks.pdf)", async () => {
    const key = await put("uploads/scans/masks.pdf", realFixture("ocrmypdf_masks.pdf"));
    const page = await readPage("masks", key, 0, ["eng"]);
    expect(page.pre.path).toBe("ocr");
    expect(page.rec.chars, page.text.text).toBeGreaterThan(2000);
    for (const word of ["Linux", "Wikipedia", "Betriebssysteme", "GNU-Software", "Linux-Kernel"]) expect(page.text.text).toContain(word);
  });
});

describe("text layers (real files from py-pdf's and OCRmyPDF's tests)", { timeout: 240_000 }, () => {
  it("reads a two-column layer column by column, block by block (sentences as pdftotext reads them)", async () => {
    const key = await put("uploads/layers/multicolumn.pdf", realFixture("pypdf_multicolumn.pdf"));
    const page = await readPage("multicolumn", key, 0, ["eng"]);
    expect(page.pre.path).toBe("text_layer");
    const ours = page.text.text.replace(/-\s*\n\s*/g, "").replace(/\s+/g, " ");
    const reference = realText("pypdf_multicolumn.pdftotext.txt").split("\f")[0]!;
    const sentences = reference
      .replace(/-\n/g, "")
      .replace(/\s+/g, " ")
      .split(/(?<=\.) /)
      .filter((s) => s.length >= 40);
    const kept = sentences.filter((s) => ours.includes(s));
    // Interleaved columns break every sentence that wraps; two of pdftotext's own sentences span its misplaced heading.
    expect(kept.length / sentences.length, JSON.stringify(sentences.filter((s) => !ours.includes(s)))).toBeGreaterThanOrEqual(0.9);
  });

  it("distrusts mojibake and text in the wrong script, trusts ordinary text (judgeTextLayer)", () => {
    // The first characters of OCRmyPDF cmyk.pdf's text layer as pdf.js decodes it (UTF-16 read byte-swapped).
    const cmyk = "䴀甀 氀 琀 椀 挀 漀 氀 漀 爀 䈀 氀 愀 挀 欀 倀 甀 爀 攀䈀 氀 愀 挀 欀⠀ 䬀㴀㄀ ⤀";
    expect(judgeTextLayer(cmyk, ["eng"]).ok).toBe(false);
    expect(judgeTextLayer(cmyk, []).ok).toBe(false);
    // Letters scattered over several scripts: a mis-decoded layer, not a text in another language.
    expect(judgeTextLayer("ϲΒϴΒ ԱԲԳ ЖЗИ ϴΒϲ ԴԵԶ КЛМ", ["eng"]).ok).toBe(false);
    expect(judgeTextLayer("Invoice \uE012\uE013\uE014\uE015\uE016 total \uFFFD\uFFFD", ["eng"]).ok).toBe(false);
    expect(judgeTextLayer(realText("pypdf_multicolumn.pdftotext.txt"), ["eng"]).ok).toBe(true);
    expect(judgeTextLayer("Лорем ипсум долор сит амет, консектетуер", ["rus"]).ok).toBe(true);
    // Text plainly in one other script is real text in another language: kept, and said.
    expect(judgeTextLayer("Лорем ипсум долор сит амет, консектетуер", ["eng"])).toEqual({ ok: true, otherScript: "Cyrillic" });
  });

  it("leaves out of the text layer what a non-rectangular clipping path hides", async () => {
    // Built here (pdf-lib; no corpus file has such a clip): two lines drawn under a triangular clip
    // (top-left half of the page). Its bounding box holds both lines; only the first lies inside it.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([400, 300]);
    page.pushOperators(pushGraphicsState(), moveTo(0, 300), lineTo(400, 300), lineTo(0, 0), closePath(), clip(), endPath());
    page.drawText("Kept words inside the triangle", { x: 20, y: 250, size: 12, font });
    page.drawText("Hidden words below it", { x: 250, y: 40, size: 12, font });
    page.pushOperators(popGraphicsState());
    const key = await put("uploads/layers/clipped-text.pdf", await doc.save());
    const read = await readPage("clipped-text", key, 0, ["eng"]);
    expect(read.pre.path).toBe("text_layer");
    expect(read.text.text).toContain("Kept words inside the triangle");
    expect(read.text.text).not.toContain("Hidden");
  });

  it("keeps an Arabic text layer asked as eng, with a warning, instead of OCR in English (py-pdf habibi-rotated.pdf)", async () => {
    const key = await put("uploads/layers/habibi.pdf", realFixture("pypdf_habibi-rotated.pdf"));
    const page = await readPage("habibi", key, 0, ["eng"]);
    expect(page.pre.path).toBe("text_layer");
    expect(page.pre.warnings?.map((w) => w.code)).toEqual(["text_layer_other_script"]);
    // pdftotext reads "habibi" and يبيبَح twice on each page; OCR in English reads no Arabic at all.
    const arabic = [...page.text.text].filter((c) => /\p{Script=Arabic}/u.test(c)).length;
    expect(arabic, page.text.text).toBeGreaterThanOrEqual(10);
    expect(page.text.text).toContain("habibi");
    // The glyph run without Unicode (controls and stray Greek in pdf.js) is left out, as pdftotext does.
    expect(page.text.text.replace(/\s+/g, " ")).toBe("habibi يبيبَح يبيبَح");
  });

  it("ocrMode: auto takes an earlier OCR layer, redo and force recognise the page; redo keeps visible text", async () => {
    const key = await put("uploads/layers/graph_ocred.pdf", realFixture("ocrmypdf_graph_ocred.pdf"));
    const pre = (ocrMode: "auto" | "force" | "redo", sourceKey = key) =>
      env.ENGINE.preprocess({ sourceKey, page: 0, outKey: `work/layers/${ocrMode}-${sourceKey.length}.png`, languages: ["eng"], ocrMode });
    const auto = await pre("auto");
    expect(auto.path).toBe("text_layer");
    // The page image under the OCR layer is the scan itself, composed in the engine (no browser).
    expect(await inkShare(auto.key)).toBeGreaterThan(0.01);
    for (const mode of ["redo", "force"] as const) {
      const p = await pre(mode);
      expect(p.path).toBe("ocr");
      const rec = await env.ENGINE.recognize({ pageKey: p.key, languages: ["eng"], outKey: `work/layers/${mode}.json` });
      expect(rec.path).toBe("ocr");
      expect((await pageText(rec.key)).text).toMatch(/400[\s\S]*300[\s\S]*200/);
    }
    const visible = await put("uploads/layers/multicolumn-redo.pdf", realFixture("pypdf_multicolumn.pdf"));
    expect((await pre("redo", visible)).path).toBe("text_layer");
    expect((await pre("force", visible)).path).toBe("rasterized");
  });
});

describe("scans with visible text on them", { timeout: 240_000 }, () => {
  it("recognises the scan and merges the page's real text (linn.pdf with a typed stamp added)", async () => {
    const doc = await PDFDocument.load(realFixture("ocrmypdf_linn.pdf"));
    const page = doc.getPage(0);
    const stamp = "RECEIVED 2024-03-07 ACME-4471";
    page.drawText(stamp, { x: 330, y: 772, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    const key = await put("uploads/scans/linn-stamped.pdf", await doc.save());
    const read = await readPage("stamped", key, 0, ["eng"]);
    expect(read.pre.path).toBe("ocr");
    expect(read.text.text).toContain(stamp);
    // The stamp comes from the layer (exact, confidence 1), the rest from OCR, in page order.
    const words = read.text.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
    expect(words.filter((w) => w.text === "ACME-4471")).toHaveLength(1);
    const body = read.text.text.replace(stamp, "");
    expect(characterErrorRate(realText("ocrmypdf_linn.txt"), body), body).toBeLessThan(0.05);
  });
});

describe("page rotation", { timeout: 240_000 }, () => {
  it("reports a PDF page's /Rotate with the turn detected (rotated_skew.pdf: /Rotate 90, upright once drawn)", async () => {
    const key = await put("uploads/scans/rotated_skew.pdf", realFixture("ocrmypdf_rotated_skew.pdf"));
    const page = await readPage("rotated", key, 0, ["eng"]);
    expect(page.pre.rotation).toBe(0);
    expect(page.rec.rotation).toBe(90);
    expect(characterErrorRate(realText("ocrmypdf_linn.txt"), page.text.text), page.text.text).toBeLessThan(0.05);
  });
});

describe(
  "text set sideways (camelot's clockwise_table_1.pdf: a table whose text layer runs at 90°, /Rotate 180)",
  { timeout: 240_000 },
  () => {
    const STATES = [
      "Kerala",
      "Tamil Nadu",
      "Karnataka",
      "Andhra Pradesh",
      "Maharashtra",
      "Gujarat",
      "Madhya Pradesh",
      "Orissa",
      "West Bengal",
      "Uttar Pradesh",
      "Pooled",
    ];

    it("is read in the frame of its text: title first, rows top to bottom, the turn reported", async () => {
      const key = await put("uploads/layers/clockwise.pdf", realFixture("camelot_clockwise_table_1.pdf"));
      const page = await readPage("clockwise", key, 0, ["eng"]);
      expect(page.pre.path).toBe("text_layer");
      // /Rotate 180, then a quarter turn clockwise sets the text upright.
      expect(page.rec.rotation).toBe(90);
      // The page image turns with its text: a landscape page.
      expect(page.pre.width).toBeGreaterThan(page.pre.height);
      const text = page.text.text;
      expect(text.startsWith("Table 1 : STATE WISE COVERAGE PARTICULARS BY PERIOD OF SURVEY (Contd...)"), text).toBe(true);
      const at = STATES.map((s) => text.indexOf(s));
      expect(
        at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1]!)),
        text,
      ).toBe(true);
      // Lines run along the text: the title's line is wide, not tall.
      const title = page.text.regions[0]!.lines[0]!;
      expect(title.box.w).toBeGreaterThan(10 * title.box.h);
    });

    it("reads the same whatever /Rotate the page is shown with", async () => {
      const doc = await PDFDocument.load(realFixture("camelot_clockwise_table_1.pdf"));
      doc.getPage(0).setRotation(degrees(270));
      const key = await put("uploads/layers/clockwise-270.pdf", await doc.save());
      const turned = await readPage("clockwise-270", key, 0, ["eng"]);
      const original = await readPage(
        "clockwise-180",
        await put("uploads/layers/clockwise-180.pdf", realFixture("camelot_clockwise_table_1.pdf")),
        0,
        ["eng"],
      );
      expect(turned.text.text).toBe(original.text.text);
      expect(turned.rec.rotation).toBe(original.rec.rotation);
    });
  },
);

describe("page images of text-layer pages", { timeout: 240_000 }, () => {
  it("are left as a blank canvas when the job reads only the text layer, and drawn over it by drawPage (ICDAR 2013 eu-011 p. 3)", async () => {
    const key = await put("uploads/layers/eu-011-p3.pdf", realFixture("icdar2013_eu-011-p3.pdf"));
    const outKey = "work/layers/eu-011-p3-background.png";
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey, pageImage: "background" });
    expect(pre.path).toBe("text_layer");
    // The call answers with a blank canvas of the page's size, and draws nothing by itself: the
    // drawing would compete with the rest of the job for the CPU.
    const canvas = await decodePngToGray(new Uint8Array(await (await env.FILES.get(outKey))!.arrayBuffer()));
    expect([canvas!.width, canvas!.height]).toEqual([pre.width, pre.height]);
    await new Promise((r) => setTimeout(r, 3000));
    expect(await inkShare(outKey)).toBe(0);
    // drawPage replaces it with the page drawn (text and image bands), at the same size and path.
    expect(await env.ENGINE.drawPage({ sourceKey: key, page: 0, pageKey: outKey })).toEqual({ key: outKey, drawn: true });
    expect(await inkShare(outKey)).toBeGreaterThan(0.01);
    const drawn = await decodePngToGray(new Uint8Array(await (await env.FILES.get(outKey))!.arrayBuffer()));
    expect([drawn!.width, drawn!.height]).toEqual([pre.width, pre.height]);
    const text = await env.ENGINE.recognize({ pageKey: outKey, languages: ["eng"], outKey: "work/layers/eu-011-p3.json" });
    expect(text.path).toBe("text_layer");
    // Nothing is left to draw: a second call changes nothing.
    expect(await env.ENGINE.drawPage({ sourceKey: key, page: 0, pageKey: outKey })).toEqual({ key: outKey, drawn: false });
  });
});

describe("images painted through text outlines (OCRmyPDF's cmyk.pdf)", { timeout: 240_000 }, () => {
  it("draws the page whole instead of composing the unclipped CMYK separations blank, and reads the lettering", async () => {
    const key = await put("uploads/scans/cmyk.pdf", realFixture("ocrmypdf_cmyk.pdf"));
    const page = await readPage("cmyk", key, 0, ["eng"]);
    // Its text layer is mojibake (refused); the six CMYK JPEGs are only visible through the glyphs.
    expect(page.pre.path).toBe("rasterized");
    expect(await inkShare(page.pre.key)).toBeGreaterThan(0.002);
    for (const word of ["Black", "Magenta", "Cyan"]) expect(page.text.text, page.text.text).toContain(word);
  });
});

describe("pictures without text (py-pdf's sample files)", { timeout: 240_000 }, () => {
  it.each([
    ["a 16x16 CCITT icon on a 3.84 pt PDF page", "pypdf_imagemagick-CCITTFaxDecode.pdf"],
    ["a 16x16 TIFF icon", "pypdf_smile-lzw.tiff"],
  ])("%s holds no legible text: an empty page, not a failure", async (_, name) => {
    const key = await put(`uploads/icons/${name}`, realFixture(name));
    const page = await readPage(name, key, 0, ["eng"]);
    expect(page.pre.transform.sourceWidth).toBeLessThan(32);
    expect(page.rec.chars).toBe(0);
    expect(page.text.regions).toHaveLength(0);
  });

  it("a drawing large enough to hold text but with none fails as no_text_found (not charged)", async () => {
    const key = await put("uploads/icons/grayscale-image.pdf", realFixture("pypdf_grayscale-image.pdf"));
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/icons/gray.png", languages: ["eng"] });
    const err = await failure(env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/icons/gray.json" }));
    expect(err.code).toBe("no_text_found");
  });
});
