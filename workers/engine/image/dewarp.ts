import type { LineWarp } from "../../shared/engine-contract";
import { otsuThreshold } from "./enhance";
import { downscaleGray, type GrayImage } from "./gray";

/** Lines are followed on a copy this tall at most. */
const WORK_HEIGHT = 1400;
/** Vertical strips the page is cut into: each holds a few words of a line, enough to recognise the line's profile. */
const STRIPS = 12;
/**
 * Rows of the displacement grid at most (they are also at least 1.5 line pitches apart): the grid
 * travels in the page image's record (R2 custom metadata, 2 KiB in all).
 */
const MAX_ROWS = 16;
/** Two strips' profiles agree when their normalised correlation reaches this. */
const MIN_AGREEMENT = 0.45;
/** Lines bent by less than this share of their pitch are straight enough: the page is left as it is. */
const MIN_BEND = 0.25;
/**
 * Fewer agreeing neighbour pairs than this share of the grid and the measure is not trusted:
 * running text agrees nearly everywhere, a map's roads do not.
 */
const MIN_MEASURED = 0.6;

/** Ink counts per row of each vertical strip, lightly smoothed. */
function stripProfiles(img: GrayImage, strips: number): Float32Array[] {
  const { width: w, height: h, data } = img;
  const t = otsuThreshold(img);
  const profiles = Array.from({ length: strips }, () => new Float32Array(h));
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) if (data[row + x]! < t) profiles[Math.min(strips - 1, Math.floor((x * strips) / w))]![y]!++;
  }
  return profiles.map((p) => {
    const out = new Float32Array(h);
    for (let y = 0; y < h; y++) out[y] = ((p[y - 1] ?? p[y]!) + 2 * p[y]! + (p[y + 1] ?? p[y]!)) / 4;
    return out;
  });
}

/** The page's line pitch (rows): the first strong peak of the whole profile's autocorrelation. */
function linePitch(profiles: Float32Array[], h: number): number | null {
  const total = new Float32Array(h);
  for (const p of profiles) for (let y = 0; y < h; y++) total[y]! += p[y]!;
  let mean = 0;
  for (let y = 0; y < h; y++) mean += total[y]!;
  mean /= h;
  const ac = (lag: number) => {
    let s = 0;
    for (let y = 0; y + lag < h; y++) s += (total[y]! - mean) * (total[y + lag]! - mean);
    return s / (h - lag);
  };
  const zero = ac(0);
  if (!(zero > 0)) return null;
  const maxLag = Math.min(120, Math.floor(h / 4));
  let prev = ac(3);
  let cur = ac(4);
  for (let lag = 4; lag < maxLag; lag++) {
    const next = ac(lag + 1);
    if (cur >= prev && cur > next && cur > 0.2 * zero) return lag;
    prev = cur;
    cur = next;
  }
  return null;
}

/**
 * How far the line at row `y` of strip `a` lies lower in strip `b` (rows; fractional), by the best
 * normalised correlation of their profiles over a window around `y`; null where they do not agree
 * (no print, a figure).
 */
function shiftBetween(a: Float32Array, b: Float32Array, y: number, half: number, reach: number): number | null {
  const h = a.length;
  const lo = Math.max(reach, Math.round(y - half));
  const hi = Math.min(h - 1 - reach, Math.round(y + half));
  if (hi - lo < 2 * reach) return null;
  const n = hi - lo + 1;
  let ma = 0;
  for (let i = lo; i <= hi; i++) ma += a[i]!;
  ma /= n;
  let va = 0;
  for (let i = lo; i <= hi; i++) va += (a[i]! - ma) ** 2;
  if (va === 0) return null;
  const scores = new Float32Array(2 * reach + 1);
  for (let d = -reach; d <= reach; d++) {
    let mb = 0;
    for (let i = lo; i <= hi; i++) mb += b[i + d]!;
    mb /= n;
    let vb = 0;
    let cov = 0;
    for (let i = lo; i <= hi; i++) {
      const db = b[i + d]! - mb;
      vb += db * db;
      cov += (a[i]! - ma) * db;
    }
    scores[d + reach] = vb > 0 ? cov / Math.sqrt(va * vb) : -1;
  }
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  if (scores[best]! < MIN_AGREEMENT) return null;
  // Sub-row peak: the parabola through the best score and its neighbours.
  let frac = 0;
  if (best > 0 && best < scores.length - 1) {
    const l = scores[best - 1]!;
    const c = scores[best]!;
    const r = scores[best + 1]!;
    const den = l - 2 * c + r;
    if (den < 0) frac = (0.5 * (l - r)) / den;
  }
  return best - reach + frac;
}

/**
 * Measures how the page's text lines bend (a book page's curl, the uneven slant a page held at an
 * angle leaves when its edges are not seen): the page is cut into vertical strips, and each line is
 * followed from the middle strip outwards, strip to strip, by where the rows of print best agree.
 * The result is the vertical displacement at each node of a grid: the line drawn at row y of the
 * output lies at y + dy in the page. Null when the lines are already straight (within a quarter of
 * their pitch) or cannot be followed (too little running text).
 */
