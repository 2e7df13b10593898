import type { Box, Quad } from "../../shared/engine-contract";
import type { GrayImage, RgbaImage } from "./gray";

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

/** Where a point of the quadrilateral `m` maps the flat page (`width` x `height`) onto lies on that page: `flatToQuad`'s inverse. */
export function quadToFlat(m: Homography, width: number, height: number, x: number, y: number): { x: number; y: number } {
  // The inverse of [[a b c] [d e f] [g h 1]] by its adjugate (its determinant cancels).
  const px = x + 0.5;
  const py = y + 0.5;
  const u = (m.e - m.f * m.h) * px + (m.c * m.h - m.b) * py + (m.b * m.f - m.c * m.e);
  const v = (m.f * m.g - m.d) * px + (m.a - m.c * m.g) * py + (m.c * m.d - m.a * m.f);
  const w = (m.d * m.h - m.e * m.g) * px + (m.b * m.g - m.a * m.h) * py + (m.a * m.e - m.b * m.d);
  return { x: (u / w) * width - 0.5, y: (v / w) * height - 0.5 };
}

export type Point = { x: number; y: number };
export type Corners = [Point, Point, Point, Point];

/** A box's corners, clockwise from its top left, taken through `map`. */
function cornersThrough(b: Box, map: (x: number, y: number) => Point): Corners {
  return [map(b.x, b.y), map(b.x + b.w, b.y), map(b.x + b.w, b.y + b.h), map(b.x, b.y + b.h)];
}

/** A box of the flat page (`width` x `height`, outlined by `quad`) taken to the photo: its corners there. */
export function cornersOnPhoto(quad: Quad, width: number, height: number, b: Box): Corners {
  const m = squareToQuad(quad);
  return cornersThrough(b, (x, y) => flatToQuad(m, width, height, x, y));
}

/**
 * The upright box of the flat page (`width` x `height`, outlined by `quad` in the photo) around
 * where the photo shows `b`, within the page.
 */
