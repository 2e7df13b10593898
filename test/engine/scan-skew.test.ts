import { describe, expect, it } from "vitest";
import type { GrayImage } from "../../workers/engine/image/gray";
import { quadToFlat, squareToQuad, warpGray } from "../../workers/engine/image/perspective";
import { levelPage, readingPage, scanSkew } from "../../workers/engine/picture/scan-skew";

/**
 * A 900 x 1200 page of rows of dashes of uneven lengths (lettering, panel borders) every 30 px, its
 * rows running at `deg` degrees (descending to the right for positive), or of upright columns of them.
 */
function ruledPage(deg: number, columns = false): GrayImage {
  const width = 900;
  const height = 1200;
  const data = new Uint8Array(width * height).fill(235);
  const slope = Math.tan((deg * Math.PI) / 180);
  // Dashes 6–29 px long and gaps of 3–10 px, from a fixed sequence: no two rows alike.
  let seed = 7;
  const next = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
  const length = columns ? height : width;
  for (let k = -10; k < 50; k++)
    for (let t = next(10); t < length; t += 3 + next(8)) {
      const dash = Math.min(length, t + 6 + next(24));
      for (; t < dash; t++)
        for (let s = 0; s < 4; s++) {
          const [x, y] = columns ? [k * 30 + s, t] : [t, Math.round(k * 30 + t * slope) + s];
          if (x >= 0 && y >= 0 && x < width && y < height) data[y * width + x] = 20;
        }
    }
  return { width, height, data };
}

describe("a picture scanned askew", () => {
  it("has its skew found where its rows line up clearly turned, within a scan's skews", () => {
    expect(Math.abs(scanSkew(ruledPage(2)) - 2)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(scanSkew(ruledPage(-1.2)) + 1.2)).toBeLessThanOrEqual(0.2);
    // Level, barely turned, turned further than a scan is (lettering drawn turned), or with no rows: read as it stands.
    expect(scanSkew(ruledPage(0))).toBe(0);
    expect(scanSkew(ruledPage(0.2))).toBe(0);
    expect(scanSkew(ruledPage(4.8))).toBe(0);
    expect(scanSkew(ruledPage(0, true))).toBe(0);
  });

  it("is turned level within the box around it: its rows run level and none of it is cut off", () => {
    const page = ruledPage(2);
    const flat = levelPage(page.width, page.height, 2);
    expect(flat.edge).toBe(true);
    expect(flat.width).toBe(Math.ceil(900 * Math.cos(Math.PI / 90) + 1200 * Math.sin(Math.PI / 90)));
    // Every corner of the scan lies on the level page.
    const m = squareToQuad(flat.quad);
    for (const [x, y] of [
      [0, 0],
      [899, 0],
      [899, 1199],
      [0, 1199],
    ]) {
      const p = quadToFlat(m, flat.width, flat.height, x!, y!);
      expect(p.x).toBeGreaterThanOrEqual(-1);
      expect(p.y).toBeGreaterThanOrEqual(-1);
      expect(p.x).toBeLessThanOrEqual(flat.width);
      expect(p.y).toBeLessThanOrEqual(flat.height);
    }
    // Turned level, the rows line up: nothing is left to turn.
    const level = warpGray(page, flat.quad, flat.width, flat.height, true);
    expect(scanSkew(level)).toBe(0);
    // Beyond the scan, its edge is drawn on, not white: a dark row reaching the edge goes on dark.
    const edge = warpGray({ width: 4, height: 4, data: new Uint8Array(16).fill(0) }, levelPage(4, 4, 3).quad, 5, 5, true);
    expect(edge.data[0]).toBe(0);
  });

  it("is the page a picture is read on, unless it was photographed (its page lying in the photo)", () => {
    const base = { rotation: 0 as const, skew: 0, scale: 1, sourceWidth: 900, sourceHeight: 1200 };
    expect(readingPage(base)).toBeUndefined();
    expect(readingPage({ ...base, level: 2 })).toEqual(levelPage(900, 1200, 2));
    const lying = { quad: levelPage(900, 1200, 5).quad, width: 800, height: 1100 };
    expect(readingPage({ ...base, level: 2, lying })).toBe(lying);
  });
});
