import { describe, expect, it } from "vitest";
import { enlargedRgbRows } from "../../workers/engine/image/enlarge";
import { encodeJpegRows } from "../../workers/engine/image/jpeg-encode";
import { decodeJpegScaled } from "../../workers/engine/image/jpeg-scaled";
import { encodeRgba } from "../../workers/engine/inpaint/rgba";
import { decode, meanDiff, type Rgba } from "../render/helpers";

/** A test card: smooth colour ramps, flat colour patches and sharp black text-like bars, opaque. */
function card(width: number, height: number): Rgba {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const patch = Math.floor(x / 20) % 3;
      const bar = y % 12 < 3 && x % 40 < 30;
      data[i] = bar ? 0 : patch === 0 ? 220 : Math.round((255 * x) / width);
      data[i + 1] = bar ? 0 : patch === 1 ? 200 : Math.round((255 * y) / height);
      data[i + 2] = bar ? 0 : patch === 2 ? 40 : 128;
      data[i + 3] = 255;
    }
  return { width, height, data };
}

describe("the strip-by-strip JPEG encoder", () => {
  it("writes a baseline JPEG that decoders read back as close to its pixels as photon's own, at any size", () => {
    for (const [w, h] of [
      [37, 23],
      [160, 96],
      [301, 517],
    ] as const) {
      const img = card(w, h);
      const jpeg = encodeJpegRows(w, h, enlargedRgbRows(img, w, h), 90);
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      // Read back by photon and by the engine's own decoder.
      const photon = decode(jpeg);
      expect([photon.width, photon.height]).toEqual([w, h]);
      // As close as photon's own JPEG of quality 90.
      const photons = meanDiff(decode(encodeRgba(img, "jpg")), img);
      expect(meanDiff(photon, img), `${w}×${h}`).toBeLessThan(photons + 0.5);
      const own = decodeJpegScaled(jpeg, 8);
      expect([own.width, own.height]).toEqual([w, h]);
      expect(meanDiff(own, photon)).toBeLessThan(1);
    }
  });

  it("encodes an image larger than the rows it is given at a time, from rows made on demand", () => {
    const small = card(200, 150);
    let asked = 0;
    const rows = enlargedRgbRows(small, 1000, 750);
    const jpeg = encodeJpegRows(1000, 750, (y, out, at) => (asked++, rows(y, out, at)));
    expect(asked).toBe(750);
    const back = decode(jpeg);
    expect([back.width, back.height]).toEqual([1000, 750]);
    // Mean colour kept: the ramps and patches survive enlargement and encoding.
    const mean = (img: Rgba, c: number) => {
      let s = 0;
      for (let i = c; i < img.data.length; i += 4) s += img.data[i]!;
      return s / (img.data.length / 4);
    };
    for (const c of [0, 1, 2]) expect(Math.abs(mean(back, c) - mean(small, c))).toBeLessThan(2);
  });
});
