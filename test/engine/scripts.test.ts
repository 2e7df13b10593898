import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { TEXTS } from "../bench/ocr-texts.mjs";
import { read, stored, unzip } from "../exports/readers";
import { decodeToGray } from "../../workers/engine/image/decode";
import { MAX_OCR_PIXELS } from "../../workers/engine/memory";
import { textColumns } from "../../workers/engine/ocr/stacked-columns";
import { columnScale, columnWidth } from "../../workers/engine/ocr/vertical";
import { characterErrorRate } from "./cer";
import { failure, fixture, put, readPage, realFixture, realText, seedOcrModels } from "./helpers";

const texts = TEXTS as Record<string, string[]>;
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * The words of each line, punctuation aside: of the text pdftotext extracts from a PDF (without
 * the bidi marks it adds around right-to-left runs), or of the lines read. pdftotext moves a comma
 * or full stop at the edge of a right-to-left word to the other side of the space (on the PDF
 * native tesseract writes of the same page alike), so punctuation is left out of the comparison;
 * the letters of every word and the order of the words must match.
 */
const wordsOf = (lines: string[]) => lines.map((l) => squash(l.replace(/\p{P}/gu, " "))).filter(Boolean);
async function layerLines(pdf: Uint8Array): Promise<string[]> {
  const out = await read("pdftotext", pdf);
  expect(out.code, out.stderr).toBe(0);
  return wordsOf(out.stdout.replace(/[\u202a-\u202e]/g, "").split("\n"));
}

