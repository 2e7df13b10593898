import type { ZoneInk } from "./mask";
import type { Rect } from "./rect";
import type { RgbaImage } from "./rgba";

/** An RGB colour. */
export type Rgb = [number, number, number];

/** Background colours the ring around a word is reduced to (foliage, sky, a petal's light and shade). */
const CLUSTERS = 6;
/** A background cluster with less of the ring than this is left out (a stray mark, the edge of another word). */
const MIN_CLUSTER = 0.04;
/** At most this many ring pixels are clustered. */
const RING_SAMPLES = 1500;
/** A pixel is grown into when it lies this much closer to the text colour than to every background colour. */
const CLOSER = 0.5;
/** Text whose colour lies closer than this (RGB distance) to a colour of its background is not grown by colour. */
const MIN_SEPARATION = 30;
/** Fewer solid ink pixels than this in a word do not give its colour; the region's is used. */
const MIN_SOLID = 30;

const dist = (r: number, g: number, b: number, c: Rgb) => Math.hypot(r - c[0], g - c[1], b - c[2]);
/** Squared RGB distance: comparisons need no root (per pixel and cluster, a page of words makes millions). */
const dist2 = (r: number, g: number, b: number, c: Rgb) => (r - c[0]) ** 2 + (g - c[1]) ** 2 + (b - c[2]) ** 2;

function inRects(rects: Rect[], x: number, y: number): boolean {
  for (const r of rects) if (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) return true;
  return false;
}

/** The median colour of a word's solid ink (the half of its pixels that stand out most), or null with too few. */
export function inkColour(img: RgbaImage, ink: ZoneInk): Rgb | null {
  if (ink.at.length < MIN_SOLID) return null;
  const cut = [...ink.distance].sort((a, b) => a - b)[ink.distance.length >> 1]!;
  const solid = ink.at.filter((_, k) => ink.distance[k]! >= cut);
  const median = (c: number) => {
    const v = solid.map((i) => img.data[i * 4 + c]!).sort((a, b) => a - b);
    return v[v.length >> 1]!;
  };
  return [median(0), median(1), median(2)];
}

/** The main colours of the pixels around a zone that no text zone covers (k-means), small clusters left out. */
function backgroundColours(img: RgbaImage, z: Rect, blocked: Rect[]): Rgb[] {
  const { width, height } = img;
  const m = Math.max(4, Math.round((z.y1 - z.y0) * 0.35));
  const R = { x0: Math.max(0, z.x0 - m), y0: Math.max(0, z.y0 - m), x1: Math.min(width, z.x1 + m), y1: Math.min(height, z.y1 + m) };
  const area = (R.x1 - R.x0) * (R.y1 - R.y0) - (z.x1 - z.x0) * (z.y1 - z.y0);
  // Only the text zones that touch the ring matter (a page of prose has hundreds of words).
  const near = blocked.filter((b) => b.x0 < R.x1 && b.x1 > R.x0 && b.y0 < R.y1 && b.y1 > R.y0);
  const stride = Math.max(1, Math.floor(Math.sqrt(area / RING_SAMPLES)));
  const px: number[] = [];
  for (let y = R.y0; y < R.y1; y += stride)
    for (let x = R.x0; x < R.x1; x += stride) {
      if ((x >= z.x0 && x < z.x1 && y >= z.y0 && y < z.y1) || inRects(near, x, y)) continue;
      const i = (y * width + x) * 4;
      px.push(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!);
    }
  const n = px.length / 3;
  if (n < 32) return [];
  // Seeds spread over the ring's lightness order; a few rounds of Lloyd's iteration.
  const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => px[a * 3]! + px[a * 3 + 1]! - px[b * 3]! - px[b * 3 + 1]!);
  let centres: Rgb[] = Array.from({ length: CLUSTERS }, (_, c) => {
    const k = order[Math.floor(((c + 0.5) * n) / CLUSTERS)]!;
    return [px[k * 3]!, px[k * 3 + 1]!, px[k * 3 + 2]!];
  });
  let sizes: number[] = [];
  for (let round = 0; round < 6; round++) {
    const sums = centres.map(() => [0, 0, 0]);
    sizes = centres.map(() => 0);
    for (let k = 0; k < n; k++) {
      const r = px[k * 3]!,
        g = px[k * 3 + 1]!,
        b = px[k * 3 + 2]!;
      let best = 0;
      let closest = dist2(r, g, b, centres[0]!);
      for (let c = 1; c < centres.length; c++) {
        const d = dist2(r, g, b, centres[c]!);
        if (d < closest) [best, closest] = [c, d];
      }
      sums[best]![0]! += r;
      sums[best]![1]! += g;
      sums[best]![2]! += b;
      sizes[best]!++;
    }
    centres = centres.map((c, k) => (sizes[k] ? [sums[k]![0]! / sizes[k]!, sums[k]![1]! / sizes[k]!, sums[k]![2]! / sizes[k]!] : c));
  }
  return centres.filter((_, k) => sizes[k]! >= n * MIN_CLUSTER);
}

