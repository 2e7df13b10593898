import type { Box, PageTransform } from "../../shared/engine-contract";
import type { GrayImage } from "./gray";
import { warpAt } from "./dewarp";
import { flatToQuad, squareToQuad } from "./perspective";

export type QuarterTurn = 0 | 90 | 180 | 270;

/** Turns an image clockwise by a multiple of 90°. */
export function rotateQuarter(img: GrayImage, rotation: QuarterTurn): GrayImage {
  if (rotation === 0) return img;
  const { width: w, height: h, data: src } = img;
  const ow = rotation === 180 ? w : h;
  const oh = rotation === 180 ? h : w;
  const out = new Uint8Array(ow * oh);
  for (let y = 0; y < oh; y++) {
    const row = y * ow;
    for (let x = 0; x < ow; x++) {
      let sx: number, sy: number;
      if (rotation === 90) {
        sx = y;
        sy = h - 1 - x;
      } else if (rotation === 180) {
        sx = w - 1 - x;
        sy = h - 1 - y;
      } else {
        sx = w - 1 - y;
        sy = x;
      }
      out[row + x] = src[sy * w + sx]!;
    }
  }
  return { width: ow, height: oh, data: out };
}

/** Bilinear sample with a white background outside the image. */
function sample(img: GrayImage, x: number, y: number): number {
  const { width: w, height: h, data } = img;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < -1 || y0 < -1 || x0 >= w || y0 >= h) return 255;
  const fx = x - x0;
  const fy = y - y0;
  const at = (xx: number, yy: number) => (xx < 0 || yy < 0 || xx >= w || yy >= h ? 255 : data[yy * w + xx]!);
  const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
  const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/**
 * Rotates by `degrees` about the centre on the same canvas (white fill). With a skew angle `a`
 * measured by `estimateSkew` (text lines descending to the right by `a`), rotating by `a` makes
 * the lines horizontal: output point p samples the source at R(a)·p.
 */
export function rotateSmall(img: GrayImage, degrees: number): GrayImage {
  if (degrees === 0) return img;
  const { width: w, height: h, data } = img;
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  const out = new Uint8Array(w * h);
  // The bilinear sample of `sample`, inlined: the source point moves by (cos, sin) per output
  // pixel, and only samples at the image's edge need the white-background checks.
  for (let y = 0; y < h; y++) {
    const v = y - cy;
    let sx = cx - cx * cos - v * sin;
    let sy = cy - cx * sin + v * cos;
    const row = y * w;
    for (let x = 0; x < w; x++, sx += cos, sy += sin) {
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 >= 0 && y0 >= 0 && x0 + 1 < w && y0 + 1 < h) {
        const fx = sx - x0;
        const fy = sy - y0;
        const i = y0 * w + x0;
        const top = data[i]! + (data[i + 1]! - data[i]!) * fx;
        const bottom = data[i + w]! + (data[i + w + 1]! - data[i + w]!) * fx;
        out[row + x] = top + (bottom - top) * fy;
      } else out[row + x] = sample(img, sx, sy);
    }
  }
  return { width: w, height: h, data: out };
}

/** Size of the raster the transform's scale, turn and skew apply to: the source's, or a photographed page's once made flat. */
export function unscaledSize(t: PageTransform): { width: number; height: number } {
  return t.flat ? { width: t.flat.width, height: t.flat.height } : { width: t.sourceWidth, height: t.sourceHeight };
}

/** Size of that raster after its quarter turn. */
function turnedSize(t: PageTransform): { w: number; h: number } {
  const { width, height } = unscaledSize(t);
  return t.rotation === 90 || t.rotation === 270 ? { w: height, h: width } : { w: width, h: height };
}

/** A point of that raster in the source raster: through the flat page's outline on a photographed page. */
function unflatten(t: PageTransform, p: { x: number; y: number }): { x: number; y: number } {
  return t.flat ? flatToQuad(squareToQuad(t.flat.quad), t.flat.width, t.flat.height, p.x, p.y) : p;
}

/** Maps a point of the normalised page image to the source raster (inverse of the transform). */
export function pageToSource(t: PageTransform, px: number, py: number): { x: number; y: number } {
  const { w, h } = turnedSize(t);
  // Undo the straightening of bent lines, the last step.
  if (t.dewarp) py += warpAt(t.dewarp, Math.round(w * t.scale), Math.round(h * t.scale), px, py);
  // Undo the scale, then the skew rotation about the centre (as rotateSmall samples).
  const x1 = px / t.scale;
  const y1 = py / t.scale;
  const a = (t.skew * Math.PI) / 180;
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  const u = x1 - cx;
  const v = y1 - cy;
  const x2 = cx + u * Math.cos(a) - v * Math.sin(a);
  const y2 = cy + u * Math.sin(a) + v * Math.cos(a);
  // Undo the quarter turn (as rotateQuarter samples).
  const { width: W, height: H } = unscaledSize(t);
  switch (t.rotation) {
    case 90:
      return unflatten(t, { x: y2, y: H - 1 - x2 });
    case 180:
      return unflatten(t, { x: W - 1 - x2, y: H - 1 - y2 });
    case 270:
      return unflatten(t, { x: W - 1 - y2, y: x2 });
    default:
      return unflatten(t, { x: x2, y: y2 });
  }
}

/**
 * Crops `box` (normalised page coordinates) out of the source raster at the source's own
 * resolution (capped to `maxPixels`), sampling through the page transform so the crop comes out
 * upright and deskewed. Returns the crop and its scale relative to page coordinates.
 */
export function cropFromSource(source: GrayImage, t: PageTransform, box: Box, maxPixels: number): { image: GrayImage; scale: number } {
  let scale = 1 / t.scale; // crop pixels per page pixel: full source resolution
  const pixels = box.w * box.h * scale * scale;
  if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
  const w = Math.max(1, Math.round(box.w * scale));
  const h = Math.max(1, Math.round(box.h * scale));
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = pageToSource(t, box.x + (x + 0.5) / scale - 0.5 / t.scale, box.y + (y + 0.5) / scale - 0.5 / t.scale);
      out[y * w + x] = sample(source, p.x, p.y);
    }
  }
  return { image: { width: w, height: h, data: out }, scale };
}

/** A plain crop (no resampling) of an image, clamped to its bounds. */
export function cropGray(img: GrayImage, box: Box): GrayImage {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(img.width, Math.ceil(box.x + box.w));
  const y1 = Math.min(img.height, Math.ceil(box.y + box.h));
  const w = Math.max(1, x1 - x0);
  const h = Math.max(1, y1 - y0);
  const out = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < h && y0 + y < img.height; y++)
    out.set(img.data.subarray((y0 + y) * img.width + x0, (y0 + y) * img.width + x0 + Math.min(w, img.width - x0)), y * w);
  return { width: w, height: h, data: out };
}
