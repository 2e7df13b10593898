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
  // (Never read outside the scratch arrays: an out-of-bounds typed-array read makes V8 drop the
  // optimised loop, several times slower.)
  for (let i = 0, b = 0; i < m; i++, b++) {
    if (b === k) b = 0;
    const j = i - r;
    const v = j < 0 || j >= n ? -Infinity : sign * src[off + j]!;
    if (b === 0) g[i] = v;
    else {
      const p = g[i - 1]!;
      g[i] = p < v ? v : p;
    }
  }
  for (let i = m - 1; i >= 0; i--) {
    const j = i - r;
    const v = j < 0 || j >= n ? -Infinity : sign * src[off + j]!;
    if (i % k === k - 1 || i === m - 1) h[i] = v;
    else {
      const p = h[i + 1]!;
      h[i] = p < v ? v : p;
    }
  }
  for (let i = 0; i < n; i++) {
    const a = h[i]!,
      c = g[i + 2 * r]!;
    dst[off + i] = sign * (a > c ? a : c);
  }
}

/**
 * The same along columns, a whole row at a time (contiguous memory: a column walk over a wide
 * plane misses the cache on every step). `g` and `h` are scratch of (h + 2r)·w.
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
  for (let i = 0, b = 0; i < m; i++, b++) {
    if (b === k) b = 0;
    const j = i - r,
      o = i * w;
    if (j < 0 || j >= rows) {
      if (b === 0) g.fill(-Infinity, o, o + w);
      else g.copyWithin(o, o - w, o);
      continue;
    }
    const so = j * w;
    if (b === 0) for (let x = 0; x < w; x++) g[o + x] = sign * src[so + x]!;
    else {
      for (let x = 0; x < w; x++) {
        const v = sign * src[so + x]!,
          p = g[o - w + x]!;
        g[o + x] = p < v ? v : p;
      }
    }
  }
  for (let i = m - 1; i >= 0; i--) {
    const j = i - r,
      o = i * w;
    const first = i % k === k - 1 || i === m - 1;
    if (j < 0 || j >= rows) {
      if (first) h.fill(-Infinity, o, o + w);
      else h.copyWithin(o, o + w, o + 2 * w);
      continue;
    }
    const so = j * w;
    if (first) for (let x = 0; x < w; x++) h[o + x] = sign * src[so + x]!;
    else {
      for (let x = 0; x < w; x++) {
        const v = sign * src[so + x]!,
          p = h[o + w + x]!;
        h[o + x] = p < v ? v : p;
      }
    }
  }
  for (let y = 0; y < rows; y++) {
    const a0 = y * w,
      c0 = (y + 2 * r) * w,
      d0 = y * w;
    for (let x = 0; x < w; x++) {
      const a = h[a0 + x]!,
        c = g[c0 + x]!;
      dst[d0 + x] = sign * (a > c ? a : c);
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
  const G = new Float32Array((h + 2 * r) * w),
    H = new Float32Array((h + 2 * r) * w);
  runColumns(tmp, out, w, h, r, sign, G, H);
  return out;
}

/** Closing (`dark` strokes removed) or opening (light strokes removed) of a plane. */
export function strokeFreeBackground(src: Float32Array, w: number, h: number, r: number, dark: boolean): Float32Array {
  return squareFilter(squareFilter(src, w, h, r, dark), w, h, r, !dark);
}
