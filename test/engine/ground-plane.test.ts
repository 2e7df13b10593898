import { describe, expect, it } from "vitest";
import { groundColour } from "../../workers/engine/picture/ground-plane";

/** A 200 x 100 balloon's ground at `level(x, y)` in all three channels with a grain of ±3, a fleck of ink every 97th pixel; sampled at every other one. */
function ground(level: (x: number, y: number) => number) {
  const [width, height] = [200, 100];
  const data = new Uint8Array(width * height * 4).fill(255);
  const samples: number[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const v = i % 97 === 0 ? 60 : level(x, y) + ((i * 7) % 7) - 3;
      data.fill(v, i * 4, i * 4 + 3);
      if ((x + y) % 2 === 0) samples.push(i);
    }
  return { img: { width, data }, samples, box: { x: 0, y: 0, w: width, h: height } };
}

describe("a balloon's ground colour", () => {
  it("follows the light where it darkens across the balloon", () => {
    // A photo's lamp falloff: 230 at the balloon's left edge, 150 at its right.
    const { img, samples, box } = ground((x) => 230 - 0.4 * x);
    const at = groundColour(img, samples, box);
    expect(Math.abs(at(10, 50)[0] - 226)).toBeLessThanOrEqual(3);
    expect(Math.abs(at(100, 50)[0] - 190)).toBeLessThanOrEqual(3);
    expect(Math.abs(at(190, 50)[0] - 154)).toBeLessThanOrEqual(3);
  });

  it("is one flat colour, the median of the ground, where the light is even", () => {
    const { img, samples, box } = ground(() => 220);
    const at = groundColour(img, samples, box);
    const median = samples.map((i) => img.data[i * 4]!).sort((a, b) => a - b)[samples.length >> 1]!;
    for (const [x, y] of [
      [0, 0],
      [199, 99],
      [100, 50],
    ])
      expect(at(x!, y!)).toEqual([median, median, median]);
  });
});
