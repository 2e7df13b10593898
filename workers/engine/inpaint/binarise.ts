import type { GrayImage } from "../image/gray";

/** Sauvola's sensitivity and dynamic range of the standard deviation (8-bit gray), as in tesseract and Leptonica. */
const K = 0.34;
const RANGE = 128;

/**
 * Local (Sauvola) binarisation: a pixel is ink (0) when it is darker than
 * m·(1 + K·(s/RANGE − 1)), with m and s the mean and standard deviation of the (2·half+1)² window
 * around it; else paper (255). One global threshold over a photograph loses text standing on its
 * lighter and darker parts alike; this one follows the picture, and flat stretches (s small) fall
 * to paper. Window sums come from integral images of the values and their squares.
 */
export function sauvola(img: GrayImage, half: number): GrayImage {
  const { width: w, height: h, data } = img;
  const W = w + 1;
  const sum = new Float64Array(W * (h + 1)),
    sq = new Float64Array(W * (h + 1));
  for (let y = 0; y < h; y++) {
    let rs = 0,
      rq = 0;
    for (let x = 0; x < w; x++) {
      const v = data[y * w + x]!;
      rs += v;
      rq += v * v;
      sum[(y + 1) * W + x + 1] = sum[y * W + x + 1]! + rs;
      sq[(y + 1) * W + x + 1] = sq[y * W + x + 1]! + rq;
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - half),
      y1 = Math.min(h, y + half + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - half),
        x1 = Math.min(w, x + half + 1);
      const n = (y1 - y0) * (x1 - x0);
      const a = y0 * W + x0,
        b = y0 * W + x1,
        c = y1 * W + x0,
        d = y1 * W + x1;
      const m = (sum[d]! - sum[b]! - sum[c]! + sum[a]!) / n;
      const v = (sq[d]! - sq[b]! - sq[c]! + sq[a]!) / n - m * m;
      const t = m * (1 + K * (Math.sqrt(Math.max(0, v)) / RANGE - 1));
      out[y * w + x] = data[y * w + x]! < t ? 0 : 255;
    }
  }
  return { width: w, height: h, data: out };
}

/** The dominant eigenvector of a symmetric 3×3 matrix (power iteration; enough for colour covariances). */
function principal(m: number[]): [number, number, number] {
  let v: [number, number, number] = [0.58, 0.57, 0.56];
  for (let it = 0; it < 32; it++) {
    const n: [number, number, number] = [
      m[0]! * v[0] + m[1]! * v[1] + m[2]! * v[2],
      m[3]! * v[0] + m[4]! * v[1] + m[5]! * v[2],
      m[6]! * v[0] + m[7]! * v[1] + m[8]! * v[2],
    ];
    const len = Math.hypot(...n);
    if (len < 1e-9) return v;
    v = [n[0] / len, n[1] / len, n[2] / len];
  }
  return v;
}

/**
 * Writes into `out` (a gray page) the rectangle's colours projected on their second principal
 * axis, stretched to 0–255 (1st to 99th percentile). The first axis of a photograph's colours is
 * mostly lightness (light and shade); the second is the strongest difference of hue left over,
 * where text that differs from the picture in hue more than in lightness (yellow on a green leaf)
 * stands out.
 */
export function chromaAxis(
  img: { width: number; data: Uint8Array },
  rect: { x0: number; y0: number; x1: number; y1: number },
  out: GrayImage,
): void {
  const { width, data } = img;
  const step = Math.max(1, Math.floor(Math.sqrt(((rect.x1 - rect.x0) * (rect.y1 - rect.y0)) / 20000)));
  const mean = [0, 0, 0];
  let n = 0;
  for (let y = rect.y0; y < rect.y1; y += step)
    for (let x = rect.x0; x < rect.x1; x += step) {
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) mean[c]! += data[i + c]!;
      n++;
    }
  if (!n) return;
  for (let c = 0; c < 3; c++) mean[c]! /= n;
  const cov = new Array<number>(9).fill(0);
  for (let y = rect.y0; y < rect.y1; y += step)
    for (let x = rect.x0; x < rect.x1; x += step) {
      const i = (y * width + x) * 4;
      const d = [data[i]! - mean[0]!, data[i + 1]! - mean[1]!, data[i + 2]! - mean[2]!];
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) cov[a * 3 + b]! += d[a]! * d[b]!;
    }
  const first = principal(cov);
  const l1 = first.reduce((s, v, a) => s + v * (cov[a * 3]! * first[0] + cov[a * 3 + 1]! * first[1] + cov[a * 3 + 2]! * first[2]), 0);
  const deflated = cov.map((v, k) => v - l1 * first[Math.floor(k / 3)]! * first[k % 3]!);
  const axis = principal(deflated);
  const values = new Float32Array((rect.x1 - rect.x0) * (rect.y1 - rect.y0));
  for (let y = rect.y0, k = 0; y < rect.y1; y++)
    for (let x = rect.x0; x < rect.x1; x++, k++) {
      const i = (y * width + x) * 4;
      values[k] = data[i]! * axis[0] + data[i + 1]! * axis[1] + data[i + 2]! * axis[2];
    }
  const sorted = values.filter((_, k) => k % (step * step) === 0).sort();
  const lo = sorted[Math.floor(sorted.length * 0.01)] ?? 0,
    hi = sorted[Math.floor(sorted.length * 0.99)] ?? 1;
  const scale = 255 / Math.max(1e-6, hi - lo);
  for (let y = rect.y0, k = 0; y < rect.y1; y++)
    for (let x = rect.x0; x < rect.x1; x++, k++)
      out.data[y * out.width + x] = Math.max(0, Math.min(255, Math.round((values[k]! - lo) * scale)));
}
