import { env } from "cloudflare:workers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { PageLayout } from "../../workers/shared/engine-contract";
import { characterErrorRate } from "./cer";
import { failure, fixture, put, readPage, realFixture } from "./helpers";

const LAYER_LINES = ["Invoice 2024-117 for consulting services.", "Amount due: 1,250.00 EUR within 30 days."];

/** Page 1: a text layer; page 2: a scanned image; page 3: vector outlines only. */
async function threePathPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p1 = doc.addPage([595, 842]);
  LAYER_LINES.forEach((l, i) => p1.drawText(l, { x: 60, y: 760 - i * 24, size: 14, font }));
  const scan = await doc.embedPng(fixture("scan_png"));
  const p2 = doc.addPage([595, 842]);
  const w = 595;
  const h = (scan.height / scan.width) * w;
  p2.drawImage(scan, { x: 0, y: 842 - h, width: w, height: h });
  const vector = await PDFDocument.load(fixture("pdf_vector"));
  const [p3] = await doc.copyPages(vector, [0]);
  doc.addPage(p3!);
  return doc.save();
}

describe("PDF pages take one of three paths", () => {
  it("text layer (exact, no OCR), scanned image (OCR), vector-only (browser rendering + OCR)", async () => {
    const key = await put("uploads/pdf/mixed.pdf", await threePathPdf());
    expect(await env.ENGINE.inspect({ sourceKey: key })).toMatchObject({ format: "pdf", pages: 3 });

    const layer = await readPage("pdf", key, 0, ["eng"]);
    expect(layer.pre.path).toBe("text_layer");
    expect(layer.rec.path).toBe("text_layer");
    expect(layer.text.text).toBe(LAYER_LINES.join("\n"));
    expect(layer.rec.confidence).toBe(1);
    // A4 at ~300 dpi (fitted to 3508 px); the first word's box sits where it was drawn (x = 60 pt, baseline 760 pt).
    expect(layer.pre.height).toBe(3508);
    expect(Math.abs(layer.pre.width - 2480)).toBeLessThanOrEqual(1);
    const px = 3508 / 842;
    const first = layer.text.regions[0]!.lines[0]!.words[0]!;
    expect(first.text).toBe("Invoice");
    expect(Math.abs(first.box.x - 60 * px)).toBeLessThan(3);
    expect(Math.abs(first.box.y + first.box.h - (842 - 760) * px)).toBeLessThan(20);
    const det = await env.ENGINE.detect({ pageKey: layer.pre.key, outKey: "work/pdf/layout-0.json" });
    expect(det).toMatchObject({ path: "text_layer", lines: 2, words: LAYER_LINES.join(" ").split(" ").length });
    const layout = (await (await env.FILES.get(det.key))!.json()) as PageLayout;
    expect(layout.blocks[0]!.items[0]!.words).toHaveLength(5);

    const scanned = await readPage("pdf", key, 1, ["eng"]);
    expect(scanned.pre.path).toBe("ocr");
    expect(scanned.rec.path).toBe("ocr");
    const scanText = "A scanned page inside a PDF file. Its image is read by OCR.";
    expect(characterErrorRate(scanText, scanned.text.text), scanned.text.text).toBeLessThanOrEqual(0.03);

    const vector = await readPage("pdf", key, 2, ["eng"]);
    expect(vector.pre.path).toBe("rasterized");
    expect(vector.rec.path).toBe("rasterized");
    const vectorText = "Vector outlines only, no text layer. The browser draws this page.";
    expect(characterErrorRate(vectorText, vector.text.text), vector.text.text).toBeLessThanOrEqual(0.03);
  });

  it("a page that paints nothing (OCRmyPDF's no_contents.pdf) is blank as it stands: no drawing, no text", async () => {
    const key = await put("uploads/pdf/no-contents.pdf", realFixture("ocrmypdf_no_contents.pdf"));
    const blank = await readPage("pdf-blank", key, 0, ["eng"]);
    // Drawn by the browser it was "rasterized"; known blank from its operators it is the page's raster as it stands.
    expect(blank.pre).toMatchObject({ path: "ocr", width: 3000, height: 3000 });
    expect(blank.text.text).toBe("");
  });

  it("vector pages drawn at once in one isolate take turns with its browser session: each is drawn", async () => {
    const key = await put("uploads/pdf/vector-twice.pdf", fixture("pdf_vector"));
    const pages = await Promise.all(
      [0, 1, 2].map((i) => env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: `work/pdf/vector-${i}.png`, languages: ["eng"] })),
    );
    for (const pre of pages) expect(pre).toMatchObject({ path: "rasterized" });
    const sizes = await Promise.all(pages.map(async (p) => (await env.FILES.head(p.key))!.size));
    expect(new Set(sizes).size).toBe(1);
  });

  it("a text-layer page's layout and text come with preprocess (readOutKeys), as detect and recognize write them", async () => {
    const key = await put("uploads/pdf/read-out.pdf", await threePathPdf());
    const languages = ["eng"];
    const readOutKeys = { layout: "work/pdf-read/layout-0.json", text: "work/pdf-read/text-0.json" };
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/pdf-read/page-0.png", languages, readOutKeys });
    expect(pre.path).toBe("text_layer");
    const det = await env.ENGINE.detect({ pageKey: pre.key, outKey: "work/pdf-read/layout-0b.json", languages });
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, outKey: "work/pdf-read/text-0b.json", languages });
    expect(pre.read, JSON.stringify(pre)).toEqual({
      detect: { ...det, key: readOutKeys.layout },
      recognize: { ...rec, key: readOutKeys.text },
    });
    const json = async (k: string) => (await env.FILES.get(k))!.json();
    expect(await json(readOutKeys.layout)).toEqual(await json(det.key));
    const text = (await json(readOutKeys.text)) as { text: string; languages: string[] };
    expect(text).toEqual(await json(rec.key));
    expect(text.text).toBe(LAYER_LINES.join("\n"));
    expect(text.languages).toEqual(languages);

    // A scanned page is read later, by detect and recognize: nothing is written ahead for it.
    const scanKeys = { layout: "work/pdf-read/layout-1.json", text: "work/pdf-read/text-1.json" };
    const scan = await env.ENGINE.preprocess({
      sourceKey: key,
      page: 1,
      outKey: "work/pdf-read/page-1.png",
      languages,
      readOutKeys: scanKeys,
    });
    expect(scan.path).toBe("ocr");
    expect(scan.read).toBeUndefined();
    expect(await env.FILES.head(scanKeys.text)).toBeNull();
  });

  it("preprocess checks language names where a text-layer page is read out, and needs no OCR model for it", async () => {
    const key = await put("uploads/pdf/no-model.pdf", await threePathPdf());
    const keysOf = (n: string) => ({ layout: `work/pdf-no-model/layout-${n}.json`, text: `work/pdf-no-model/text-${n}.json` });
    // kir is a catalogued model that is not installed: the text layer is read without it.
    const layer = await env.ENGINE.preprocess({
      sourceKey: key,
      page: 0,
      outKey: "work/pdf-no-model/page-0.png",
      languages: ["kir", "kir"],
      readOutKeys: keysOf("0"),
    });
    expect(layer.path).toBe("text_layer");
    expect(layer.read?.recognize.languages).toEqual(["kir"]);
    const unknown = await failure(
      env.ENGINE.preprocess({
        sourceKey: key,
        page: 0,
        outKey: "work/pdf-no-model/page-0b.png",
        languages: ["xyz"],
        readOutKeys: keysOf("0b"),
      }),
    );
    expect(unknown.code).toBe("unsupported_language");
    expect(unknown.message).toContain("not an OCR model name");
    // A scanned page is preprocessed; its missing model is reported by the call that reads it.
    const scan = await env.ENGINE.preprocess({
      sourceKey: key,
      page: 1,
      outKey: "work/pdf-no-model/page-1.png",
      languages: ["kir"],
      readOutKeys: keysOf("1"),
    });
    expect(scan.path).toBe("ocr");
    const missing = await failure(env.ENGINE.detect({ pageKey: scan.key, outKey: "work/pdf-no-model/layout-1b.json", languages: ["kir"] }));
    expect(missing.code).toBe("unsupported_language");
    expect(missing.message).toContain("not installed");
  });

  it("refuses a page index past the end of the PDF", async () => {
    const key = await put("uploads/pdf/one.pdf", fixture("pdf_vector"));
    expect((await failure(env.ENGINE.preprocess({ sourceKey: key, page: 1, outKey: "work/pdf/none.png" }))).code).toBe("validation_error");
  });
});
