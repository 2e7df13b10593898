import { describe, expect, it } from "vitest";
import { groundColour } from "../../workers/engine/picture/ground-plane";

/** Samples of a 200 x 100 balloon's ground at every other pixel: `level(x, y)` in all three channels, a fleck of ink every 97th. */
function samples(level: (x: number, y: number) => number) {
  const [xs, ys, r, g, b]: number[][] = [[], [], [], [], []];
  let k = 0;
  for (let y = 0; y < 100; y += 2)
    for (let x = 0; x < 200; x += 2) {
      // Grain of ±3 levels, and flecks of ink the ground's samples may hold.
      const v = ++k % 97 === 0 ? 60 : level(x, y) + ((k * 7) % 7) - 3;
      xs!.push(x);
      ys!.push(y);
      for (const c of [r!, g!, b!]) c.push(v);
    }
  return { xs: xs!, ys: ys!, channels: [r!, g!, b!] as [number[], number[], number[]], box: { x: 0, y: 0, w: 200, h: 100 } };
}

describe("a balloon's ground colour", () => {
  it("follows the light where it darkens across the balloon", () => {
    // A photo's lamp falloff: 230 at the balloon's left edge, 150 at its right.
    const { xs, ys, channels, box } = samples((x) => 230 - 0.4 * x);
    const at = groundColour(xs, ys, channels, box);
    expect(Math.abs(at(10, 50)[0] - 226)).toBeLessThanOrEqual(3);
    expect(Math.abs(at(100, 50)[0] - 190)).toBeLessThanOrEqual(3);
    expect(Math.abs(at(190, 50)[0] - 154)).toBeLessThanOrEqual(3);
  });

  it("is one flat colour, the median of the ground, where the light is even", () => {
    const { xs, ys, channels, box } = samples(() => 220);
    const at = groundColour(xs, ys, channels, box);
    const median = [...channels[0]].sort((a, b) => a - b)[channels[0].length >> 1]!;
    for (const [x, y] of [
      [0, 0],
      [199, 99],
      [100, 50],
    ])
      expect(at(x!, y!)).toEqual([median, median, median]);
  });
});
