/**
 * Grey-level morphology on one channel of a rectangle: running maximum / minimum over square
 * windows (van Herk–Gil–Werman, a constant number of comparisons a pixel whatever the window).
 * A closing (max then min) with a window wider than a stroke removes dark strokes and keeps every
 * feature wider than the window, step edges between two backgrounds included; an opening does
 * the same for light strokes. That is the text-free background estimate the mask is measured against.
 */

/**
 * Running max of `v[i]`, i < n, over windows of 2r+1 clipped at the ends (van Herk–Gil–Werman):
 * `g` holds prefix maxima within blocks of k = 2r+1, `h` suffix maxima, both over the sequence
 * padded with r neutral values each side, so every window spans at most two blocks. Values are
 * pre-multiplied by ±1 by the caller (a min is the max of the negated values).
 */
function runRow(
  src: Float32Array,
  dst: Float32Array,
  off: number,
  n: number,
  r: number,
  sign: number,
  g: Float32Array,
  h: Float32Array,
): void {
  const k = 2 * r + 1;
  const m = n + 2 * r;
  // The padded sequence is written once (no bounds test or modulo in the loops below), and never
  // read outside the scratch arrays: an out-of-bounds typed-array read makes V8 drop the
  // optimised loop, several times slower.
  const v = h;
  v.fill(-Infinity, 0, r);
  for (let j = 0; j < n; j++) v[r + j] = sign * src[off + j]!;
  v.fill(-Infinity, r + n, m);
  for (let b0 = 0; b0 < m; b0 += k) {
    const b1 = Math.min(m, b0 + k);
    let p = v[b0]!;
    g[b0] = p;
    for (let i = b0 + 1; i < b1; i++) {
      const x = v[i]!;
      if (x > p) p = x;
      g[i] = p;
    }
  }
  // Suffix maxima in place over v (each is read before it is overwritten).
  for (let b0 = 0; b0 < m; b0 += k) {
    const b1 = Math.min(m, b0 + k);
    let p = v[b1 - 1]!;
    for (let i = b1 - 2; i >= b0; i--) {
      const x = v[i]!;
      if (x > p) p = x;
      v[i] = p;
    }
  }
  for (let i = 0; i < n; i++) {
    const a = h[i]!,
      c = g[i + 2 * r]!;
    dst[off + i] = sign * (a > c ? a : c);
  }
}

/** Columns handled together by the column pass: whole rows of a strip stay in cache, and its scratch stays small. */
const STRIP = 128;

/**
 * The same along columns, a strip of STRIP columns at a time, row by row within it (contiguous
 * memory: a column walk over a wide plane misses the cache on every step). `g` and `h` are
 * scratch of (rows + 2r)·STRIP.
 */
function runColumns(
  src: Float32Array,
  dst: Float32Array,
  w: number,
  rows: number,
  r: number,
  sign: number,
  g: Float32Array,
  h: Float32Array,
): void {
  const k = 2 * r + 1;
  const m = rows + 2 * r;
  for (let x0 = 0; x0 < w; x0 += STRIP) {
    const sw = Math.min(STRIP, w - x0);
    // Padded strip into h, then prefix maxima per block into g, suffix maxima in place in h.
    h.fill(-Infinity, 0, r * sw);
    for (let j = 0; j < rows; j++) {
      const o = (r + j) * sw,
        so = j * w + x0;
      for (let x = 0; x < sw; x++) h[o + x] = sign * src[so + x]!;
    }
    h.fill(-Infinity, (r + rows) * sw, m * sw);
    for (let b0 = 0; b0 < m; b0 += k) {
      const b1 = Math.min(m, b0 + k);
      g.set(h.subarray(b0 * sw, b0 * sw + sw), b0 * sw);
      for (let i = b0 + 1; i < b1; i++) {
        const o = i * sw;
        for (let x = 0; x < sw; x++) {
          const v = h[o + x]!,
            p = g[o - sw + x]!;
          g[o + x] = p < v ? v : p;
        }
      }
      for (let i = b1 - 2; i >= b0; i--) {
        const o = i * sw;
        for (let x = 0; x < sw; x++) {
          const v = h[o + x]!,
            p = h[o + sw + x]!;
          if (p > v) h[o + x] = p;
        }
      }
    }
    for (let y = 0; y < rows; y++) {
      const a0 = y * sw,
        c0 = (y + 2 * r) * sw,
        d0 = y * w + x0;
      for (let x = 0; x < sw; x++) {
        const a = h[a0 + x]!,
          c = g[c0 + x]!;
        dst[d0 + x] = sign * (a > c ? a : c);
      }
    }
  }
}

/** Square-window max (or min) filter of a w×h plane, radius r (window 2r+1), clipped at the borders. */
export function squareFilter(src: Float32Array, w: number, h: number, r: number, max: boolean): Float32Array {
  const sign = max ? 1 : -1;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  const g = new Float32Array(w + 2 * r),
    hh = new Float32Array(w + 2 * r);
  for (let y = 0; y < h; y++) runRow(src, tmp, y * w, w, r, sign, g, hh);
  const G = new Float32Array((h + 2 * r) * Math.min(w, STRIP)),
    H = new Float32Array((h + 2 * r) * Math.min(w, STRIP));
  runColumns(tmp, out, w, h, r, sign, G, H);
  return out;
}

/** Closing (`dark` strokes removed) or opening (light strokes removed) of a plane. */
export function strokeFreeBackground(src: Float32Array, w: number, h: number, r: number, dark: boolean): Float32Array {
  return squareFilter(squareFilter(src, w, h, r, dark), w, h, r, !dark);
}
