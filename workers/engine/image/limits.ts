import { engineError } from "../errors";

/** Decompression-bomb guard, checked from the headers before any decoding. */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_SIDE = 20_000;

/**
 * JPEG, WebP, GIF and BMP go through photon, which holds the RGBA pixels in its wasm heap
 * (4 B/px, and that heap never shrinks), copies them out (4 B/px) and then converts them to gray
 * (1 B/px): ~9 bytes a pixel at the peak. 9 MP (an A4 page at 300 dpi is 8.7 MP) peaks near
 * 80 MB, so cached OCR engines are dropped before such a decode (see decode.ts). PNG and TIFF
 * are decoded by the engine's own streaming decoders straight to gray (1 B/px) and keep the
 * general limit.
 */
export const MAX_PHOTON_PIXELS = 9_000_000;

/** Longest side of the normalised page image written by preprocess. */
export const MAX_PAGE_SIDE = 3508;

/**
 * Working resolution for tesseract: its wasm heap never shrinks and an A4 page at 300 dpi
 * (2480x3508) costs ~112 MB with best_int models, against a 128 MB isolate. Pages are OCR'd at
 * most this large (~210 dpi for A4) and the boxes scaled back to page coordinates.
 */
export const MAX_OCR_SIDE = 2500;
export const MAX_OCR_PIXELS = 4_500_000;

export function assertDimensions(width: number, height: number, what: string, maxPixels = MAX_IMAGE_PIXELS): void {
  if (!(width > 0 && height > 0)) throw engineError("corrupt_file", `The ${what} declares an empty size (${width}x${height}).`);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > maxPixels) {
    throw engineError(
      "image_too_large",
      `The ${what} is ${width}x${height} pixels; the limit is ${MAX_IMAGE_SIDE} pixels a side and ${maxPixels / 1e6} megapixels.`,
    );
  }
}

/** Scale factor (≤ 1) that fits width x height within a longest side and a pixel budget. */
export function fitScale(width: number, height: number, maxSide: number, maxPixels = Infinity): number {
  return Math.min(1, maxSide / Math.max(width, height), Math.sqrt(maxPixels / (width * height)));
}