/**
 * Grows a word's ink from its confirmed strokes into the connected pixels of the text's colour.
 * On a picture the ink threshold is set by its texture, so only the strokes that stand out most
 * pass it; the rest of each glyph has the same colour. The background around the word (outside
 * every text zone) is reduced to its main colours, and a pixel joins when it lies much closer
 * (CLOSER) to the text colour than to any of them and is 8-connected, through such pixels, to the
 * confirmed ink or to a pixel of the text's very colour. Grown pixels get distance 0 (the style
 * reads its colour from the solid ink only). Returns the number of pixels added.
 */
export function growByColour(img: RgbaImage, z: Rect, ink: ZoneInk, colour: Rgb, blocked: Rect[]): number {
  const { width } = img;
  const w = z.x1 - z.x0,
    h = z.y1 - z.y0;
  if (w <= 0 || h <= 0) return 0;
  const background = backgroundColours(img, z, blocked);
  if (!background.length) return 0;
  const separation = Math.min(...background.map((c) => dist(colour[0], colour[1], colour[2], c)));
  if (separation < MIN_SEPARATION) return 0;
  // Squared distances from here on: how close to the text colour a pixel of it lies.
  const reach = (separation * CLOSER) ** 2;
  // 0: not text-coloured, 1: text-coloured, 2: taken (seed or grown).
  const state = new Uint8Array(w * h);
  const queue: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = ((z.y0 + y) * width + z.x0 + x) * 4;
      const r = img.data[i]!,
        g = img.data[i + 1]!,
        b = img.data[i + 2]!;
      const dt = dist2(r, g, b, colour);
      if (dt >= reach) continue;
      let db = Infinity;
      for (const c of background) db = Math.min(db, dist2(r, g, b, c));
      if (dt >= db * CLOSER * CLOSER) continue;
      state[y * w + x] = 1;
      // The text's very colour seeds on its own (a glyph the threshold missed entirely).
      if (dt < reach * 0.4 * 0.4) {
        state[y * w + x] = 2;
        queue.push(y * w + x);
      }
    }
  const seeded = new Set<number>();
  for (const p of ink.at) {
    const x = (p % width) - z.x0,
      y = Math.floor(p / width) - z.y0;
    if (x < 0 || y < 0 || x >= w || y >= h) continue;
    seeded.add(y * w + x);
    if (state[y * w + x] !== 2) {
      state[y * w + x] = 2;
      queue.push(y * w + x);
    }
  }
  for (let q = 0; q < queue.length; q++) {
    const k = queue[q]!,
      x = k % w,
      y = (k - x) / w;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx,
          ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h || state[ny * w + nx] !== 1) continue;
        state[ny * w + nx] = 2;
        queue.push(ny * w + nx);
      }
  }
  let added = 0;
  for (const k of queue) {
    if (seeded.has(k)) continue;
    ink.at.push((z.y0 + Math.floor(k / w)) * width + z.x0 + (k % w));
    ink.distance.push(0);
    added++;
  }
  return added;
}
