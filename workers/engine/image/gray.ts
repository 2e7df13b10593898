/** An 8-bit grayscale raster, one byte a pixel, rows top to bottom. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
  /** Pixels per inch, where known (a page image read for OCR, `loadPageForReading`); copies and crops leave it out. */
  dpi?: number;
}

/** An 8-bit RGBA raster, rows top to bottom, 4 bytes a pixel. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Luma (Rec. 601) of one colour, in integer weights that sum to 256. */
export const luma = (r: number, g: number, b: number) => (r * 77 + g * 150 + b * 29) >> 8;

/** Luma (Rec. 601) of RGBA pixels, composited over white so transparent backgrounds stay light. */
export function rgbaToGray(rgba: Uint8Array, width: number, height: number): GrayImage {
  const n = width * height;
  const data = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 4) {
    const a = rgba[j + 3]!;
    const y = luma(rgba[j]!, rgba[j + 1]!, rgba[j + 2]!);
    data[i] = a === 255 ? y : (y * a + 255 * (255 - a) + 127) / 255;
  }
  return { width, height, data };
}

/**
 * Levels by which a gray pixel's channels may differ: a gray image saved as a colour JPEG decodes
 * with its colour planes rounded (photon's own encoder leaves up to 2 on a few hundred pixels of a
 * comic page).
 */
const GRAY_SLACK = 2;

/** Whether every pixel of an RGBA raster is an opaque gray (`GRAY_SLACK`): an upload with no colour in it. */
export function isColourless(rgba: Uint8Array): boolean {
  for (let j = 0; j < rgba.length; j += 4) {
    const r = rgba[j]!;
    if (Math.abs(r - rgba[j + 1]!) > GRAY_SLACK || Math.abs(r - rgba[j + 2]!) > GRAY_SLACK || rgba[j + 3] !== 255) return false;
  }
  return true;
}

/** RGBA copy of a gray image in a fresh buffer (offset 0), as tesseract's loadImage expects. */
export function grayToRgba(img: GrayImage): Uint8ClampedArray {
  const n = img.width * img.height;
  const buffer = new ArrayBuffer(n * 4);
  // One 32-bit store a pixel (R = G = B = v, A = 255; little-endian, as wasm and every Workers host are).
  const words = new Int32Array(buffer);
  const src = img.data;
  for (let i = 0; i < n; i++) words[i] = 0xff000000 | (src[i]! * 0x010101);
  return new Uint8ClampedArray(buffer);
}

/** Area-average downscale by `scale` (≤ 1); returns the image itself when no scaling is needed. */
export function downscaleGray(img: GrayImage, scale: number): GrayImage {
  if (scale >= 1) return img;
  const { width: w, height: h, data: src } = img;
  const w2 = Math.max(1, Math.round(w * scale));
  const h2 = Math.max(1, Math.round(h * scale));
  const x0 = new Uint32Array(w2 + 1);
  for (let x = 0; x <= w2; x++) x0[x] = Math.min(w, Math.round((x * w) / w2));
  const out = new Uint8Array(w2 * h2);
  const acc = new Uint32Array(w2);
  for (let y2 = 0; y2 < h2; y2++) {
    const ya = Math.round((y2 * h) / h2);
    const yb = Math.max(ya + 1, Math.round(((y2 + 1) * h) / h2));
    acc.fill(0);
    for (let y = ya; y < yb; y++) {
      const row = y * w;
      for (let x2 = 0; x2 < w2; x2++) {
        let s = 0;
        const end = Math.max(x0[x2]! + 1, x0[x2 + 1]!);
        for (let x = x0[x2]!; x < end; x++) s += src[row + x]!;
        acc[x2]! += s;
      }
    }
    const rows = yb - ya;
    for (let x2 = 0; x2 < w2; x2++) {
      const cols = Math.max(1, x0[x2 + 1]! - x0[x2]!);
      out[y2 * w2 + x2] = Math.round(acc[x2]! / (rows * cols));
    }
  }
  return { width: w2, height: h2, data: out };
}

/**
 * For resampling `from` samples to `to` (pixel centres aligned): each output sample's two source
 * samples and the weight of the second (bilinear).
 */
export function bilinearTaps(from: number, to: number): { lo: Int32Array; hi: Int32Array; w: Float32Array } {
  const lo = new Int32Array(to);
  const hi = new Int32Array(to);
  const w = new Float32Array(to);
  for (let i = 0; i < to; i++) {
    const s = Math.min(from - 1, Math.max(0, ((i + 0.5) * from) / to - 0.5));
    lo[i] = Math.floor(s);
    hi[i] = Math.min(from - 1, lo[i]! + 1);
    w[i] = s - lo[i]!;
  }
  return { lo, hi, w };
}

/** Bilinear upscale by `scale` (≥ 1); returns the image itself when no scaling is needed. */
export function upscaleGray(img: GrayImage, scale: number): GrayImage {
  if (scale <= 1) return img;
  const { width: w, height: h, data: src } = img;
  const w2 = Math.round(w * scale);
  const h2 = Math.round(h * scale);
  const out = new Uint8Array(w2 * h2);
  const { lo: xl, hi: xr, w: fx } = bilinearTaps(w, w2);
  for (let y = 0; y < h2; y++) {
    const sy = Math.min(h - 1, Math.max(0, ((y + 0.5) * h) / h2 - 0.5));
    const top = Math.floor(sy) * w;
    const bottom = Math.min(h - 1, Math.floor(sy) + 1) * w;
    const fy = sy - Math.floor(sy);
    for (let x = 0; x < w2; x++) {
      const a = src[top + xl[x]!]! + (src[top + xr[x]!]! - src[top + xl[x]!]!) * fx[x]!;
      const b = src[bottom + xl[x]!]! + (src[bottom + xr[x]!]! - src[bottom + xl[x]!]!) * fx[x]!;
      out[y * w2 + x] = Math.round(a + (b - a) * fy);
    }
  }
  return { width: w2, height: h2, data: out };
}
