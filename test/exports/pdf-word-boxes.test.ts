import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ExportDocument } from "../../workers/engine/contract";
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
  return [...page1.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({ xMin: Number(m[1]), yMin: Number(m[2]), text: m[3]! }));
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
    const [built] = await env.ENGINE.buildExports({ documentKey: "work/words/document.json", formats: ["searchable_pdf"], outPrefix: "exports/words/", baseName: "words" });
    const layer = await wordsOf(await stored(built!.key));
    // Page pixels → PDF points, as the export sizes its pages (A4 at 300 dpi: 72/300).
    const k = 72 / Math.max(72, Math.max(page.pre.width, page.pre.height) / 11.69);
    const words = page.text.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
    const offsets: number[] = [];
    for (const w of words) {
      const same = layer.filter((o) => o.text === w.text && Math.abs(o.yMin - w.box.y * k) < 6);
      if (same.length) offsets.push(Math.min(...same.map((o) => Math.abs(o.xMin - w.box.x * k))));
    }
    expect(offsets.length / words.length).toBeGreaterThan(0.95);
    offsets.sort((a, b) => a - b);
    const [median, p95] = [offsets[offsets.length >> 1]!, offsets[Math.floor(offsets.length * 0.95)]!];
    // Lines spread evenly by characters (the earlier layer) put one word in 20 more than 4.9 pt off its box here.
    expect(median, `median ${median}, p95 ${p95}`).toBeLessThan(0.5);
    expect(p95, `median ${median}, p95 ${p95}`).toBeLessThan(1);
  });
});
