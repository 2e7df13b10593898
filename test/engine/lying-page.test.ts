import { describe, expect, it } from "vitest";
import { flatToQuad, quadToFlat, squareToQuad } from "../../workers/engine/image/perspective";
import { textOnPhoto } from "../../workers/engine/picture/lying-page";
import type { PageText, Quad } from "../../workers/shared/engine-contract";

// A page seen at a slant: its corners in a 1200 x 1700 photo (top left, top right, bottom right, bottom left).
const QUAD: Quad = [
  [73.5, 186.4],
  [1177.3, 111.2],
  [953.7, 1614.6],
  [200.1, 1444.6],
];

describe("a page lying in a photo", () => {
  it("maps points of the flat page onto the photo and back", () => {
    const m = squareToQuad(QUAD);
    for (const [x, y] of [
      [0, 0],
      [1105, 0],
      [300, 900],
      [1105, 1704],
      [552.5, 852.5],
    ] as const) {
      const p = flatToQuad(m, 1106, 1705, x, y);
      const back = quadToFlat(m, 1106, 1705, p.x, p.y);
      expect(back.x).toBeCloseTo(x, 6);
      expect(back.y).toBeCloseTo(y, 6);
    }
    // The flat page's corners are the outline's (coordinates of pixel centres: half a pixel off the corner).
    const tr = flatToQuad(m, 1106, 1705, 1105.5, -0.5);
    expect(tr.x).toBeCloseTo(1177.3 - 0.5, 6);
    expect(tr.y).toBeCloseTo(111.2 - 0.5, 6);
  });

  it("puts text read on the flat page back where the photo shows it, each box its own size", () => {
    const line = { box: { x: 500, y: 400, w: 200, h: 30 }, text: "HOLD STILL", confidence: 0.9, words: [] };
    const text: PageText = {
      width: 1106,
      height: 1705,
      languages: ["eng"],
      text: "HOLD STILL",
      confidence: 0.9,
      regions: [{ box: line.box, text: line.text, confidence: 0.9, lines: [line], frame: { x: 480, y: 380, w: 240, h: 70 } }],
    };
    const image = { width: 1106, height: 1705, data: new Uint8Array(0) };
    const put = textOnPhoto(text, { image, quad: QUAD }, 1204, 1680);
    expect([put.width, put.height]).toEqual([1204, 1680]);
    const r = put.regions[0]!;
    // Centred where the photo shows the box's centre (within a few pixels: the mean of its corners),
    // of its size on the photo (within a fifth).
    const c = flatToQuad(squareToQuad(QUAD), 1106, 1705, 600, 415);
    expect(Math.abs(r.box.x + r.box.w / 2 - c.x)).toBeLessThan(3);
    expect(Math.abs(r.box.y + r.box.h / 2 - c.y)).toBeLessThan(3);
    expect(r.box.w / 200).toBeGreaterThan(0.8);
    expect(r.box.w / 200).toBeLessThan(1.2);
    expect(r.box.h).toBeLessThan(40);
    // The balloon's interior holds the text's box.
    const f = r.frame!;
    expect(f.x <= r.box.x && f.y <= r.box.y && f.x + f.w >= r.box.x + r.box.w && f.y + f.h >= r.box.y + r.box.h).toBe(true);
    expect(r.lines[0]!.box).toEqual(r.box);
  });
});
