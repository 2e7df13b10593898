import { luma } from "../image/gray";

/** Gray levels a ground's own grain (JPEG noise, paper) varies by. */
export const GRAIN = 6;
/** Residuals (gray levels) beyond this many grains are not the ground (a speck of art, a fleck of ink). */
const OUTLIER = 3;

/** A colour at each pixel of a ground: `(x, y) => [r, g, b]`. */
export type GroundColour = (x: number, y: number) => [number, number, number];

/** Samples a plane is fitted to at most: every k-th of them beyond (three numbers need no more). */
const MAX_SAMPLES = 20_000;

/** Least-squares plane `a + b·x + c·y` of `values` at the points kept, about their centre (cx, cy). */
function plane(xs: number[], ys: number[], values: number[], keep: (i: number) => boolean, cx: number, cy: number) {
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0,
    syy = 0,
    sv = 0,
    sxv = 0,
    syv = 0;
  for (let i = 0; i < xs.length; i++) {
    if (!keep(i)) continue;
    const x = xs[i]! - cx;
    const y = ys[i]! - cy;
    const v = values[i]!;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sv += v;
    sxv += x * v;
    syv += y * v;
  }
  const det = n * (sxx * syy - sxy * sxy) - sx * (sx * syy - sxy * sy) + sy * (sx * sxy - sxx * sy);
  if (n < 3 || Math.abs(det) < 1e-9) return null;
  const a = (sv * (sxx * syy - sxy * sxy) - sx * (sxv * syy - sxy * syv) + sy * (sxv * sxy - sxx * syv)) / det;
  const b = (n * (sxv * syy - sxy * syv) - sv * (sx * syy - sxy * sy) + sy * (sx * syv - sxv * sy)) / det;
  const c = (n * (sxx * syv - sxv * sxy) - sx * (sx * syv - sxv * sy) + sv * (sx * sxy - sxx * sy)) / det;
  return (x: number, y: number) => a + b * (x - cx) + c * (y - cy);
}

/**
 * The colour of a balloon's ground at each of its pixels, from samples of it (`samples`: indices of
 * pixels of `img`, an RGBA raster): flat (each channel's median) where the ground is even, else a
 * plane through it, fitted once more without the samples off it by more than OUTLIER grains. In a
 * photo's uneven light a balloon's ground darkens across it, and a flat fill left the lettering's
 * shapes lighter than the ground around them.
 */
export function groundColour(
  img: { width: number; data: Uint8Array },
  samples: number[],
  box: { x: number; y: number; w: number; h: number },
): GroundColour {
  const { width, data } = img;
  const flat = [0, 1, 2].map((c) => medianOf(samples, data, c)) as [number, number, number];
  const even: GroundColour = () => flat;
  if (samples.length < 3) return even;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const step = Math.max(1, Math.floor(samples.length / MAX_SAMPLES));
  const [px, py, pr, pg, pb]: number[][] = [[], [], [], [], []];
  for (let k = 0; k < samples.length; k += step) {
    const i = samples[k]!;
    px!.push(i % width);
    py!.push(Math.floor(i / width));
    pr!.push(data[i * 4]!);
    pg!.push(data[i * 4 + 1]!);
    pb!.push(data[i * 4 + 2]!);
  }
  const [xs, ys] = [px!, py!];
  const lumas = xs.map((_, i) => luma(pr![i]!, pg![i]!, pb![i]!));
  const first = plane(xs, ys, lumas, () => true, cx, cy);
  if (!first) return even;
  const on = (i: number) => Math.abs(lumas[i]! - first(xs[i]!, ys[i]!)) <= OUTLIER * GRAIN;
  const light = plane(xs, ys, lumas, on, cx, cy);
  // Even light: the plane rises or falls by less than the grain across the box.
  if (!light) return even;
  const corners = [light(box.x, box.y), light(box.x + box.w, box.y), light(box.x, box.y + box.h), light(box.x + box.w, box.y + box.h)];
  if (Math.max(...corners) - Math.min(...corners) < GRAIN) return even;
  const planes = [pr!, pg!, pb!].map((values) => plane(xs, ys, values, on, cx, cy));
  if (planes.some((p) => !p)) return even;
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  return (x, y) => [clamp(planes[0]!(x, y)), clamp(planes[1]!(x, y)), clamp(planes[2]!(x, y))];
}

/** The median of channel `c` of RGBA pixels `at` (counted, not sorted: a balloon's ground is hundreds of thousands of them). */
export function medianOf(at: number[], data: Uint8Array, c: number): number {
  if (!at.length) return 0;
  const counts = new Uint32Array(256);
  for (const i of at) counts[data[i * 4 + c]!]!++;
  const half = at.length >> 1;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += counts[v]!;
    if (seen > half) return v;
  }
  return 255;
}
