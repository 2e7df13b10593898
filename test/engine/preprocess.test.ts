import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { characterErrorRate } from "./cer";
import { fixture, put, readPage } from "./helpers";

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
});
