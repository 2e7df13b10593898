import { downscaleGray, type GrayImage } from "./gray";
import { grayHistogram } from "./histogram";
import { fitScale } from "./limits";

/**
 * Contrast normalisation: stretches the 0.5th..99.5th percentile range to 0..255, so gray
 * scans and faded print reach tesseract with dark ink on a white page. Left alone when the
 * range is already wide or the page is blank.
 */
export function normaliseContrast(img: GrayImage): GrayImage {
  const hist = grayHistogram(img.data);
  const n = img.data.length;
  let lo = 0;
  let hi = 255;
  for (let acc = 0; lo < 255 && (acc += hist[lo]!) < n * 0.005;) lo++;
  for (let acc = 0; hi > 0 && (acc += hist[hi]!) < n * 0.005;) hi--;
  if (hi - lo < 32 || (lo <= 8 && hi >= 247)) return img;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - lo) * 255) / (hi - lo))));
  const out = new Uint8Array(n);
  const d = img.data;
  for (let i = 0; i < n; i++) out[i] = lut[d[i]!]!;
  return { width: img.width, height: img.height, data: out };
}

/** Otsu's threshold of a gray image. */
export function otsuThreshold(img: GrayImage): number {
  const hist = grayHistogram(img.data);
  const n = img.data.length;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * hist[v]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let v = 0; v < 256; v++) {
    wB += hist[v]!;
    if (wB === 0) continue;
    const wF = n - wB;
    if (wF === 0) break;
    sumB += v * hist[v]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      threshold = v;
    }
  }
  return threshold;
}

/** Dark pixels (ink) of a downscaled copy, as coordinates, for the projection analyses below. */
export interface InkSample {
  width: number;
  height: number;
  xs: Int32Array;
  ys: Int32Array;
}

const ANALYSIS_SIDE = 1200;

export function inkSample(img: GrayImage): InkSample {
  const small = downscaleGray(img, fitScale(img.width, img.height, ANALYSIS_SIDE));
  const t = otsuThreshold(small);
  const d = small.data;
  let n = 0;
  for (let i = 0; i < d.length; i++) if (d[i]! <= t && d[i]! < 200) n++;
  // A page that is mostly dark is not text on paper; treat it as no signal.
  if (n > d.length * 0.5) n = 0;
  const xs = new Int32Array(n);
  const ys = new Int32Array(n);
  if (n > 0) {
    let k = 0;
    for (let y = 0; y < small.height; y++) {
      for (let x = 0; x < small.width; x++) {
        const v = d[y * small.width + x]!;
        if (v <= t && v < 200) {
          xs[k] = x;
          ys[k++] = y;
        }
      }
    }
  }
  return { width: small.width, height: small.height, xs, ys };
}

/** Sharpness of the ink's projection onto rows sheared by `slope`: high when lines are horizontal. */
function projectionScore(ink: InkSample, slope: number, vertical: boolean): number {
  const len = vertical ? ink.width : ink.height;
  const other = vertical ? ink.height : ink.width;
  const pad = Math.ceil(Math.abs(slope) * other) + 1;
  const bins = new Float64Array(len + 2 * pad);
  const { xs, ys } = ink;
  for (let i = 0; i < xs.length; i++) {
    const a = vertical ? xs[i]! : ys[i]!;
    const b = vertical ? ys[i]! : xs[i]!;
    bins[Math.round(a - b * slope) + pad]! += 1;
  }
  let score = 0;
  for (let i = 1; i < bins.length; i++) {
    const d = bins[i]! - bins[i - 1]!;
    score += d * d;
  }
  return score;
}

/**
 * Skew of the text lines in degrees (lines descending to the right are positive), searched in
 * ±5° by projection profiles: coarse 0.5° steps, then 0.1° around the best. 0 when the page
 * carries too little ink to tell.
 */
export function estimateSkew(ink: InkSample): number {
  if (ink.xs.length < 200) return 0;
  const score = (deg: number) => projectionScore(ink, Math.tan((deg * Math.PI) / 180), false);
  let best = 0;
  let bestScore = score(0);
  for (let d = -5; d <= 5.0001; d += 0.5) {
    const s = score(d);
    if (s > bestScore * 1.0001) {
      best = d;
      bestScore = s;
    }
  }
  const coarse = best;
  for (let d = coarse - 0.4; d <= coarse + 0.4001; d += 0.1) {
    const s = score(d);
    if (s > bestScore * 1.0001) {
      best = d;
      bestScore = s;
    }
  }
  return Math.round(best * 10) / 10;
}

/** How many times as sharply the ink's rows line up at `deg` degrees as level (1 with too little ink to tell). */
export function skewGain(ink: InkSample, deg: number): number {
  const level = projectionScore(ink, 0, false);
  return level > 0 ? projectionScore(ink, Math.tan((deg * Math.PI) / 180), false) / level : 1;
}

/**
 * Ratio of the row-profile sharpness to the column-profile sharpness, each normalised by its
 * length and taken at its best angle within ±5° (a skewed page blurs both profiles): well above 1
 * for horizontal lines of text, well below 1 for a page turned by 90°.
 */
export function lineAxisRatio(ink: InkSample): number {
  if (ink.xs.length < 200) return 1;
  const best = (vertical: boolean) => {
    let s = 0;
    for (let d = -5; d <= 5; d += 0.5) s = Math.max(s, projectionScore(ink, Math.tan((d * Math.PI) / 180), vertical));
    return s;
  };
  const rows = best(false) / ink.height;
  const cols = best(true) / ink.width;
  return cols > 0 ? rows / cols : 1;
}
