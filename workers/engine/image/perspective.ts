import type { Quad } from "../../shared/engine-contract";
import type { GrayImage } from "./gray";

/** Coefficients of a projective map from the unit square onto a quadrilateral. */
export interface Homography {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
  g: number;
  h: number;
}

/**
 * The projective map taking the unit square's corners (0,0), (1,0), (1,1), (0,1) onto `quad`'s
 * (top left, top right, bottom right, bottom left), as Heckbert gives it ("Fundamentals of Texture
 * Mapping and Image Warping", 1989): x = (a·u + b·v + c) / (g·u + h·v + 1), likewise y with d, e, f.
 */
export function squareToQuad(quad: Quad): Homography {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = quad;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  if (Math.abs(sx) < 1e-9 && Math.abs(sy) < 1e-9) return { a: x1 - x0, b: x2 - x1, c: x0, d: y1 - y0, e: y2 - y1, f: y0, g: 0, h: 0 };
  const dx1 = x1 - x2;
  const dx2 = x3 - x2;
  const dy1 = y1 - y2;
  const dy2 = y3 - y2;
  const det = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / det;
  const h = (dx1 * sy - sx * dy1) / det;
  return { a: x1 - x0 + g * x1, b: x3 - x0 + h * x3, c: x0, d: y1 - y0 + g * y1, e: y3 - y0 + h * y3, f: y0, g, h };
}

/** Where a point of the flat page (`width` x `height`) lies on the quadrilateral `m` maps the page onto. */
export function flatToQuad(m: Homography, width: number, height: number, x: number, y: number): { x: number; y: number } {
  const u = (x + 0.5) / width;
  const v = (y + 0.5) / height;
  const w = m.g * u + m.h * v + 1;
  return { x: (m.a * u + m.b * v + m.c) / w - 0.5, y: (m.d * u + m.e * v + m.f) / w - 0.5 };
}

/** The size of the flat page a quadrilateral shows: its longer top/bottom side by its longer left/right side. */
export function flatSize(quad: Quad): { width: number; height: number } {
  const len = (p: readonly number[], q: readonly number[]) => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!);
  const [tl, tr, br, bl] = quad;
  return {
    width: Math.max(1, Math.round(Math.max(len(tl, tr), len(bl, br)))),
    height: Math.max(1, Math.round(Math.max(len(tl, bl), len(tr, br)))),
  };
}

/**
 * Resamples the quadrilateral `quad` of `img` onto a flat `width` x `height` raster (bilinear; white
 * outside the image). The source step per output pixel is at most a few source pixels, so bilinear
 * sampling keeps text legible.
 */
export function warpGray(img: GrayImage, quad: Quad, width: number, height: number): GrayImage {
  const m = squareToQuad(quad);
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x++) {
      const u = (x + 0.5) / width;
      const q = m.g * u + m.h * v + 1;
      const sx = (m.a * u + m.b * v + m.c) / q - 0.5;
      const sy = (m.d * u + m.e * v + m.f) / q - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) {
        out[y * width + x] = 255;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * w + x0;
      const top = data[i]! + (data[i + 1]! - data[i]!) * fx;
      const bottom = data[i + w]! + (data[i + w + 1]! - data[i + w]!) * fx;
      out[y * width + x] = top + (bottom - top) * fy;
    }
  }
  return { width, height, data: out };
}