/** Right-to-left pages, vertical columns, two languages on a page, `auto` across scripts. */
describe("scripts and directions", () => {
  beforeAll(async () => {
    await seedOcrModels(["eng", "deu", "rus", "ara", "heb", "kor", "jpn", "chi_sim", "jpn_vert", "chi_sim_vert", "kor_vert", "fas"]);
  });

  for (const lang of ["ara", "heb"]) {
    it(`${lang}: lines in reading order (right to left), words from the right, exports marked right to left`, async () => {
      const key = await put(`uploads/rtl/${lang}.png`, fixture(`lang_${lang}`));
      const { text, rec, pre } = await readPage(`rtl-${lang}`, key, 0, [lang]);
      const lines = text.regions.flatMap((r) => r.lines);
      expect(
        lines.map((l) => l.text),
        text.text,
      ).toHaveLength(texts[lang]!.length);
      lines.forEach((l, i) => {
        expect(characterErrorRate(texts[lang]![i]!, l.text), `line ${i}: ${l.text}`).toBeLessThanOrEqual(0.05);
        // Reading order: each word starts left of the one before it.
        for (let k = 1; k < l.words.length; k++) expect(l.words[k]!.box.x, l.text).toBeLessThan(l.words[k - 1]!.box.x);
      });
      // The first word read is the first word written.
      expect(lines[0]!.words[0]!.text).toBe(texts[lang]![0]!.split(" ")[0]);

      const built = await env.ENGINE.buildExports({
        pageTextKeys: [rec.key],
        formats: ["txt", "hocr", "alto", "docx", "searchable_pdf"],
        outPrefix: `exports/rtl-${lang}/`,
        baseName: lang,
      });
      const file = async (f: string) => stored(built.find((b) => b.format === f)!.key);
      const txt = new TextDecoder().decode(await file("txt"));
      expect(characterErrorRate(squash(texts[lang]!.join(" ")), squash(txt)), txt).toBeLessThanOrEqual(0.05);
      const hocr = new TextDecoder().decode(await file("hocr"));
      expect(hocr).toContain('class="ocr_par" id="par_1_1" dir="rtl"');
      expect((await read("xmllint-xhtml", new TextEncoder().encode(hocr))).code, "hOCR stays valid XHTML").toBe(0);
      const alto = new TextDecoder().decode(await file("alto"));
      expect((await read("xmllint-alto", new TextEncoder().encode(alto))).code).toBe(0);
      // Spaces between right-to-left words lie between them, not past the line's end.
      for (const m of alto.matchAll(/<SP HPOS="(\d+)" VPOS="\d+" WIDTH="(\d+)"\/>/g)) expect(Number(m[2])).toBeGreaterThan(0);
      const docx = unzip(await file("docx"))["word/document.xml"]!;
      expect(docx).toMatch(/<w:pPr><w:bidi\/><\/w:pPr><w:r><w:rPr><w:rtl\/><\/w:rPr>/);
      // The searchable PDF's invisible layer extracts in reading order: the lines read, letter for letter.
      const pdf = await file("searchable_pdf");
      expect(await layerLines(pdf)).toEqual(wordsOf(lines.map((l) => l.text)));
      // …and each word's text starts at the word's right edge. pdftotext -bbox gives right-to-left
      // text one character at a time (native tesseract's PDF alike): each word's first letter is looked for.
      const bbox = await read("pdftotext-bbox", pdf);
      const chars = [...bbox.stdout.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map(
        (m) => ({ y: Number(m[1]), xMax: Number(m[2]), text: m[3]! }),
      );
      // Page pixels → PDF points, as the export sizes its pages.
      const k = 72 / Math.max(72, Math.max(pre.width, pre.height) / 11.69);
      const off = lines.flatMap((l) =>
        l.words.map((w) => {
          const first = chars.filter((c) => c.text === [...w.text][0] && c.y > (l.box.y - 5) * k && c.y < (l.box.y + l.box.h) * k);
          return Math.min(...first.map((c) => Math.abs(c.xMax - (w.box.x + w.box.w) * k)));
        }),
      );
      expect(off.filter((d) => d < 1).length / off.length, JSON.stringify(off)).toBeGreaterThan(0.9);
    });
  }

  for (const lang of ["jpn_vert", "chi_sim_vert", "kor_vert"]) {
    it(`${lang}: columns read right to left, vertical boxes`, async () => {
      const key = await put(`uploads/vert/${lang}.png`, fixture(`lang_${lang}`));
      const { text, rec } = await readPage(`vert-${lang}`, key, 0, [lang]);
      expect(rec.languages).toEqual([lang]);
      const lines = text.regions.flatMap((r) => r.lines);
      expect(lines.length, text.text).toBe(texts[lang]!.length);
      for (const l of lines) {
        expect(l.vertical, l.text).toBe(true);
        expect(l.box.h).toBeGreaterThan(2 * l.box.w);
      }
      // First column on the right.
      for (let i = 1; i < lines.length; i++) expect(lines[i]!.box.x).toBeLessThan(lines[i - 1]!.box.x);
      const expected = texts[lang]!.join("").replace(/\s+/g, "").normalize("NFKC");
      expect(characterErrorRate(expected, text.text.replace(/\s+/g, "").normalize("NFKC")), text.text).toBeLessThanOrEqual(0.1);
    });
  }

  for (const lang of ["jpn_vert", "kor_vert"]) {
    it(`${lang}: re-OCR of a rectangle of columns reads them as columns (one block of vertical text)`, async () => {
      const key = await put(`uploads/vert-reocr/${lang}.png`, fixture(`lang_${lang}`));
      const { pre, text } = await readPage(`vert-reocr-${lang}`, key, 0, [lang]);
      const [a, b] = text.regions.flatMap((r) => r.lines);
      const x = Math.min(a!.box.x, b!.box.x) - 15;
      const y = Math.min(a!.box.y, b!.box.y) - 15;
      const box = { x, y, w: Math.max(a!.box.x + a!.box.w, b!.box.x + b!.box.w) + 15 - x, h: Math.max(a!.box.h, b!.box.h) + 30 };
      const out = await env.ENGINE.reocr({ sourceKey: key, page: 0, box, languages: [lang], pageKey: pre.key });
      // Read as horizontal text (mode 6), these columns came back as unrelated characters.
      const expected = texts[lang]!.slice(0, 2).join("").replace(/\s+/g, "").normalize("NFKC");
      expect(characterErrorRate(expected, out.text.replace(/\s+/g, "").normalize("NFKC")), out.text).toBeLessThanOrEqual(0.1);
      expect(out.lines.map((l) => l.vertical)).toEqual([true, true]);
    });
  }

  it("column width: a short column of strokes standing apart, or a balloon's outline, is not taken for the columns' width", () => {
    const width = 200,
      height = 300;
    const data = new Uint8Array(width * height).fill(255);
    const ink = (x0: number, x1: number, y0: number, y1: number, every = 1) => {
      for (let y = y0; y < y1; y += every) for (let x = x0; x < x1; x++) data[y * width + x] = 0;
    };
    // Two columns of characters 27 px wide, and a last column holding "い！": two strokes and a mark.
    ink(150, 177, 10, 290, 2);
    ink(110, 137, 10, 250, 2);
    ink(70, 75, 10, 40);
    ink(80, 85, 10, 40);
    ink(90, 93, 45, 70);
    const page = { width, height, data };
    expect(columnWidth(page)).toBe(27);
    // A balloon's outline across the page: 10 dark pixels in every column of pixels.
    ink(0, width, 0, 5);
    ink(0, width, 295, 300);
    expect(columnWidth(page)).toBe(27);
  });

  it("a balloon's columns: runs of strokes standing apart are one column, furigana beside a column are left out, right to left", () => {
    const width = 240,
      height = 300;
    const data = new Uint8Array(width * height).fill(255);
    const ink = (x0: number, x1: number, y0: number, y1: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = 0;
    };
    // Two columns 27 px wide (the right one with furigana 10 px wide, 3 px beside it), a column
    // holding "い！" (two strokes and a mark), and a "！" alone far to the left.
    ink(180, 207, 10, 290);
    ink(210, 220, 20, 60);
    ink(140, 167, 10, 250);
    ink(100, 105, 10, 40);
    ink(110, 115, 10, 40);
    ink(120, 123, 45, 70);
    ink(40, 46, 10, 40);
    expect(textColumns(data, width, height)).toEqual([
      { left: 180, top: 10, right: 207, bottom: 290 },
      { left: 140, top: 10, right: 167, bottom: 250 },
      { left: 100, top: 10, right: 123, bottom: 70 },
      { left: 40, top: 10, right: 46, bottom: 40 },
    ]);
  });

  it("column scale: Chinese and Japanese columns are brought to 36 px, enlarged or reduced; Korean ones to 32 px at most", async () => {
    const gray = (name: string) => decodeToGray(fixture(name), "png");
    const [kor200, kor300, jpn300] = await Promise.all([gray("lang_kor_vert"), gray("lang_kor_vert_300"), gray("lang_jpn_vert_300")]);
    // Hangul at 14 pt: columns of ink about 30 px wide at 200 dpi, 44 px at 300 dpi.
    expect(columnWidth(kor200)).toBeGreaterThanOrEqual(27);
    expect(columnWidth(kor200)).toBeLessThanOrEqual(32);
    expect(columnScale(kor200, "kor_vert")).toBe(1);
    expect(columnWidth(kor300)).toBeGreaterThan(40);
    expect(columnWidth(kor300)! * columnScale(kor300, "kor_vert")).toBeCloseTo(32, 5);
    // Japanese at 14 pt and 300 dpi: columns of ink about 68 px, reduced.
    expect(columnWidth(jpn300)).toBeGreaterThan(60);
    expect(columnWidth(jpn300)! * columnScale(jpn300, "jpn_vert")).toBeCloseTo(36, 5);
    // The real Chinese page's columns (10 pt at 200 dpi, 25 px) are enlarged, within the working resolution's limits.
    const zh = await decodeToGray(realFixture("zhmetrics-uptex_fandol-test-p2.png"), "png");
    expect(columnWidth(zh)).toBeLessThan(30);
    expect(columnWidth(zh)! * columnScale(zh, "chi_sim_vert")).toBeCloseTo(36, 5);
    const ja = await decodeToGray(realFixture("uptex_aozora-utarticle-p1.png"), "png");
    const s = columnScale(ja, "jpn_vert");
    expect(s).toBeGreaterThan(1);
    expect(columnWidth(ja)! * s).toBeLessThan(36);
    expect(ja.width * s * ja.height * s).toBeLessThanOrEqual(MAX_OCR_PIXELS + 1);
    expect(columnScale(ja, "kor_vert")).toBe(1);
  });

  it("kor_vert at 300 dpi: columns read whole at the model's column scale, to the final full stop", async () => {
    const key = await put("uploads/vert/kor_vert-300.png", fixture("lang_kor_vert_300"));
    const { text } = await readPage("vert-kor_vert-300", key, 0, ["kor_vert"]);
    const lines = text.regions.flatMap((r) => r.lines);
    expect(lines.length, text.text).toBe(texts.kor_vert!.length);
    // Boxes come back on the page: the first column near the right edge of the 2481 px wide page.
    expect(lines[0]!.box.x + lines[0]!.box.w, text.text).toBeGreaterThan(2000);
    for (const l of lines) expect(l.box.h, l.text).toBeGreaterThan(2 * l.box.w);
    // Native tesseract reads this page exactly (mode 5); the turned reading lost the final full stop.
    expect(lines.map((l) => l.text.replace(/\s+/g, ""))).toEqual(texts.kor_vert!.map((t) => t.replace(/\s+/g, "")));
  });

  /**
   * A real page of columns typeset by others (origin in test/fixtures/real/README.md): upTeX's
   * Zhuangzi passage in six Fandol faces, letters compared with the PDF's own text; native
   * tesseract, same model, mode 5, same file: 19.48 % (`OCR_BENCH=scripts OCR_BENCH_LANGS=chi_sim_vert`).
   */
  it("chi_sim: a real page of columns reads right to left with the vertical model, as well as native tesseract", async () => {
    const name = "zhmetrics-uptex_fandol-test-p2";
    const key = await put("uploads/real/chi_sim_vert.png", realFixture(`${name}.png`));
    // Chinese named as a user names it ("zh"): the page's columns are found and read with chi_sim_vert.
    const { text, rec } = await readPage("real-chi_sim_vert", key, 0, ["chi_sim"]);
    expect(rec.languages).toEqual(["chi_sim_vert"]);
    const letters = (t: string) => t.normalize("NFKC").replace(/[\p{P}\s]/gu, "");
    expect(characterErrorRate(letters(realText(`${name}.txt`)), letters(text.text)), text.text).toBeLessThanOrEqual(0.1948);
    const columns = text.regions.flatMap((r) => r.lines).filter((l) => l.vertical);
    // Six paragraphs of two columns each, the first on the right.
    expect(columns.length, text.text).toBeGreaterThanOrEqual(12);
    const steps = columns.slice(1).map((c, i) => c.box.x < columns[i]!.box.x);
    expect(steps.filter(Boolean).length / steps.length, text.text).toBeGreaterThan(0.9);
  });

  /**
   * Real vertical Japanese pages typeset by others (origin in test/fixtures/real/README.md): pages 1
   * and 2 of upTeX's Aozora Bunko sample in the vertical `utarticle` class, letters compared with
   * the source's text; `nativeCer`: native tesseract, same model, mode 5, same file
   * (`OCR_BENCH=scripts OCR_BENCH_LANGS=jpn_vert npm run bench:ocr`); `opening`: words of the
   * first paragraph's first column, which must come among the first columns read (the section
   * heading is on the right); `named`: the language asked for, the vertical model or Japanese as a
   * user names it ("ja"), whose columns are found and read with the vertical model all the same.
   */
  const REAL_JPN_VERT = [
    { page: 1, named: "jpn_vert", nativeCer: 0.0822, opening: "破提宇子と云う天主教" },
    { page: 2, named: "jpn", nativeCer: 0.094, opening: "しかと指し定められたる" },
  ];
  for (const { page, named, nativeCer, opening } of REAL_JPN_VERT) {
    it(`${named}: a real page of columns (p. ${page}) reads right to left with jpn_vert, as well as native tesseract`, async () => {
      const name = `uptex_aozora-utarticle-p${page}`;
      const key = await put(`uploads/real/jpn_vert-${page}.png`, realFixture(`${name}.png`));
      const { text, rec } = await readPage(`real-jpn_vert-${page}`, key, 0, [named]);
      expect(rec.languages).toEqual(["jpn_vert"]);
      const letters = (t: string) => t.normalize("NFKC").replace(/[\p{P}\s]/gu, "");
      expect(characterErrorRate(letters(realText(`${name}.txt`)), letters(text.text)), text.text).toBeLessThanOrEqual(nativeCer);
      // The pages hold 20 columns of text or more, besides the headings.
      const columns = text.regions.flatMap((r) => r.lines).filter((l) => l.vertical);
      expect(columns.length, text.text).toBeGreaterThanOrEqual(20);
      const first = columns.slice(0, 3).map((c) => c.text);
      expect(letters(first.join("")), text.text).toContain(opening);
      const steps = columns.slice(1).map((c, i) => c.box.x < columns[i]!.box.x);
      expect(steps.filter(Boolean).length / steps.length, text.text).toBeGreaterThan(0.9);
    });
  }

  /**
   * Real right-to-left pages typeset by others (origins in test/fixtures/real/README.md), letters
   * compared with the PDF's own text; `nativeCer`: native tesseract with the same model on the same
   * file (`OCR_BENCH=scripts OCR_BENCH_LANGS=fas,ara,heb npm run bench:ocr`).
   */
  const REAL_RTL = [
    { lang: "fas", name: "texlive_lshort-persian-p3", first: "پیشگفتار", nativeCer: 0.08 },
    // The Arabic page's headings are drawn as outlines: not in its reference text.
    { lang: "ara", name: "amiri_documentation-arabic-p2", first: "", nativeCer: 0.096 },
    { lang: "heb", name: "hspell_niqqudless-p6", first: "סוגיות", nativeCer: 0.009 },
  ];
  for (const page of REAL_RTL) {
    it(`${page.lang}: a real page (${page.name}) reads right to left, as well as native tesseract`, async () => {
      const key = await put(`uploads/real/${page.lang}.png`, realFixture(`${page.name}.png`));
      const { text } = await readPage(`real-${page.lang}`, key, 0, [page.lang]);
      // Letters only: pdftotext's reference drops zero-width non-joiners and moves punctuation across spaces.
      const letters = (t: string) =>
        squash(
          t
            .normalize("NFKC")
            .replace(/[\u200c\u200e\u200f\u202a-\u202e]/g, "")
            .replace(/\p{P}/gu, " "),
        );
      const reference = letters(realText(`${page.name}.txt`));
      const cer = characterErrorRate(reference, letters(text.text));
      expect(cer, text.text).toBeLessThanOrEqual(page.nativeCer + 0.02);
      const lines = text.regions.flatMap((r) => r.lines).filter((l) => /[\p{Script=Arabic}\p{Script=Hebrew}]{3}/u.test(l.text));
      if (page.first) expect(lines[0]!.words[0]!.text, text.text).toBe(page.first);
      // Body lines run right to left: most words start left of the word before them…
      const steps = lines.flatMap((l) => l.words.slice(1).map((w, k) => w.box.x < l.words[k]!.box.x));
      expect(steps.filter(Boolean).length / steps.length).toBeGreaterThan(0.95);
      // …and neighbouring words read are neighbours in the reference in the order written, never reversed.
      const ref = reference.split(" ");
      const pairs = new Set(ref.slice(1).map((w, i) => `${ref[i]} ${w}`));
      const read = lines.flatMap((l) => {
        const w = letters(l.text).split(" ");
        return w.slice(1).map((x, i) => [w[i]!, x] as const);
      });
      const forward = read.filter(([a, b]) => pairs.has(`${a} ${b}`)).length;
      const reversed = read.filter(([a, b]) => pairs.has(`${b} ${a}`) && !pairs.has(`${a} ${b}`)).length;
      expect(forward, text.text).toBeGreaterThan(read.length / 2);
      expect(reversed, text.text).toBe(0);
    });
  }

  it("kor at 300 dpi: words keep tesseract's spacing (no space inside a word split into syllables)", async () => {
    const key = await put("uploads/kor/kor-300.png", fixture("lang_kor_300"));
    const { text } = await readPage("kor-300", key, 0, ["kor"]);
    const lines = text.regions.flatMap((r) => r.lines);
    expect(
      lines.map((l) => l.text),
      text.text,
    ).toHaveLength(texts.kor!.length);
    lines.forEach((l, i) => {
      const written = texts.kor![i]!.split(" ");
      // Every word read is a written word of its line (the last may lose a final syllable).
      expect(l.text.split(" ").length, l.text).toBe(written.length);
      for (const w of l.text.split(" "))
        expect(
          written.some((x) => x.startsWith(w.replace(/\.$/, ""))),
          `${w} in ${l.text}`,
        ).toBe(true);
      expect(l.words.map((w) => w.text).join(" ")).toBe(l.text);
    });
  });

  it("a page in English and Arabic read with eng+ara keeps both", async () => {
    const key = await put("uploads/mixed/eng-ara.png", fixture("mixed_eng_ara"));
    const { text, rec } = await readPage("mixed", key, 0, ["eng", "ara"]);
    expect(rec.languages).toEqual(["eng", "ara"]);
    const lines = text.regions.flatMap((r) => r.lines).map((l) => l.text);
    const expected = [...texts.eng!.slice(0, 2), ...texts.ara!.slice(0, 2)];
    expect(lines, text.text).toHaveLength(4);
    lines.forEach((l, i) => expect(characterErrorRate(expected[i]!, l), `${i}: ${l}`).toBeLessThanOrEqual(0.05));
    const [pdf] = await env.ENGINE.buildExports({
      pageTextKeys: [rec.key],
      formats: ["searchable_pdf"],
      outPrefix: "exports/mixed/",
      baseName: "mixed",
    });
    expect(await layerLines(await stored(pdf!.key))).toEqual(wordsOf(lines));
  });

  // Vertical pages too: their columns read with the *_vert model, the horizontal pages' lines not.
  for (const lang of ["deu", "rus", "ara", "heb", "kor", "jpn", "jpn_vert", "chi_sim_vert", "kor_vert"]) {
    it(`auto reads a ${lang} page with ${lang}`, async () => {
      const key = await put(`uploads/auto-script/${lang}.png`, fixture(`lang_${lang}`));
      const { rec } = await readPage(`auto-script-${lang}`, key, 0, ["auto"]);
      expect(rec.languages).toEqual([lang]);
    });
  }

  it("auto reads the 300 dpi Natsume page in columns with jpn_vert (its columns read as lines fit no horizontal model)", async () => {
    const key = await put("uploads/auto-script/jpn_vert-300.png", fixture("lang_jpn_vert_300"));
    const { rec, text } = await readPage("auto-script-jpn_vert-300", key, 0, ["auto"]);
    expect(rec.languages).toEqual(["jpn_vert"]);
    expect(rec.rotation).toBe(0);
    const expected = texts.jpn_vert!.join("").replace(/\s+/g, "").normalize("NFKC");
    expect(characterErrorRate(expected, text.text.replace(/\s+/g, "").normalize("NFKC")), text.text).toBeLessThanOrEqual(0.1);
  });

  it("auto keeps a Hebrew page upright: the language is chosen before orientation trials", async () => {
    const key = await put("uploads/auto-script/heb-300.png", fixture("lang_heb_300"));
    const { text, rec } = await readPage("auto-script-heb-300", key, 0, ["auto"]);
    expect(rec.languages).toEqual(["heb"]);
    expect(rec.rotation).toBe(0);
    expect(characterErrorRate(texts.heb!.join(" "), squash(text.text)), text.text).toBeLessThanOrEqual(0.05);
  });

  it("refuses a language that names no model, and a model that is not installed", async () => {
    const key = await put("uploads/unknown/eng.png", fixture("lang_eng"));
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/unknown/page.png", languages: ["eng"] });
    const unknown = await failure(env.ENGINE.recognize({ pageKey: pre.key, languages: ["xyz"], outKey: "work/unknown/a.json" }));
    expect(unknown.code).toBe("unsupported_language");
    expect(unknown.message).toContain("not an OCR model name");
    const missing = await failure(env.ENGINE.recognize({ pageKey: pre.key, languages: ["kir"], outKey: "work/unknown/b.json" }));
    expect(missing.code).toBe("unsupported_language");
    expect(missing.message).toContain("not installed");
  });
});
