import { engineError } from "../errors";
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from "../memory";

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
