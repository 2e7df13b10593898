import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseEngineError, type Box, type PageLayout, type PageText } from "../../workers/shared/engine-contract";
import { characterErrorRate, renderTextPng } from "../helpers/text-image";

const TEXT = [
  "The quick brown fox jumps over the lazy dog.",
  "Pack my box with five dozen liquor jugs, 1234567890.",
  "Sphinx of black quartz, judge my vow!",
  "",
  "A second paragraph starts here after a blank line,",
  "and it continues on this line with more words.",
];

function inside(b: Box, w: number, h: number): boolean {
  return b.x >= 0 && b.y >= 0 && b.w > 0 && b.h > 0 && b.x + b.w <= w && b.y + b.h <= h;
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    return parseEngineError(err)?.code;
  }
  throw new Error("expected the call to fail");
}

describe("OCR pipeline: preprocess → detect → recognize → buildExports", () => {
  it("reads rendered English text with CER ≤ 2% and exports it", async () => {
    const png = await renderTextPng(TEXT);
    await env.FILES.put("uploads/ocr/source.png", png);

    const inspected = await env.ENGINE.inspect({ sourceKey: "uploads/ocr/source.png" });
    expect(inspected).toMatchObject({ format: "png", pages: 1, bytes: png.length });

    const pre = await env.ENGINE.preprocess({ sourceKey: "uploads/ocr/source.png", page: 0, outKey: "work/ocr/page-0.png" });
    expect(pre).toMatchObject({ key: "work/ocr/page-0.png", rotation: 0 });
    const pageObj = await env.FILES.get("work/ocr/page-0.png");
    expect(pageObj).not.toBeNull();
    const pageBytes = new Uint8Array(await pageObj!.arrayBuffer());
    expect([...pageBytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    expect(pageBytes[25]).toBe(0); // colour type 0: grayscale

    const det = await env.ENGINE.detect({ pageKey: pre.key, outKey: "work/ocr/layout-0.json" });
    const layout = (await (await env.FILES.get(det.key))!.json()) as PageLayout;
    expect(layout.width).toBe(pre.width);
    expect(det.lines).toBe(5);
    expect(det.regions).toBe(2);
    for (const block of layout.blocks) {
      expect(inside(block.box, pre.width, pre.height)).toBe(true);
      for (const line of block.lines) expect(inside(line, pre.width, pre.height)).toBe(true);
    }

    const t0 = Date.now();
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/ocr/text-0.json" });
    const ms = Date.now() - t0;
    const page = (await (await env.FILES.get(rec.key))!.json()) as PageText;
    const expected = TEXT.filter(Boolean).join(" ");
    const cer = characterErrorRate(expected, page.text);
    console.log(
      `OCR ${pre.width}x${pre.height}: ${ms} ms (first recognize; detect created the engine), CER ${(cer * 100).toFixed(2)} %, confidence ${rec.confidence}`,
    );
    expect(cer).toBeLessThanOrEqual(0.02);

    expect(rec.regions).toBe(2);
    expect(page.regions).toHaveLength(2);
    expect(page.regions[0]!.lines).toHaveLength(3);
    expect(page.regions[0]!.text.startsWith("The quick brown fox")).toBe(true);
    expect(page.regions[1]!.text.startsWith("A second paragraph")).toBe(true);
    expect(rec.words).toBe(expected.split(" ").length);
    expect(rec.chars).toBe(expected.replace(/\s/g, "").length);
    expect(rec.confidence).toBeGreaterThan(0.8);
    expect(rec.confidence).toBeLessThanOrEqual(1);
    expect(page.languages).toEqual(["eng"]);
    for (const region of page.regions) {
      expect(inside(region.box, page.width, page.height)).toBe(true);
      for (const line of region.lines) {
        expect(inside(line.box, page.width, page.height)).toBe(true);
        for (const word of line.words) {
          expect(inside(word.box, page.width, page.height)).toBe(true);
          expect(word.confidence).toBeGreaterThanOrEqual(0);
          expect(word.confidence).toBeLessThanOrEqual(1);
        }
      }
    }
    // Reading order: lines run top to bottom.
    const tops = page.regions.flatMap((r) => r.lines.map((l) => l.box.y));
    expect(tops).toEqual([...tops].sort((a, b) => a - b));

    // Warm call: the engine is cached in the isolate.
    const t1 = Date.now();
    await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/ocr/text-0b.json" });
    console.log(`OCR warm: ${Date.now() - t1} ms`);

    // Two pages: the same text twice.
    const built = await env.ENGINE.buildExports({
      pageTextKeys: ["work/ocr/text-0.json", "work/ocr/text-0b.json"],
      formats: ["txt", "json"],
      outPrefix: "exports/job-1/",
      baseName: "scan",
    });
    expect(built.map((b) => b.format)).toEqual(["txt", "json"]);
    const txtExport = built[0]!;
    expect(txtExport).toMatchObject({ key: "exports/job-1/scan.txt", contentType: "text/plain; charset=utf-8" });
    const txtObj = await env.FILES.get(txtExport.key);
    const txt = await txtObj!.text();
    expect(txtExport.bytes).toBe(new TextEncoder().encode(txt).length);
    expect(txtObj!.httpMetadata?.contentType).toBe("text/plain; charset=utf-8");
    const pages = txt.split("\f");
    expect(pages).toHaveLength(2);
    for (const p of pages) {
      const paragraphs = p.trim().split("\n\n");
      expect(paragraphs).toHaveLength(2);
      expect(characterErrorRate(expected, p)).toBeLessThanOrEqual(0.02);
    }
    expect(txt).toContain("Sphinx of black quartz");

    const json = (await (await env.FILES.get("exports/job-1/scan.json"))!.json()) as {
      pages: { page: number; width: number; regions: { lines: { words: { box: Box; confidence: number }[] }[] }[] }[];
    };
    expect(json.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(json.pages[0]!.width).toBe(pre.width);
    expect(json.pages[0]!.regions[0]!.lines[0]!.words[0]!.box.w).toBeGreaterThan(0);
  });

  it("detect with the languages reads the page once: the layout and recognize's text come from that reading", async () => {
    await env.FILES.put("uploads/ocr/once.png", await renderTextPng(TEXT));
    const pre = await env.ENGINE.preprocess({ sourceKey: "uploads/ocr/once.png", page: 0, outKey: "work/ocr/once.png" });
    const det = await env.ENGINE.detect({ pageKey: pre.key, outKey: "work/ocr/once-layout.json", languages: ["eng"] });
    expect(det).toMatchObject({ lines: 5, regions: 2, path: "ocr" });
    const layout = (await (await env.FILES.get(det.key))!.json()) as PageLayout;
    const kept = await env.FILES.get(`${pre.key}.reading.json`);
    expect(kept).not.toBeNull();
    const reading = (await kept!.json()) as { page: PageText; languages: string[] };
    expect(reading.languages).toEqual(["eng"]);
    // The layout's lines are the reading's lines.
    expect(layout.blocks.flatMap((b) => b.lines)).toEqual(reading.page.regions.flatMap((r) => r.lines.map((l) => l.box)));

    // recognize takes the kept reading: altered, the change shows, proving no second reading ran.
    const marked = {
      ...reading,
      page: { ...reading.page, regions: reading.page.regions.map((r, i) => (i === 0 ? { ...r, text: `${r.text} [kept]` } : r)) },
    };
    await env.FILES.put(`${pre.key}.reading.json`, JSON.stringify(marked));
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/ocr/once-text.json" });
    const page = (await (await env.FILES.get(rec.key))!.json()) as PageText;
    expect(page.regions[0]!.text.endsWith("[kept]")).toBe(true);
    expect(
      characterErrorRate(TEXT.filter(Boolean).join(" "), page.regions.map((r) => r.text.replace(" [kept]", "")).join(" ")),
    ).toBeLessThanOrEqual(0.02);

    // Other languages, or a page image written again, are read afresh.
    const other = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng", "eng"], outKey: "work/ocr/once-other.json" });
    expect(((await (await env.FILES.get(other.key))!.json()) as PageText).text).not.toContain("[kept]");
    await env.ENGINE.preprocess({ sourceKey: "uploads/ocr/once.png", page: 0, outKey: "work/ocr/once.png" });
    const again = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/ocr/once-again.json" });
    expect(((await (await env.FILES.get(again.key))!.json()) as PageText).text).not.toContain("[kept]");
  });

  it("downscales a large page and maps boxes back to page coordinates", async () => {
    // ~4200 px wide: preprocess fits it to 3508 px, OCR then works at ≤ 2500 px.
    const lines = ["Large scans are scaled down before recognition.", "Boxes must still land on the words."];
    const png = await renderTextPng(lines, { fontSize: 120, width: 4200 });
    await env.FILES.put("uploads/big/source.png", png);
    const pre = await env.ENGINE.preprocess({ sourceKey: "uploads/big/source.png", page: 0, outKey: "work/big/page-0.png" });
    expect(Math.max(pre.width, pre.height)).toBe(3508);
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/big/text-0.json" });
    const page = (await (await env.FILES.get(rec.key))!.json()) as PageText;
    expect(characterErrorRate(lines.join(" "), page.text)).toBeLessThanOrEqual(0.02);
    // Text was drawn at margin 180 px (of 4200) → ~150 px on the 3508-px page.
    const scale = pre.width / 4200;
    const first = page.regions[0]!.lines[0]!;
    expect(Math.abs(first.box.x - 180 * scale)).toBeLessThan(20);
    expect(first.box.x + first.box.w).toBeLessThanOrEqual(pre.width);
    expect(first.box.h).toBeGreaterThan(60 * scale);
  });

  it("reads a full A4 page at 300 dpi (2480x3508)", async () => {
    const sentences = [
      "Optical character recognition turns scanned pages into text.",
      "Each line here is drawn by the test itself with a known font.",
      "The engine scales the page down to keep the OCR heap small.",
      "Numbers like 42, 1987 and 3.14159 must survive the round trip.",
    ];
    const lines = Array.from({ length: 46 }, (_, i) => sentences[i % sentences.length]!);
    const png = await renderTextPng(lines, { fontSize: 42, width: 2480, margin: 150, lineSpacing: 1.6 });
    await env.FILES.put("uploads/a4/source.png", png);
    const pre = await env.ENGINE.preprocess({ sourceKey: "uploads/a4/source.png", page: 0, outKey: "work/a4/page-0.png" });
    expect(pre.width).toBe(2480);
    expect(pre.height).toBeGreaterThan(3200);
    const t0 = Date.now();
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/a4/text-0.json" });
    const ms = Date.now() - t0;
    const page = (await (await env.FILES.get(rec.key))!.json()) as PageText;
    const cer = characterErrorRate(lines.join(" "), page.text);
    console.log(
      `OCR A4 ${pre.width}x${pre.height}: ${ms} ms, CER ${(cer * 100).toFixed(2)} %, ${rec.words} words, confidence ${rec.confidence}`,
    );
    expect(cer).toBeLessThanOrEqual(0.02);
    for (const region of page.regions) expect(inside(region.box, pre.width, pre.height)).toBe(true);
  });

  it("refuses languages that are not seeded, and missing pages", async () => {
    await env.FILES.put("uploads/lang/source.png", await renderTextPng(["Hello"]));
    const pre = await env.ENGINE.preprocess({ sourceKey: "uploads/lang/source.png", page: 0, outKey: "work/lang/page-0.png" });
    expect(await codeOf(env.ENGINE.recognize({ pageKey: pre.key, languages: ["xyz"], outKey: "work/lang/t.json" }))).toBe(
      "unsupported_language",
    );
    expect(await codeOf(env.ENGINE.recognize({ pageKey: pre.key, languages: ["fra"], outKey: "work/lang/t.json" }))).toBe(
      "unsupported_language",
    );
    expect(await codeOf(env.ENGINE.recognize({ pageKey: pre.key, languages: ["../eng"], outKey: "work/lang/t.json" }))).toBe(
      "unsupported_language",
    );
    expect(await codeOf(env.ENGINE.recognize({ pageKey: pre.key, languages: [], outKey: "work/lang/t.json" }))).toBe("validation_error");
    expect(await codeOf(env.ENGINE.recognize({ pageKey: "work/lang/none.png", languages: ["eng"], outKey: "work/lang/t.json" }))).toBe(
      "not_found",
    );
    expect(await codeOf(env.ENGINE.detect({ pageKey: "work/lang/none.png", outKey: "work/lang/l.json" }))).toBe("not_found");
    expect(await codeOf(env.ENGINE.preprocess({ sourceKey: "uploads/lang/source.png", page: 1, outKey: "work/lang/p.png" }))).toBe(
      "validation_error",
    );
    expect(
      await codeOf(
        env.ENGINE.buildExports({ pageTextKeys: ["work/lang/missing.json"], formats: ["txt"], outPrefix: "exports/x/", baseName: "a" }),
      ),
    ).toBe("not_found");
    expect(
      await codeOf(
        env.ENGINE.buildExports({
          pageTextKeys: ["work/lang/missing.json"],
          formats: ["rtf" as "txt"],
          outPrefix: "exports/x/",
          baseName: "a",
        }),
      ),
    ).toBe("validation_error");
  });
});
