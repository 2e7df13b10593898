import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodeToGray } from "../../workers/engine/image/decode";
import { inkSample, lineAxisRatio } from "../../workers/engine/image/enhance";
import { rotateQuarter } from "../../workers/engine/image/geometry";
import { downscaleGray } from "../../workers/engine/image/gray";
import { fitScale } from "../../workers/engine/image/limits";
import { lineProfile } from "../../workers/engine/image/upright-lines";
import { detectOrientation, trialCopy } from "../../workers/engine/ocr/orientation";
import { renderTextPng } from "../helpers/text-image";
import { NO_MODELS, realFixture } from "./helpers";

const SENTENCES = [
  "The quick brown fox jumps over the lazy dog near the river bank.",
  "Pack my box with five dozen liquor jugs before the night falls.",
  "How vexingly quick daft zebras jump when the sun is high.",
  "Sphinx of black quartz, judge my vow and sign the ledger here.",
];

describe("upright text lines told by their ink profile", () => {
  it("a real scan's lines carry more ink above their x-height band than below; turned over, less", async () => {
    const scan = await decodeToGray(realFixture("tess_8087_054.3B.tif"), "tiff");
    const page = downscaleGray(scan, fitScale(scan.width, scan.height, 1750));
    const upright = lineProfile(page);
    const over = lineProfile(rotateQuarter(page, 180));
    expect(upright.lines).toBeGreaterThanOrEqual(50);
    expect(upright.above).toBeGreaterThan(2 * upright.below);
    expect(over.below).toBeGreaterThan(2 * over.above);
  });

  it("the page upright stays as it is, and turned over is still turned back (by trial readings)", async () => {
    const page = await decodeToGray(realFixture("tess_8087_054.3B.tif"), "tiff");
    expect(await detectOrientation(env.MODELS, page, "eng")).toBe(0);
    expect(await detectOrientation(env.MODELS, rotateQuarter(page, 180), "eng")).toBe(180);
  });

  it("lines repeating a few sentences, their characters lined up in columns, are upright without a reading, and turned over are read", async () => {
    const lines = Array.from({ length: 40 }, (_, i) => SENTENCES[i % SENTENCES.length]!);
    const page = await decodeToGray(await renderTextPng(lines, { fontSize: 24 }), "png");
    // The projection profiles leave the axis open: the column profile is the sharper.
    expect(lineAxisRatio(inkSample(page))).toBeLessThan(1);
    expect(await detectOrientation(NO_MODELS, page, "nld")).toBe(0);
    await expect(detectOrientation(NO_MODELS, rotateQuarter(page, 180), "nld")).rejects.toThrow();
    expect(await detectOrientation(env.MODELS, rotateQuarter(page, 180), "eng")).toBe(180);
  });

  it("trial readings of large lines (a small page at 300 dpi) are cut from a copy scaled to body-text lines; body text is read as it is", async () => {
    const large = await decodeToGray(await renderTextPng(SENTENCES.slice(0, 3), { fontSize: 60 }), "png");
    const profile = lineProfile(large);
    expect(profile.heights / profile.lines).toBeGreaterThan(38);
    const copy = trialCopy(large, profile);
    expect(copy.width).toBeLessThan(large.width * 0.7);
    const scaled = lineProfile(copy);
    expect(scaled.heights / scaled.lines).toBeLessThan(30);
    // Turned over, the copy is still read back.
    expect(await detectOrientation(env.MODELS, rotateQuarter(large, 180), "eng")).toBe(180);
    const body = await decodeToGray(await renderTextPng(SENTENCES, { fontSize: 18 }), "png");
    expect(trialCopy(body, lineProfile(body))).toBe(body);
  });

  it("counts the most lines any one strip of the page holds (a planned split needs enough of them)", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => SENTENCES[i % SENTENCES.length]!.slice(0, 30));
    const columns = await decodeToGray(await renderTextPng(lines, { fontSize: 18, columns: 2 }), "png");
    const profile = lineProfile(columns);
    expect(profile.mostInStrip).toBe(10);
    expect(profile.lines).toBeGreaterThan(10);
  });
});
