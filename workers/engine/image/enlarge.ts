import { bilinearTaps } from "./gray";

/** Writes row `y` of an image, 8-bit RGB, into `out` from `at`. */
export type RgbRows = (y: number, out: Uint8Array, at: number) => void;

/**
 * The rows of an opaque RGBA raster enlarged to width × height (bilinear), made one at a time: a
 * picture read smaller than its upload (a JPEG above 9 MP) given back at the upload's size without
 * holding the enlarged raster whole.
 */
export function enlargedRgbRows(img: { width: number; height: number; data: Uint8Array }, width: number, height: number): RgbRows {
  const xs = bilinearTaps(img.width, width);
  const ys = bilinearTaps(img.height, height);
  return (y, out, at) => {
    const top = ys.lo[y]! * img.width * 4;
    const bottom = ys.hi[y]! * img.width * 4;
    const wy = ys.w[y]!;
    for (let x = 0, o = at; x < width; x++) {
      const a = xs.lo[x]! * 4;
      const b = xs.hi[x]! * 4;
      const wx = xs.w[x]!;
      for (let c = 0; c < 3; c++, o++) {
        const t = img.data[top + a + c]! + (img.data[top + b + c]! - img.data[top + a + c]!) * wx;
        const u = img.data[bottom + a + c]! + (img.data[bottom + b + c]! - img.data[bottom + a + c]!) * wx;
        out[o] = t + (u - t) * wy + 0.5;
      }
    }
  };
}
