import { describe, expect, it } from "vitest";
import { upscaleGray } from "../../workers/engine/image/gray";
import { enlargeGray } from "../../workers/engine/image/lanczos";

/** A 9 x 9 image: black on its left four columns, white on the rest. */
const edge = () => {
  const data = new Uint8Array(81).fill(255);
  for (let y = 0; y < 9; y++) for (let x = 0; x < 4; x++) data[y * 9 + x] = 0;
  return { width: 9, height: 9, data };
};

describe("enlarging a gray image (Lanczos)", () => {
  it("doubles its size and keeps a flat image flat", () => {
    const out = enlargeGray({ width: 5, height: 3, data: new Uint8Array(15).fill(137) }, 2);
    expect([out.width, out.height]).toEqual([10, 6]);
    expect([...out.data].every((v) => v === 137)).toBe(true);
  });

  it("keeps an edge where it was and sharper than bilinear interpolation does", () => {
    const lanczos = enlargeGray(edge(), 2);
    const bilinear = upscaleGray(edge(), 2);
    const row = (img: { width: number; data: Uint8Array }) => [...img.data.subarray(8 * img.width, 9 * img.width)];
    const l = row(lanczos);
    // The edge lies between source columns 3 and 4: output columns 7 and 8.
    expect(l.slice(0, 6).every((v) => v <= 10)).toBe(true);
    expect(l.slice(10).every((v) => v >= 245)).toBe(true);
    expect(l[7]!).toBeLessThan(128);
    expect(l[8]!).toBeGreaterThan(128);
    // Steeper across the edge: the step between columns 7 and 8 is larger than bilinear's.
    const b = row(bilinear);
    expect(l[8]! - l[7]!).toBeGreaterThan(b[8]! - b[7]!);
  });
});
