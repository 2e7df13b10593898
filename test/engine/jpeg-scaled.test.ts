import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodeJpegScaled, jpegPixelLimit, scalableJpeg } from "../../workers/engine/image/jpeg-scaled";
import { decode, meanDiff, type Rgba } from "../render/helpers";
import { failure, picture, put } from "./helpers";

/** Area average of `img` over f×f cells (f divides 8: a JPEG decoded at 8/f of its size). */
function shrink(img: Rgba, f: number): Rgba {
  const width = Math.ceil(img.width / f);
  const height = Math.ceil(img.height / f);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        let n = 0;
        for (let dy = 0; dy < f && y * f + dy < img.height; dy++)
          for (let dx = 0; dx < f && x * f + dx < img.width; dx++, n++) sum += img.data[((y * f + dy) * img.width + x * f + dx) * 4 + c]!;
        data[(y * width + x) * 4 + c] = Math.round(sum / n);
      }
  return { width, height, data };
}

// A comic page (colour, 4:2:0) as a baseline and as a progressive JPEG (test/fixtures/pictures).
describe("JPEGs decoded at a smaller size", () => {
  for (const name of ["ctd_006013.jpg", "ctd_006013-progressive.jpg"]) {
    it(`${name}: at full size as photon decodes it, at 4/8 and 2/8 as its area average`, async () => {
      const bytes = await picture(name);
      expect(scalableJpeg(bytes)?.progressive).toBe(name.includes("progressive"));
      const reference = decode(bytes);
      const full = decodeJpegScaled(bytes, 8);
      expect([full.width, full.height]).toEqual([reference.width, reference.height]);
      expect(meanDiff(full, reference)).toBeLessThan(1);
      for (const n of [4, 2]) {
        const small = decodeJpegScaled(bytes, n);
        const expected = shrink(reference, 8 / n);
        expect([small.width, small.height]).toEqual([expected.width, expected.height]);
        // Chroma is averaged at its own (half) resolution before it is spread, not after.
        expect(meanDiff(small, expected), `at ${n}/8`).toBeLessThan(n === 4 ? 1.5 : 2.5);
      }
    });
  }

  it("refuses a file of more scans than any encoder writes (each costs a pass over the image)", async () => {
    const bytes = await picture("ctd_006013-progressive.jpg");
    // Its first scan (the DC coefficients, which depend on no earlier scan), 70 times, then the end.
    let first = 2;
    while (!(bytes[first] === 0xff && bytes[first + 1] === 0xda)) first++;
    let end = first + 2 + ((bytes[first + 2]! << 8) | bytes[first + 3]!);
    while (!(bytes[end] === 0xff && bytes[end + 1] !== 0 && !(bytes[end + 1]! >= 0xd0 && bytes[end + 1]! <= 0xd7))) end++;
    const scan = bytes.subarray(first, end);
    const many = new Uint8Array(first + scan.length * 70 + 2);
    many.set(bytes.subarray(0, first));
    for (let i = 0; i < 70; i++) many.set(scan, first + i * scan.length);
    many.set([0xff, 0xd9], many.length - 2);
    expect(() => decodeJpegScaled(many, 4)).toThrow(/more than 64 scans/);
  });

  it("takes in large baseline JPEGs up to the general limit, progressive ones up to what their coefficients may hold", async () => {
    // A frame header alone: SOF0 or SOF2, 8-bit, the size, three components sampled 2×2, 1×1, 1×1.
    const header = (sof: number, w: number, h: number) =>
      new Uint8Array([
        0xff,
        0xd8,
        0xff,
        sof,
        0x00,
        0x11,
        0x08,
        h >> 8,
        h & 255,
        w >> 8,
        w & 255,
        3,
        1,
        0x22,
        0,
        2,
        0x11,
        1,
        3,
        0x11,
        1,
        0xff,
        0xd9,
      ]);
    expect(jpegPixelLimit(header(0xc0, 4000, 3000))).toBe(40_000_000);
    expect(jpegPixelLimit(header(0xc2, 4000, 3000))).toBe(Math.floor((48 * 1024 * 1024) / 3));
    // A 12 MP baseline photo's header is taken in; a 30 MP progressive one is refused from its header alone.
    const ok = await put("uploads/jpeg-scaled/12mp.jpg", header(0xc0, 4000, 3000));
    expect(await env.ENGINE.inspect({ sourceKey: ok })).toMatchObject({ format: "jpeg", pages: 1 });
    const big = await put("uploads/jpeg-scaled/30mp.jpg", header(0xc2, 6000, 5000));
    expect((await failure(env.ENGINE.inspect({ sourceKey: big }))).code).toBe("image_too_large");
    // Arithmetic-coded JPEGs are decoded by photon only: above its limit they are refused.
    const arithmetic = await put("uploads/jpeg-scaled/arith.jpg", header(0xc9, 4000, 3000));
    expect((await failure(env.ENGINE.inspect({ sourceKey: arithmetic }))).code).toBe("image_too_large");
  });
});