export function boxOnFlat(quad: Quad, width: number, height: number, b: Box): Box {
  const m = squareToQuad(quad);
  const c = cornersThrough(b, (x, y) => quadToFlat(m, width, height, x, y));
  const x0 = Math.max(0, Math.floor(Math.min(...c.map((p) => p.x))));
  const y0 = Math.max(0, Math.floor(Math.min(...c.map((p) => p.y))));
  const x1 = Math.min(width, Math.ceil(Math.max(...c.map((p) => p.x))));
  const y1 = Math.min(height, Math.ceil(Math.max(...c.map((p) => p.y))));
  return { x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}

/** The outline in the photo of a part (`b`) of the flat page: `warpGray` over it samples that part alone. */
export function partOutline(quad: Quad, width: number, height: number, b: Box): Quad {
  return cornersOnPhoto(quad, width, height, b).map((p) => [p.x, p.y]) as Quad;
}

/**
 * A box of the flat page on the photo, the same size, upright and centred where the photo shows it
 * (unclamped, in the photo's pixels).
 */
export function boxOnPhoto(quad: Quad, width: number, height: number, b: Box): Box {
  const [tl, tr, br, bl] = cornersOnPhoto(quad, width, height, b);
  const w = (Math.hypot(tr.x - tl.x, tr.y - tl.y) + Math.hypot(br.x - bl.x, br.y - bl.y)) / 2;
  const h = (Math.hypot(bl.x - tl.x, bl.y - tl.y) + Math.hypot(br.x - tr.x, br.y - tr.y)) / 2;
  const cx = (tl.x + tr.x + br.x + bl.x) / 4;
  const cy = (tl.y + tr.y + br.y + bl.y) / 4;
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

/** `b` rounded to whole pixels within `width` x `height`. */
export function clampToPage(b: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.min(width, Math.round(b.x)));
  const y = Math.max(0, Math.min(height, Math.round(b.y)));
  return { x, y, w: Math.max(0, Math.min(width, Math.round(b.x + b.w)) - x), h: Math.max(0, Math.min(height, Math.round(b.y + b.h)) - y) };
}

type Vec3 = [number, number, number];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * The width-to-height ratio of the rectangle a camera saw as `quad`, by Zhang and He ("Whiteboard
 * scanning and image enhancement", 2007): the focal length follows from the quadrilateral with the
 * principal point at the photo's centre, and the ratio from it. Null when the quadrilateral is no
 * camera's view of a rectangle (a negative or implausible focal length) or shows no perspective.
 */
export function cameraAspect(quad: Quad, photoWidth: number, photoHeight: number): number | null {
  const cx = photoWidth / 2;
  const cy = photoHeight / 2;
  const [tl, tr, br, bl] = quad.map(([x, y]) => [x - cx, y - cy, 1] as Vec3) as [Vec3, Vec3, Vec3, Vec3];
  const k2 = dot(cross(tl, br), bl) / dot(cross(tr, br), bl);
  const k3 = dot(cross(tl, br), tr) / dot(cross(bl, br), tr);
  const n2: Vec3 = [k2 * tr[0] - tl[0], k2 * tr[1] - tl[1], k2 * tr[2] - tl[2]];
  const n3: Vec3 = [k3 * bl[0] - tl[0], k3 * bl[1] - tl[1], k3 * bl[2] - tl[2]];
  const den = n2[2] * n3[2];
  if (Math.abs(den) < 1e-12) return null;
  const f2 = -(n2[0] * n3[0] + n2[1] * n3[1]) / den;
  const diagonal = Math.hypot(photoWidth, photoHeight);
  // A phone's lens: a focal length between a third and ten times the photo's diagonal (in pixels).
  if (!(f2 > (diagonal / 3) ** 2 && f2 < (10 * diagonal) ** 2)) return null;
  const ratio = Math.sqrt((n2[0] ** 2 + n2[1] ** 2) / f2 + n2[2] ** 2) / Math.sqrt((n3[0] ** 2 + n3[1] ** 2) / f2 + n3[2] ** 2);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : null;
}

/**
 * The size of the flat page a quadrilateral of a `photoWidth` x `photoHeight` photo shows: as tall
 * as its longer left/right side, and as wide as the page's proportions make it: the camera's
 * (`cameraAspect`) when the quadrilateral is a camera's view, else its longer top/bottom side.
 */
export function flatSize(quad: Quad, photoWidth: number, photoHeight: number): { width: number; height: number } {
  const len = (p: readonly number[], q: readonly number[]) => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!);
  const [tl, tr, br, bl] = quad;
  const across = Math.max(len(tl, tr), len(bl, br));
  const down = Math.max(len(tl, bl), len(tr, br));
  const aspect = cameraAspect(quad, photoWidth, photoHeight) ?? across / down;
  // The longer of the two measured extents keeps its pixels; the other follows the proportions.
  const height = Math.max(down, across / aspect);
  return { width: Math.max(1, Math.round(height * aspect)), height: Math.max(1, Math.round(height)) };
}

/**
 * Resamples the quadrilateral `quad` of `img` onto a flat `width` x `height` raster (bilinear; white
 * outside the image). The source step per output pixel is at most a few source pixels, so bilinear
 * sampling keeps text legible.
 */
export function warpGray(img: GrayImage, quad: Quad, width: number, height: number, edge = false): GrayImage {
  return { width, height, data: warp(img.data, img.width, img.height, 1, 1, quad, width, height, edge) };
}

/** `warpGray` on a colour raster: its three colour channels resampled at once (alpha opaque), with no copy of them apart. */
export function warpRgba(img: RgbaImage, quad: Quad, width: number, height: number, edge = false): RgbaImage {
  return { width, height, data: warp(img.data, img.width, img.height, 4, 3, quad, width, height, edge) };
}

/**
 * Resamples `channels` of every `stride` bytes of a `w` x `h` raster's quadrilateral `quad` (see
 * `warpGray`). Outside the raster stays white, or with `edge` takes the nearest edge pixel.
 */
function warp(
  data: Uint8Array,
  w: number,
  h: number,
  stride: number,
  channels: number,
  quad: Quad,
  width: number,
  height: number,
  edge: boolean,
): Uint8Array {
  const m = squareToQuad(quad);
  const out = new Uint8Array(width * height * stride).fill(255);
  const across = w * stride;
  // Along a row the numerators and the denominator grow linearly: one add each and one division a pixel.
  const du = 1 / width;
  for (let y = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    const u0 = 0.5 * du;
    let q = m.g * u0 + m.h * v + 1;
    let nx = m.a * u0 + m.b * v + m.c;
    let ny = m.d * u0 + m.e * v + m.f;
    const row = y * width;
    for (let x = 0; x < width; x++, q += m.g * du, nx += m.a * du, ny += m.d * du) {
      const r = 1 / q;
      const sx = edge ? Math.min(w - 1.001, Math.max(0, nx * r - 0.5)) : nx * r - 0.5;
      const sy = edge ? Math.min(h - 1.001, Math.max(0, ny * r - 0.5)) : ny * r - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      // Outside the image stays white.
      if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < channels; c++) {
        const i = (y0 * w + x0) * stride + c;
        const top = data[i]! + (data[i + stride]! - data[i]!) * fx;
        const bottom = data[i + across]! + (data[i + across + stride]! - data[i + across]!) * fx;
        out[(row + x) * stride + c] = top + (bottom - top) * fy;
      }
    }
  }
  return out;
}
