import { describe, expect, it } from "vitest";
import { decodeToGray } from "../../workers/engine/image/decode";
import { estimateSkew, inkSample, otsuThreshold } from "../../workers/engine/image/enhance";
import { rotateSmall } from "../../workers/engine/image/geometry";
import type { GrayImage } from "../../workers/engine/image/gray";
import { FIRST_BAND_H, lineBand } from "../../workers/engine/ocr/orientation";
import { fixture } from "./helpers";

/** Whether a row of the band holds ink (a line cut across where the band begins or ends). */
function inked(img: GrayImage, y: number): boolean {
  const t = otsuThreshold(img);
  let n = 0;
  for (let x = 0; x < img.width; x++) if (img.data[y * img.width + x]! <= t) n++;
  return n > img.width * 0.002;
}

const edgesBlank = (band: GrayImage) => !inked(band, 0) && !inked(band, band.height - 1);

describe("orientation trial bands on a skewed page", () => {
  it("hold whole lines once the trial copy is deskewed; cut along the skew they cut lines", async () => {
    const page = await decodeToGray(fixture("skewed"), "png");
    const skew = estimateSkew(inkSample(page));
    expect(Math.abs(skew - 3)).toBeLessThanOrEqual(0.3);
    expect(edgesBlank(lineBand(rotateSmall(page, skew), false, FIRST_BAND_H))).toBe(true);
    expect(edgesBlank(lineBand(page, false, FIRST_BAND_H))).toBe(false);
  });
});
