import { describe, expect, it } from "vitest";
import type { PageText } from "../../workers/shared/engine-contract";
import type { OcrRaster } from "../../workers/engine/ocr/page-raster";
import { slantOf, unshear, upright } from "../../workers/engine/picture/deslant";

const W = 240,
  H = 60;

/** A raster of black strokes on white: bars 40 px tall leaning by `k` (top to the right), `stroke` px thick, every 24 px. */
function lettering(k: number, stroke: number): OcrRaster {
  const data = new Uint8ClampedArray(W * H * 4).fill(255);
  for (let x0 = 30; x0 < W - 40; x0 += 24)
    for (let y = 10; y < 50; y++) {
      const x = Math.round(x0 + k * (50 - y));
      data.fill(0, (y * W + x) * 4, (y * W + x + stroke) * 4);
      for (let i = 0; i < stroke; i++) data[(y * W + x + i) * 4 + 3] = 255;
    }
  return { width: 1000, height: 1000, scale: 2, offset: { x: 100, y: 200 }, image: { data, width: W, height: H } };
}

/** Width of the widest column run of ink: a bar standing upright covers only its stroke's width. */
function columnsInked(raster: OcrRaster): number {
  const { data, width, height } = raster.image;
  let n = 0;
  for (let x = 0; x < width; x++) {
    let ink = false;
    for (let y = 0; y < height; y++) if (data[(y * width + x) * 4]! < 128) ink = true;
    if (ink) n++;
  }
  return n;
}

describe("italic lettering set upright", () => {
  it("measures the lean of italic strokes and none for upright ones", () => {
    expect(slantOf(lettering(0.25, 4).image)).toBeCloseTo(0.25, 5);
    expect(slantOf(lettering(0, 4).image)).toBe(0);
  });

  it("shears the strokes upright and thins heavy ones by a pixel each side", () => {
    const italic = lettering(0.25, 4);
    // Light strokes for 34 px letters (4/34 < 0.14): sheared only, eight bars four columns wide.
    const light = upright(italic, 34)!;
    expect(light.slant).toBe(0.25);
    expect(columnsInked(light.raster)).toBeLessThanOrEqual(8 * 5);
    expect(columnsInked(italic)).toBeGreaterThan(8 * 10);
    const heavy = upright(lettering(0.25, 8), 34)!.raster;
    expect(columnsInked(heavy)).toBeLessThanOrEqual(8 * 7);
    expect(columnsInked(heavy)).toBeGreaterThanOrEqual(8 * 5);
    // Widened by the shear on both sides, its offset moved left by as much (page pixels).
    const margin = (light.raster.image.width - W) / 2;
    expect(margin).toBe(Math.ceil((0.25 * H) / 2));
    expect(light.raster.offset).toEqual({ x: 100 - margin / 2, y: 200 });
  });

  it("thins heavy upright lettering in place, and leaves light upright lettering alone", () => {
    const heavy = upright(lettering(0, 8), 34)!;
    expect(heavy.slant).toBe(0);
    expect(heavy.raster.image.width).toBe(W);
    expect(columnsInked(heavy.raster)).toBe(8 * 6);
    expect(upright(lettering(0, 4), 34)).toBeNull();
  });

  it("takes boxes read on the upright copy back to where the italic letters lie on the page", () => {
    // A word in the raster's top rows (page y 205–215, the raster's middle at 200 + 30 / 2 = 215).
    const box = { x: 150, y: 205, w: 20, h: 10 };
    const reading: PageText = {
      width: 1000,
      height: 1000,
      languages: ["eng"],
      text: "DID",
      confidence: 0.9,
      regions: [
        {
          box,
          text: "DID",
          confidence: 0.9,
          lines: [{ box, text: "DID", confidence: 0.9, words: [{ box, text: "DID", confidence: 0.9 }] }],
        },
      ],
    };
    const back = unshear(reading, 0.25, 215);
    // Its middle row (210) lies 5 page pixels above the raster's: the shear had moved it 1.25 px left.
    const moved = { ...box, x: Math.round(150 + 0.25 * 5) };
    expect(back.regions[0]!.box).toEqual(moved);
    expect(back.regions[0]!.lines[0]!.box).toEqual(moved);
    expect(back.regions[0]!.lines[0]!.words[0]!.box).toEqual(moved);
  });
});
