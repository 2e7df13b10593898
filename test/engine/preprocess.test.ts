import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodeToGray } from "../../workers/engine/image/decode";
import { otsuThreshold } from "../../workers/engine/image/enhance";
import type { GrayImage } from "../../workers/engine/image/gray";
import { FIRST_BAND_H, lineBand } from "../../workers/engine/ocr/orientation";
import { characterErrorRate } from "./cer";
import { fixture, put, readPage, realFixture } from "./helpers";

/**
 * Text lines in the left quarter of an image (the first column of text, clear of the scan's
 * photographs): runs of rows holding ink, separated by blank rows.
 */
function textLines(img: GrayImage): number {
  const t = otsuThreshold(img);
  const w = img.width >> 2;
  let lines = 0;
  let inLine = false;
  for (let y = 0; y < img.height; y++) {
    let ink = 0;
    for (let x = 0; x < w; x++) if (img.data[y * img.width + x]! <= t) ink++;
    const inked = ink > w * 0.005;
    if (inked && !inLine) lines++;
    inLine = inked;
  }
  return lines;
}

const ENG = [
  "It is a truth universally acknowledged, that a single man",
  "in possession of a good fortune, must be in want of a wife.",
  "However little known the feelings or views of such a man may be",
  "on his first entering a neighbourhood, this truth is so well fixed",
].join(" ");

describe("preprocessing turns pages upright and straight", () => {
  for (const turned of [90, 180, 270] as const) {
    it(`a page turned ${turned}° clockwise is turned back and read`, async () => {
      const key = await put(`uploads/rot/${turned}.png`, fixture(`rotated_${turned}`));
      const { pre, text } = await readPage(`rot-${turned}`, key, 0, ["eng"]);
      expect(pre.rotation).toBe((360 - turned) % 360);
      // Upright pages are wider than tall here (the rendering is a short A4-wide strip).
      expect(pre.width).toBeGreaterThan(pre.height);
      expect(characterErrorRate(ENG, text.text), text.text).toBeLessThanOrEqual(0.03);
    });
  }

  it("an upright page is left as it is", async () => {
    const key = await put("uploads/rot/0.png", fixture("lang_eng"));
    const { pre } = await readPage("rot-0", key, 0, ["eng"]);
    expect(pre).toMatchObject({ rotation: 0, skew: 0 });
  });

  it("a page skewed by 3° is deskewed (±0.3°) and read", async () => {
    const key = await put("uploads/skew/3.png", fixture("skewed"));
    const { pre, text } = await readPage("skew", key, 0, ["eng"]);
    expect(Math.abs(pre.skew - 3)).toBeLessThanOrEqual(0.3);
    expect(pre.transform).toMatchObject({ rotation: 0, scale: 1 });
    expect(characterErrorRate(ENG, text.text), text.text).toBeLessThanOrEqual(0.03);
  });

  it("orientation first reads a short band of two or three whole lines of a real scan, then the full band", async () => {
    const page = await decodeToGray(realFixture("tess_8087_054.3B.tif"), "tiff");
    const short = lineBand(page, false, FIRST_BAND_H);
    const full = lineBand(page, false);
    expect(textLines(short)).toBeGreaterThanOrEqual(2);
    expect(textLines(short)).toBeLessThanOrEqual(3);
    expect(textLines(full)).toBeGreaterThanOrEqual(5);
    // Whole lines: the band's first and last rows are blank paper.
    for (const band of [short, full]) {
      expect(textLines({ ...band, height: 1 })).toBe(0);
      expect(textLines({ ...band, height: 1, data: band.data.subarray((band.height - 1) * band.width) })).toBe(0);
    }
  });
});
