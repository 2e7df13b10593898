import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { downscaleGray } from "../../workers/engine/image/gray";
import { decodePngToGray } from "../../workers/engine/image/png";
import { readWithGaps } from "../../workers/engine/ocr/layout-gaps";
import { ocrRasterFromGray } from "../../workers/engine/ocr/page-raster";
import { recognizeWith } from "../../workers/engine/ocr/recognize";
import { renderTextPng } from "../helpers/text-image";
import { characterErrorRate } from "./cer";

const LINES = [
  "The expedition left the village at dawn and followed",
  "the river inland for three days before the rains came.",
  "Judy counted the supplies twice and wrote the figures",
  "in a small notebook she kept in her jacket pocket.",
];
const TRUTH = LINES.join("\n");

describe("a page of small text", { timeout: 300_000 }, () => {
  it("is read enlarged: lines 9 and 10 px high read as well as large print", async () => {
    const gray = (await decodePngToGray(await renderTextPng(LINES)))!;
    for (const scale of [0.28, 0.32]) {
      const small = downscaleGray(gray, scale);
      // Read as it is, tesseract loses most letters this small (CER 0.82 and 0.24).
      const plain = await recognizeWith(env.MODELS, ocrRasterFromGray(small), ["eng"]);
      expect(characterErrorRate(TRUTH, plain.text)).toBeGreaterThan(0.15);
      const read = await readWithGaps(env.MODELS, small, ["eng"]);
      expect(characterErrorRate(TRUTH, read.text), read.text).toBeLessThan(0.05);
      // Its boxes are the page's: the last line's words lie within the small page.
      const last = read.regions.at(-1)!.lines.at(-1)!;
      expect(last.box.x + last.box.w).toBeLessThanOrEqual(small.width);
      expect(last.box.y + last.box.h).toBeLessThanOrEqual(small.height);
      expect(last.box.y).toBeGreaterThan(small.height / 2);
    }
  });

  it("of ordinary size is read once, as it is", async () => {
    const gray = (await decodePngToGray(await renderTextPng(LINES, { fontSize: 24 })))!;
    const plain = await recognizeWith(env.MODELS, ocrRasterFromGray(gray), ["eng"]);
    const read = await readWithGaps(env.MODELS, gray, ["eng"]);
    expect(read.text).toBe(plain.text);
    expect(read.regions.flatMap((r) => r.lines.map((l) => l.box))).toEqual(plain.regions.flatMap((r) => r.lines.map((l) => l.box)));
  });
});
