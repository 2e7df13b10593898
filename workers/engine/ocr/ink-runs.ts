import type { GrayImage } from "../image/gray";

/** A run of image columns (x) holding ink: where it starts and ends, and the dark pixels it holds. */
export interface InkRun {
  x0: number;
  x1: number;
  ink: number;
}

/** Dark pixels (at or below `t`) in each image column (x). */
export function inkProfile(img: GrayImage, t: number): Uint32Array {
  const { width: w, height: h, data } = img;
  const ink = new Uint32Array(w);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) if (data[row + x]! <= t) ink[x]!++;
  }
  return ink;
}

/** Runs of image columns holding more than `least` dark pixels each, left to right. */
export function inkRuns(ink: Uint32Array, least = 0): InkRun[] {
  const runs: InkRun[] = [];
  for (let x = 0; x < ink.length; x++) {
    if (ink[x]! <= least) continue;
    const last = runs[runs.length - 1];
    if (last && last.x1 === x) ((last.x1 = x + 1), (last.ink += ink[x]!));
    else runs.push({ x0: x, x1: x + 1, ink: ink[x]! });
  }
  return runs;
}

/** The median width of runs, weighed by the ink each holds (0 without runs). */
export function typicalWidth(runs: InkRun[]): number {
  const sorted = [...runs].sort((a, b) => a.x1 - a.x0 - (b.x1 - b.x0));
  const half = sorted.reduce((n, r) => n + r.ink, 0) / 2;
  let seen = 0;
  for (const r of sorted) if ((seen += r.ink) >= half) return r.x1 - r.x0;
  return 0;
}
