import { env } from "cloudflare:workers";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { ExportDocument } from "../../workers/shared/engine-contract";
import { put, readPage, realFixture } from "../engine/helpers";
import { read, stored } from "./readers";

interface BoxWord {
  text: string;
  xMin: number;
  yMin: number;
}

/** Words of page 1 with their boxes, as poppler's `pdftotext -bbox` reads them. */
async function wordsOf(pdf: Uint8Array): Promise<BoxWord[]> {
  const out = await read("pdftotext-bbox", pdf);
  expect(out.code, out.stderr).toBe(0);
  const page1 = out.stdout.split("</page>")[0]!;
  return [...page1.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    text: m[3]!,
  }));
}

/** How far (PDF points, left edges) each word box lies from the same word on the same line in `layer`. */
function offsetsFrom(words: { text: string; box: { x: number; y: number } }[], layer: BoxWord[], k: number) {
  const offsets: number[] = [];
  for (const w of words) {
    const same = layer.filter((o) => o.text === w.text && Math.abs(o.yMin - w.box.y * k) < 6);
    if (same.length) offsets.push(Math.min(...same.map((o) => Math.abs(o.xMin - w.box.x * k))));
  }
  offsets.sort((a, b) => a - b);
  return {
    matched: offsets.length / words.length,
    median: offsets[offsets.length >> 1]!,
    p95: offsets[Math.floor(offsets.length * 0.95)]!,
  };
}

/** The searchable PDF of one read page (`readPage`), with its regions' text or none. */
async function searchablePdf(name: string, page: Awaited<ReturnType<typeof readPage>>, withText: boolean): Promise<Uint8Array> {
  const regions = withText ? page.text.regions.map((r) => ({ box: r.box, text: r.text, kind: "text" as const, lines: r.lines })) : [];
  const doc: ExportDocument = {
    title: name,
    pages: [{ index: 0, width: page.pre.width, height: page.pre.height, imageKey: page.pre.key, regions }],
  };
  await env.FILES.put(`work/${name}/document.json`, JSON.stringify(doc));
  const [built] = await env.ENGINE.buildExports({
    documentKey: `work/${name}/document.json`,
    formats: ["searchable_pdf"],
    outPrefix: `exports/${name}/`,
    baseName: name,
  });
  return stored(built!.key);
}

/** Size (points) of a PDF's first page. */
const firstPageSize = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPage(0).getSize();

describe("searchable PDF: each word's invisible text on its own box", () => {
  it("words land on their boxes (py-pdf multicolumn.pdf, justified columns)", async () => {
    const bytes = realFixture("pypdf_multicolumn.pdf");
    const key = await put("uploads/words/multicolumn.pdf", bytes);
    const page = await readPage("words", key, 0, ["eng"]);
    const exported = await searchablePdf("words", page, true);
    const layer = await wordsOf(exported);
    // The exported page has the original's size (A4), to the page image's whole pixels: the image
    // was drawn at 300 dpi, 72/300 points a pixel.
    const [out, original] = [await firstPageSize(exported), await firstPageSize(bytes)];
    expect(out.width).toBeCloseTo(original.width, 0);
    expect(out.height).toBeCloseTo(original.height, 0);
    const k = 72 / 300;
    const words = page.text.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
    const { matched, median, p95 } = offsetsFrom(words, layer, k);
    expect(matched).toBeGreaterThan(0.95);
    // Lines spread evenly by characters (the earlier layer) put one word in 20 more than 4.9 pt off its box here.
    expect(median, `median ${median}, p95 ${p95}`).toBeLessThan(0.5);
    expect(p95, `median ${median}, p95 ${p95}`).toBeLessThan(1);
  });
});

describe("searchable PDF: pages the size of the original's", () => {
  it("a Letter scan (camelot's image.pdf) exports as a Letter page", async () => {
    const bytes = realFixture("camelot_image.pdf");
    const key = await put("uploads/words/camelot_image.pdf", bytes);
    const page = await readPage("letter", key, 0, ["eng"]);
    const size = await firstPageSize(await searchablePdf("letter", page, false));
    // Taken for A4 by its longer side, it came out 650 × 842 pt.
    expect(size.width).toBeCloseTo(612, 0);
    expect(size.height).toBeCloseTo(792, 0);
  });
});

describe("text-layer pages: word boxes as the PDF places the words", () => {
  it("each word's box starts where poppler finds the word in the original file (multicolumn.pdf)", async () => {
    const bytes = realFixture("pypdf_multicolumn.pdf");
    const original = await wordsOf(bytes);
    const key = await put("uploads/words/multicolumn-layer.pdf", bytes);
    const page = await readPage("layer-words", key, 0, ["eng"]);
    expect(page.pre.path).toBe("text_layer");
    // Page pixels → PDF points: the page is drawn at 300 dpi (Letter/A4 both fit within the side limit).
    const k = 72 / 300;
    const words = page.text.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
    const { matched, median, p95 } = offsetsFrom(words, original, k);
    expect(matched).toBeGreaterThan(0.9);
    // Shares by character count put words 1.48 pt off at the median, 6.4 pt at p95; shares by
    // usual advance widths 0.85 / 3.3 pt (what is left: justified lines stretch their spaces).
    expect(median, `median ${median}, p95 ${p95}`).toBeLessThan(1.2);
    expect(p95, `median ${median}, p95 ${p95}`).toBeLessThan(4.5);
  });
});
