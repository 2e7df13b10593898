import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { characterErrorRate } from "./cer";
import { failure, fixture, put } from "./helpers";

describe("reocr: one rectangle from the original at full resolution", () => {
  it("reads only the words inside the rectangle, boxes in page coordinates, also on a turned page", async () => {
    const key = await put("uploads/reocr/rot90.png", fixture("rotated_90"));
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/reocr/page.png" });
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/reocr/text.json" });
    const page = (await (await env.FILES.get(rec.key))!.json()) as {
      regions: { lines: { box: { x: number; y: number; w: number; h: number }; text: string }[] }[];
    };
    const line = page.regions[0]!.lines[1]!;
    const box = { x: line.box.x - 10, y: line.box.y - 8, w: line.box.w + 20, h: line.box.h + 16 };

    for (const withPageKey of [true, false]) {
      const out = await env.ENGINE.reocr({
        sourceKey: key,
        page: 0,
        box,
        languages: ["eng"],
        ...(withPageKey ? { pageKey: pre.key } : {}),
      });
      expect(characterErrorRate("in possession of a good fortune, must be in want of a wife.", out.text), out.text).toBeLessThanOrEqual(
        0.03,
      );
      expect(out.lines).toHaveLength(1);
      expect(out.path).toBe("ocr");
      expect(out.confidence).toBeGreaterThan(0.8);
      const b = out.lines[0]!.box;
      expect(Math.abs(b.x - line.box.x)).toBeLessThan(12);
      expect(Math.abs(b.y - line.box.y)).toBeLessThan(12);
    }
  });

  it("answers from the text layer on a PDF text page, and validates the rectangle", async () => {
    const { PDFDocument, StandardFonts } = await import("pdf-lib");
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const p = doc.addPage([595, 842]);
    p.drawText("Left words here", { x: 60, y: 760, size: 14, font });
    p.drawText("Right side text", { x: 350, y: 760, size: 14, font });
    const key = await put("uploads/reocr/layer.pdf", await doc.save());
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/reocr/layer.png" });
    const out = await env.ENGINE.reocr({
      sourceKey: key,
      page: 0,
      box: { x: 1300, y: 250, w: 1000, h: 150 },
      languages: ["eng"],
      pageKey: pre.key,
    });
    expect(out).toMatchObject({ text: "Right side text", path: "text_layer", confidence: 1 });
    expect((await failure(env.ENGINE.reocr({ sourceKey: key, page: 0, box: { x: 0, y: 0, w: -5, h: 10 }, languages: ["eng"] }))).code).toBe(
      "validation_error",
    );
    expect(
      (await failure(env.ENGINE.reocr({ sourceKey: key, page: 0, box: { x: 10, y: 10, w: 50, h: 50 }, languages: ["xyz"] }))).code,
    ).toBe("unsupported_language");
  });
});
