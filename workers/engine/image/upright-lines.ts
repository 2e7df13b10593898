import { otsuThreshold } from "./enhance";
import type { GrayImage } from "./gray";

/** Width of the strips whose text lines are measured apart (~2.7 in at 150 dpi): columns keep their own line positions. */
const STRIP_W = 400;
/** Heights (pixels, ~150 dpi) of a line measured: 6 px is a dot row, 60 px two lines or a picture. */
const LINE_MIN_H = 6;
const LINE_MAX_H = 60;

/** Ink of a page's text lines above their x-height band (ascenders, capitals) and below it (descenders). */
export interface LineProfile {
  lines: number;
  above: number;
  below: number;
  /** All ink of the lines measured. */
  ink: number;
  /** Sum of the lines' heights (pixels): over `lines`, their mean height. */
  heights: number;
  /** The most lines found in one strip. */
  mostInStrip: number;
}

/**
 * Ink above and below the x-height band of the page's text lines, found by row profiles within
 * vertical strips: in a line of Latin text the band between baseline and x-height holds most ink,
 * and ascenders and capitals put far more above it than descenders put below it; turned over,
 * the two change places. `img`: a deskewed copy of the page at about 150 dpi.
 */
export function lineProfile(img: GrayImage): LineProfile {
  const { width, height, data } = img;
  const t = Math.min(otsuThreshold(img), 199);
  const out: LineProfile = { lines: 0, above: 0, below: 0, ink: 0, heights: 0, mostInStrip: 0 };
  const rows = new Int32Array(height);
  for (let x0 = 0; x0 < width; x0 += STRIP_W) {
    const x1 = Math.min(width, x0 + STRIP_W);
    if (x1 - x0 < STRIP_W / 2 && x0 > 0) break;
    rows.fill(0);
    const before = out.lines;
    for (let y = 0; y < height; y++) {
      let n = 0;
      for (let x = x0, i = y * width + x0; x < x1; x++, i++) if (data[i]! <= t) n++;
      rows[y] = n;
    }
    // A row with ink on at least 1 % of the strip belongs to a line; lines are runs of such rows.
    const on = Math.max(2, Math.round((x1 - x0) * 0.01));
    for (let y = 0; y < height;) {
      if (rows[y]! < on) {
        y++;
        continue;
      }
      let end = y;
      while (end < height && rows[end]! >= on) end++;
      const h = end - y;
      if (h >= LINE_MIN_H && h <= LINE_MAX_H) {
        let peak = 0;
        for (let k = y; k < end; k++) peak = Math.max(peak, rows[k]!);
        let top = y;
        while (rows[top]! * 2 < peak) top++;
        let bottom = end - 1;
        while (rows[bottom]! * 2 < peak) bottom--;
        for (let k = y; k < top; k++) out.above += rows[k]!;
        for (let k = bottom + 1; k < end; k++) out.below += rows[k]!;
        for (let k = y; k < end; k++) out.ink += rows[k]!;
        out.lines++;
        out.heights += h;
      }
      y = end;
    }
    out.mostInStrip = Math.max(out.mostInStrip, out.lines - before);
  }
  return out;
}
