import { describe, expect, it } from "vitest";
import { grayHistogram, histogramQuantile, medianLevel } from "../../workers/engine/image/histogram";

describe("gray histograms", () => {
  it("counts every level of the data", () => {
    const h = grayHistogram(new Uint8Array([0, 7, 7, 255, 7]));
    expect([h[0], h[7], h[255], h.reduce((a, b) => a + b, 0)]).toEqual([1, 3, 1, 5]);
  });

  it("finds the level past a share of the count, and the median", () => {
    // 10 pixels: 2 at 10, 3 at 50, 5 at 200.
    const h = grayHistogram(new Uint8Array([10, 10, 50, 50, 50, 200, 200, 200, 200, 200]));
    expect(histogramQuantile(h, 0.02)).toBe(10);
    expect(histogramQuantile(h, 0.2)).toBe(50); // exactly 2 of 10 at 10: not more than a fifth
    expect(histogramQuantile(h, 0.98)).toBe(200);
    // Half lie at 50 or below, not more than half: the median is the next level.
    expect(medianLevel(h)).toBe(200);
    expect(medianLevel(grayHistogram(new Uint8Array([3, 3, 9])))).toBe(3);
  });

  it("says when a histogram is empty", () => {
    expect(medianLevel(new Uint32Array(256))).toBe(-1);
  });
});
