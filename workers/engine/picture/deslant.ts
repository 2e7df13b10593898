import type { Box, PageText } from "../../shared/engine-contract";
import type { OcrRaster } from "../ocr/page-raster";
import { mapRegionBoxes } from "../ocr/page-text";

/**
 * Comic lettering is often a heavy italic ("DID IT!", "OOOF!"): letters leaning a quarter of their
 * height and so bold their counters close, which tesseract reads as nothing. Set upright (sheared
 * back) and with its strokes thinned by a pixel, it reads.
 */

/** Shears tried, as horizontal shift per pixel of height: from a light slant to a strong italic (about 27°). */
const SLANTS = [0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5];
/** A slant is taken when its strokes stand this much more upright than as drawn (sum of squared column counts of ink). */
const SHARPER = 1.08;
/** Strokes this thick against the letter height (read size) are heavy: thinned before reading. */
const HEAVY = 0.14;

/** Whether a pixel of the RGBA raster (black text on white) is ink. */
const inkAt = (data: Uint8ClampedArray, i: number) => data[i * 4]! < 128;

/** How sharp the raster's columns of ink are when sheared by `k`: the sum of squared column counts. */
function sharpness(image: OcrRaster["image"], k: number): number {
  const { width, height, data } = image;
  const margin = Math.ceil(Math.abs(k) * height);
  const columns = new Float64Array(width + 2 * margin);
  const yc = height / 2;
  for (let y = 0; y < height; y++) {
    const shift = Math.round(k * (y - yc)) + margin;
    for (let x = 0; x < width; x++) if (inkAt(data, y * width + x)) columns[x + shift]!++;
  }
  let s = 0;
  for (const c of columns) s += c * c;
  return s;
}

/** The lettering's slant (shift per pixel of height that sets it upright), 0 when it stands upright already. */
export function slantOf(image: OcrRaster["image"]): number {
  const upright = sharpness(image, 0);
  let best = 0,
    score = upright * SHARPER;
  for (const k of SLANTS) {
    const s = sharpness(image, k);
    if (s > score) [best, score] = [k, s];
  }
  return best;
}

/** Stroke thickness of the raster's ink (2·area / perimeter) over its letters' height `letter` (pixels). */
function heaviness(image: OcrRaster["image"], letter: number): number {
  const { width, height, data } = image;
  let area = 0,
    edge = 0;
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (!inkAt(data, i)) continue;
      area++;
      if (!inkAt(data, i - 1) || !inkAt(data, i + 1) || !inkAt(data, i - width) || !inkAt(data, i + width)) edge++;
    }
  return edge ? (2 * area) / edge / letter : 0;
}

/**
 * The raster set upright: sheared by its slant (`slantOf`; rows below its middle shifted right,
 * above it left), widened so nothing is cut, and its strokes thinned by a pixel when heavy for
 * letters `letter` pixels tall (read size). Boxes read on it map to the page's sheared copy
 * (`unshear` takes them back with `slant`). None when the lettering neither leans nor is heavy.
 */
export function upright(raster: OcrRaster, letter: number): { raster: OcrRaster; slant: number } | null {
  const k = slantOf(raster.image);
  const heavy = heaviness(raster.image, letter) > HEAVY;
  if (!k && !heavy) return null;
  const { width, height, data } = raster.image;
  const margin = Math.ceil((k * height) / 2);
  const W = width + 2 * margin;
  const out = new Uint8ClampedArray(W * height * 4).fill(255);
  const yc = height / 2;
  for (let y = 0; y < height; y++) {
    const shift = Math.round(k * (y - yc)) + margin;
    out.set(data.subarray(y * width * 4, (y + 1) * width * 4), (y * W + shift) * 4);
  }
  if (heavy) thin(out, W, height);
  const origin = raster.offset ?? { x: 0, y: 0 };
  return {
    raster: { ...raster, offset: { x: origin.x - margin / raster.scale, y: origin.y }, image: { data: out, width: W, height } },
    slant: k,
  };
}

/** Lightens every pixel to the lightest of its 3×3 neighbourhood: dark strokes lose a pixel on each side. */
function thin(data: Uint8ClampedArray, width: number, height: number): void {
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = data[i * 4]!;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let v = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx,
            yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < width && yy < height) v = Math.max(v, gray[yy * width + xx]!);
        }
      data.fill(v, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
}

/**
 * A reading of an `upright` raster with its boxes taken back onto the page: each box moves back
 * by the shear at its middle row (`yc`: the raster's middle row, page pixels).
 */
export function unshear(reading: PageText, k: number, yc: number): PageText {
  const back = (b: Box): Box => ({ ...b, x: Math.max(0, Math.round(b.x - k * (b.y + b.h / 2 - yc))) });
  return { ...reading, regions: mapRegionBoxes(reading.regions, back) };
}
