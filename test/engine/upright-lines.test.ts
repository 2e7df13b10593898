import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodeToGray } from "../../workers/engine/image/decode";
import { rotateQuarter } from "../../workers/engine/image/geometry";
import { downscaleGray } from "../../workers/engine/image/gray";
import { fitScale } from "../../workers/engine/image/limits";
import { lineProfile } from "../../workers/engine/image/upright-lines";
import { detectOrientation } from "../../workers/engine/ocr/orientation";
import { realFixture } from "./helpers";

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
});
