/**
 * Clipping paths of a PDF page as raster masks: an image drawn while a clip is in force shows only
 * inside it (a scan cut to a circle, a photo behind a rounded frame, part of a page hidden by a
 * slanted clip). Paths are flattened to polygons in device space and filled by scanline with the
 * path's rule (nonzero winding for `W`, even-odd for `W*`).
 */

import type { Matrix } from "./matrix";

type Point = { x: number; y: number };

/** One clipping path in device coordinates. */
export interface ClipPath {
  polygons: Point[][];
  evenOdd: boolean;
}

/** Path ops in pdf.js's constructPath data (DrawOPS). */
export const MOVE = 0;
export const LINE = 1;
export const CURVE = 2;
export const QUAD = 3;
export const CLOSE = 4;
/** Segments a curve is flattened into: finer than a pixel for the curves clips draw at page scale. */
const CURVE_STEPS = 16;

export const apply = (m: Matrix, x: number, y: number): Point => ({ x: m[0]! * x + m[2]! * y + m[4]!, y: m[1]! * x + m[3]! * y + m[5]! });

/** A constructPath's data (DrawOPS) as closed polygons in device space. */
export function clipPath(data: ArrayLike<number>, ctm: Matrix, evenOdd: boolean): ClipPath {
  const polygons: Point[][] = [];
  let current: Point[] | null = null;
  for (let k = 0; k < data.length;) {
    const op = data[k++]!;
    if (op === MOVE) {
      current = [apply(ctm, data[k]!, data[k + 1]!)];
      polygons.push(current);
      k += 2;
    } else if (op === LINE) {
      current?.push(apply(ctm, data[k]!, data[k + 1]!));
      k += 2;
    } else if (op === CURVE || op === QUAD) {
      const n = op === CURVE ? 6 : 4;
      const p0 = current?.at(-1);
      const c = Array.from({ length: n / 2 }, (_, j) => apply(ctm, data[k + 2 * j]!, data[k + 2 * j + 1]!));
      k += n;
      if (!current || !p0) continue;
      for (let s = 1; s <= CURVE_STEPS; s++) {
        const t = s / CURVE_STEPS;
        const u = 1 - t;
        current.push(
          op === CURVE
            ? {
                x: u * u * u * p0.x + 3 * u * u * t * c[0]!.x + 3 * u * t * t * c[1]!.x + t * t * t * c[2]!.x,
                y: u * u * u * p0.y + 3 * u * u * t * c[0]!.y + 3 * u * t * t * c[1]!.y + t * t * t * c[2]!.y,
              }
            : { x: u * u * p0.x + 2 * u * t * c[0]!.x + t * t * c[1]!.x, y: u * u * p0.y + 2 * u * t * c[0]!.y + t * t * c[1]!.y },
        );
      }
    } else if (op === CLOSE) current = null;
    else break;
  }
  return { polygons: polygons.filter((p) => p.length >= 3), evenOdd };
}

/** True when the path is one axis-aligned rectangle holding the whole W×H raster: it clips nothing. */
function coversAll(path: ClipPath, W: number, H: number): boolean {
  if (path.polygons.length !== 1) return false;
  const pts = path.polygons[0]!;
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const onEdges = pts.every((p) => (p.x === x0 || p.x === x1) && (p.y === y0 || p.y === y1));
  return onEdges && x0 <= 0 && y0 <= 0 && x1 >= W && y1 >= H;
}

/** Fills one path into a W×H mask (1 inside), sampling each pixel at its centre. */
function fillPath(path: ClipPath, W: number, H: number): Uint8Array {
  const mask = new Uint8Array(W * H);
  const edges = path.polygons.flatMap((poly) => poly.map((a, i) => [a, poly[(i + 1) % poly.length]!] as const));
  const crossings: { x: number; dir: number }[] = [];
  for (let y = 0; y < H; y++) {
    const cy = y + 0.5;
    crossings.length = 0;
    for (const [a, b] of edges) {
      if (a.y <= cy === b.y <= cy) continue;
      crossings.push({ x: a.x + ((cy - a.y) / (b.y - a.y)) * (b.x - a.x), dir: b.y > a.y ? 1 : -1 });
    }
    crossings.sort((p, q) => p.x - q.x);
    let winding = 0;
    for (let i = 0; i + 1 < crossings.length; i++) {
      winding += path.evenOdd ? 1 : crossings[i]!.dir;
      const inside = path.evenOdd ? winding % 2 !== 0 : winding !== 0;
      if (!inside) continue;
      const from = Math.max(0, Math.ceil(crossings[i]!.x - 0.5));
      const to = Math.min(W, Math.ceil(crossings[i + 1]!.x - 0.5));
      mask.fill(1, y * W + from, y * W + Math.max(from, to));
    }
  }
  return mask;
}

/**
 * The mask of what the clips in force leave visible (their intersection), 1 = visible; null when
 * none of them clips anything on the W×H raster.
 */
export function clipMask(paths: readonly ClipPath[], W: number, H: number): Uint8Array | null {
  let mask: Uint8Array | null = null;
  for (const path of paths) {
    if (coversAll(path, W, H)) continue;
    const m = fillPath(path, W, H);
    if (mask) for (let i = 0; i < m.length; i++) mask[i] = mask[i]! & m[i]!;
    else mask = m;
  }
  return mask;
}

/** Whether a device point lies inside the path, by its fill rule. */
export function insideClip(path: ClipPath, p: Point): boolean {
  let winding = 0;
  let crossings = 0;
  for (const poly of path.polygons)
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i]!;
      const b = poly[(i + 1) % poly.length]!;
      if (a.y <= p.y === b.y <= p.y) continue;
      if (a.x + ((p.y - a.y) / (b.y - a.y)) * (b.x - a.x) <= p.x) continue;
      crossings++;
      winding += b.y > a.y ? 1 : -1;
    }
  return path.evenOdd ? crossings % 2 === 1 : winding !== 0;
}
