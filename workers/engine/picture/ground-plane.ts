import { luma } from "../image/gray";

/** Gray levels a ground's own grain (JPEG noise, paper) varies by. */
export const GRAIN = 6;
/** Residuals (gray levels) beyond this many grains are not the ground (a speck of art, a fleck of ink). */
const OUTLIER = 3;

/** A colour at each pixel of a ground: `(x, y) => [r, g, b]`. */
export type GroundColour = (x: number, y: number) => [number, number, number];

/** Least-squares plane `a + b·x + c·y` of `values` at the points, about their centre (cx, cy). */
function plane(xs: number[], ys: number[], values: number[], keep: (i: number) => boolean, cx: number, cy: number) {
  let [n, sx, sy, sxx, sxy, syy, sv, sxv, syv] = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < xs.length; i++) {
    if (!keep(i)) continue;
    const [x, y, v] = [xs[i]! - cx, ys[i]! - cy, values[i]!];
    [n, sx, sy, sxx, sxy, syy, sv, sxv, syv] = [
      n + 1,
      sx + x,
      sy + y,
      sxx + x * x,
      sxy + x * y,
      syy + y * y,
      sv + v,
      sxv + x * v,
      syv + y * v,
    ];
  }
  const det = n * (sxx * syy - sxy * sxy) - sx * (sx * syy - sxy * sy) + sy * (sx * sxy - sxx * sy);
  if (n < 3 || Math.abs(det) < 1e-9) return null;
  const a = (sv * (sxx * syy - sxy * sxy) - sx * (sxv * syy - sxy * syv) + sy * (sxv * sxy - sxx * syv)) / det;
  const b = (n * (sxv * syy - sxy * syv) - sv * (sx * syy - sxy * sy) + sy * (sx * syv - sxv * sy)) / det;
  const c = (n * (sxx * syv - sxv * sxy) - sx * (sx * syv - sxv * sy) + sv * (sx * sxy - sxx * sy)) / det;
  return (x: number, y: number) => a + b * (x - cx) + c * (y - cy);
}

/**
 * The colour of a balloon's ground at each of its pixels, from samples of it (`xs`, `ys` and each
 * channel's values): flat (each channel's median) where the ground is even, else a plane through
 * it, fitted once more without the samples off it by more than OUTLIER grains. In a photo's
 * uneven light a balloon's ground darkens across it, and a flat fill left the lettering's
 * shapes lighter than the ground around them.
 */
export function groundColour(
  xs: number[],
  ys: number[],
  channels: [number[], number[], number[]],
  box: { x: number; y: number; w: number; h: number },
): GroundColour {
  const flat = channels.map(medianOf) as [number, number, number];
  const even: GroundColour = () => flat;
  if (xs.length < 3) return even;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const lumas = xs.map((_, i) => luma(channels[0][i]!, channels[1][i]!, channels[2][i]!));
  const first = plane(xs, ys, lumas, () => true, cx, cy);
  if (!first) return even;
  const on = (i: number) => Math.abs(lumas[i]! - first(xs[i]!, ys[i]!)) <= OUTLIER * GRAIN;
  const light = plane(xs, ys, lumas, on, cx, cy);
  // Even light: the plane rises or falls by less than the grain across the box.
  if (!light) return even;
  const corners = [light(box.x, box.y), light(box.x + box.w, box.y), light(box.x, box.y + box.h), light(box.x + box.w, box.y + box.h)];
  if (Math.max(...corners) - Math.min(...corners) < GRAIN) return even;
  const planes = channels.map((values) => plane(xs, ys, values, on, cx, cy));
  if (planes.some((p) => !p)) return even;
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  return (x, y) => [clamp(planes[0]!(x, y)), clamp(planes[1]!(x, y)), clamp(planes[2]!(x, y))];
}

export function medianOf(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}
