import type { GrayImage } from "./gray";

/** Lobes of the Lanczos window: 3, the usual choice for enlarging photographs and scans. */
const LOBES = 3;

const sinc = (x: number) => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));
const lanczos = (x: number) => (Math.abs(x) < LOBES ? sinc(x) * sinc(x / LOBES) : 0);

/** Per output index: the first source index and the weights of the `2·LOBES` taps from it (edges clamped). */
function taps(from: number, to: number): { first: Int32Array; weights: Float32Array } {
  const n = 2 * LOBES;
  const first = new Int32Array(to);
  const weights = new Float32Array(to * n);
  for (let i = 0; i < to; i++) {
    const centre = ((i + 0.5) * from) / to - 0.5;
    const start = Math.floor(centre) - LOBES + 1;
    first[i] = start;
    let sum = 0;
    for (let k = 0; k < n; k++) sum += weights[i * n + k] = lanczos(centre - (start + k));
    for (let k = 0; k < n; k++) weights[i * n + k]! /= sum;
  }
  return { first, weights };
}

/**
 * A gray image enlarged `factor` times (> 1) with a Lanczos-3 filter, rows then columns: sharper
 * letter edges than bilinear interpolation gives, which small lettering needs to be found and read.
 */
export function enlargeGray(img: GrayImage, factor: number): GrayImage {
  const { width: w, height: h, data } = img;
  const W = Math.round(w * factor);
  const H = Math.round(h * factor);
  const n = 2 * LOBES;
  const across = taps(w, W);
  const rows = new Float32Array(W * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < W; x++) {
      let v = 0;
      for (let k = 0; k < n; k++) v += across.weights[x * n + k]! * data[y * w + Math.min(w - 1, Math.max(0, across.first[x]! + k))]!;
      rows[y * W + x] = v;
    }
  const down = taps(h, H);
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let v = 0;
      for (let k = 0; k < n; k++) v += down.weights[y * n + k]! * rows[Math.min(h - 1, Math.max(0, down.first[y]! + k)) * W + x]!;
      out[y * W + x] = Math.max(0, Math.min(255, Math.round(v)));
    }
  return { width: W, height: H, data: out };
}
