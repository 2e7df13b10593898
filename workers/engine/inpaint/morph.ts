/**
 * Grey-level morphology on one channel of a rectangle: running maximum / minimum over square
 * windows (van Herk–Gil–Werman, a constant number of comparisons a pixel whatever the window).
 * A closing (max then min) with a window wider than a stroke removes dark strokes and keeps every
 * feature wider than the window, step edges between two backgrounds included; an opening does
 * the same for light strokes. That is the text-free background estimate the mask is measured against.
 */

/**
 * Running max (or min) of `src[off + i·stride]`, i < n, over windows of 2r+1 clipped at the ends,
 * written to `dst` at the same places. `g` and `h` are scratch of length n + 2r.
 */
function run1d(src: Float32Array, dst: Float32Array, off: number, stride: number, n: number, r: number, max: boolean, g: Float32Array, h: Float32Array): void {
  const k = 2 * r + 1;
  const m = n + 2 * r;
  const sign = max ? 1 : -1;
  // Padded with the neutral value (the sign makes a min a max), so every window has length k
  // and spans at most two blocks.
  for (let i = 0; i < m; i++) {
    const v = i < r || i >= n + r ? -Infinity : sign * src[off + (i - r) * stride]!;
    const p = g[i - 1]!;
    g[i] = i % k === 0 || p < v ? v : p;
  }
  for (let i = m - 1; i >= 0; i--) {
    const v = i < r || i >= n + r ? -Infinity : sign * src[off + (i - r) * stride]!;
    const p = h[i + 1]!;
    h[i] = i % k === k - 1 || i === m - 1 || p < v ? v : p;
  }
  for (let i = 0; i < n; i++) {
    const a = h[i]!, b = g[i + 2 * r]!;
    dst[off + i * stride] = sign * (a > b ? a : b);
  }
}

/** Square-window max (or min) filter of a w×h plane, radius r (window 2r+1), clipped at the borders. */
export function squareFilter(src: Float32Array, w: number, h: number, r: number, max: boolean): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  const len = Math.max(w, h) + 2 * r;
  const g = new Float32Array(len), hh = new Float32Array(len);
  for (let y = 0; y < h; y++) run1d(src, tmp, y * w, 1, w, r, max, g, hh);
  for (let x = 0; x < w; x++) run1d(tmp, out, x, w, h, r, max, g, hh);
  return out;
}

/** Closing (`dark` strokes removed) or opening (light strokes removed) of a plane. */
export function strokeFreeBackground(src: Float32Array, w: number, h: number, r: number, dark: boolean): Float32Array {
  return squareFilter(squareFilter(src, w, h, r, dark), w, h, r, !dark);
}
