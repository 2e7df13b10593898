import { env } from "cloudflare:workers";
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

describe("searchable PDF: each word's invisible text on its own box", () => {
  it("words land on their boxes (py-pdf multicolumn.pdf, justified columns)", async () => {
    const bytes = realFixture("pypdf_multicolumn.pdf");
    const key = await put("uploads/words/multicolumn.pdf", bytes);
    const page = await readPage("words", key, 0, ["eng"]);
    const doc: ExportDocument = {
      title: "multicolumn",
      pages: [
        {
          index: 0,
          width: page.pre.width,
          height: page.pre.height,
          imageKey: page.pre.key,
          regions: page.text.regions.map((r) => ({ box: r.box, text: r.text, kind: "text", lines: r.lines })),
        },
      ],
    };
    await env.FILES.put("work/words/document.json", JSON.stringify(doc));
    const [built] = await env.ENGINE.buildExports({
      documentKey: "work/words/document.json",
      formats: ["searchable_pdf"],
      outPrefix: "exports/words/",
      baseName: "words",
    });
    const layer = await wordsOf(await stored(built!.key));
    // Page pixels → PDF points, as the export sizes its pages (A4 at 300 dpi: 72/300).
    const k = 72 / Math.max(72, Math.max(page.pre.width, page.pre.height) / 11.69);
    const words = page.text.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
    const { matched, median, p95 } = offsetsFrom(words, layer, k);
    expect(matched).toBeGreaterThan(0.95);
    // Lines spread evenly by characters (the earlier layer) put one word in 20 more than 4.9 pt off its box here.
    expect(median, `median ${median}, p95 ${p95}`).toBeLessThan(0.5);
    expect(p95, `median ${median}, p95 ${p95}`).toBeLessThan(1);
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