export function measureLineWarp(img: GrayImage): LineWarp | null {
  const s = Math.min(1, WORK_HEIGHT / img.height);
  const small = downscaleGray(img, s);
  const h = small.height;
  const profiles = stripProfiles(small, STRIPS);
  const pitch = linePitch(profiles, h);
  if (!pitch) return null;
  const rows = Math.max(2, Math.min(MAX_ROWS, Math.round(h / (1.5 * pitch))));
  const half = Math.max(1.5 * pitch, h / rows);
  const reach = Math.max(2, Math.ceil(0.45 * pitch));
  const mid = Math.floor(STRIPS / 2);
  const dy = new Float32Array(STRIPS * rows);
  let measured = 0;
  for (let j = 0; j < rows; j++) {
    const y0 = ((j + 0.5) * h) / rows;
    // Rightwards from the middle strip, then leftwards; where two strips do not agree the line is taken straight on.
    let y = y0;
    for (let k = mid; k < STRIPS - 1; k++) {
      const step = shiftBetween(profiles[k]!, profiles[k + 1]!, y, half, reach);
      if (step !== null) ((y += step), measured++);
      dy[j * STRIPS + k + 1] = y - y0;
    }
    y = y0;
    for (let k = mid; k > 0; k--) {
      const step = shiftBetween(profiles[k - 1]!, profiles[k]!, y, half, reach);
      if (step !== null) ((y -= step), measured++);
      dy[j * STRIPS + k - 1] = y - y0;
    }
  }
  if (measured < MIN_MEASURED * rows * (STRIPS - 1)) return null;
  // Smoothed down each column: a line's bend changes slowly from one line to the next.
  const smooth = new Float32Array(dy.length);
  for (let j = 0; j < rows; j++)
    for (let k = 0; k < STRIPS; k++) {
      const up = dy[Math.max(0, j - 1) * STRIPS + k]!;
      const down = dy[Math.min(rows - 1, j + 1) * STRIPS + k]!;
      smooth[j * STRIPS + k] = (up + 2 * dy[j * STRIPS + k]! + down) / 4;
    }
  let bend = 0;
  for (const v of smooth) bend = Math.max(bend, Math.abs(v));
  if (bend < MIN_BEND * pitch) return null;
  return { cols: STRIPS, rows, dy: Array.from(smooth, (v) => Math.round(v / s)) };
}

/** The displacement at a point of a `width` x `height` page: bilinear between the grid's nodes (cell centres). */
export function warpAt(warp: LineWarp, width: number, height: number, x: number, y: number): number {
  const gx = Math.min(warp.cols - 1, Math.max(0, (x * warp.cols) / width - 0.5));
  const gy = Math.min(warp.rows - 1, Math.max(0, (y * warp.rows) / height - 0.5));
  const c0 = Math.floor(gx);
  const r0 = Math.floor(gy);
  const c1 = Math.min(warp.cols - 1, c0 + 1);
  const r1 = Math.min(warp.rows - 1, r0 + 1);
  const fx = gx - c0;
  const fy = gy - r0;
  const at = (c: number, r: number) => warp.dy[r * warp.cols + c]!;
  const top = at(c0, r0) + (at(c1, r0) - at(c0, r0)) * fx;
  const bottom = at(c0, r1) + (at(c1, r1) - at(c0, r1)) * fx;
  return top + (bottom - top) * fy;
}

/** Straightens the lines `warp` measured: output pixel (x, y) samples the page at (x, y + dy). */
export function applyLineWarp(img: GrayImage, warp: LineWarp): GrayImage {
  const { width: w, height: h, data } = img;
  const { cols, rows, dy } = warp;
  const out = new Uint8Array(w * h);
  // The bilinear interpolation of `warpAt`, split: each column's grid neighbours once, each row's once.
  const c0 = new Int32Array(w);
  const c1 = new Int32Array(w);
  const fx = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const gx = Math.min(cols - 1, Math.max(0, (x * cols) / w - 0.5));
    c0[x] = Math.floor(gx);
    c1[x] = Math.min(cols - 1, c0[x]! + 1);
    fx[x] = gx - c0[x]!;
  }
  const line = new Float32Array(cols);
  for (let y = 0; y < h; y++) {
    const gy = Math.min(rows - 1, Math.max(0, (y * rows) / h - 0.5));
    const r0 = Math.floor(gy);
    const r1 = Math.min(rows - 1, r0 + 1);
    const fy = gy - r0;
    for (let c = 0; c < cols; c++) line[c] = dy[r0 * cols + c]! + (dy[r1 * cols + c]! - dy[r0 * cols + c]!) * fy;
    for (let x = 0; x < w; x++) {
      const sy = y + line[c0[x]!]! + (line[c1[x]!]! - line[c0[x]!]!) * fx[x]!;
      const y0 = Math.floor(sy);
      const f = sy - y0;
      const a = y0 >= 0 && y0 < h ? data[y0 * w + x]! : 255;
      const b = y0 + 1 >= 0 && y0 + 1 < h ? data[(y0 + 1) * w + x]! : 255;
      out[y * w + x] = a + (b - a) * f;
    }
  }
  return { width: w, height: h, data: out };
}
