import type { Band, Box, PageText } from "../../shared/engine-contract";
import type { EngineEnv } from "../env";
import { downscaleGray, type GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
import { lineProfile } from "../image/upright-lines";
import { MAX_OCR_PIXELS, MAX_OCR_SIDE } from "../memory";
import { ocrRasterFromGray } from "../ocr/page-raster";
import { pageOfLines } from "../ocr/page-text";
import { readWithGaps } from "../ocr/layout-gaps";
import { lineBoxes } from "../ocr/recognize";
import { pageSegmentation } from "../ocr/tesseract";
import { readJson } from "../storage/r2";

/**
 * Lines a band holds at least. A band's own call (page decode, layout analysis of the band) and the
 * planning pass cost little on a small page (`eurotext`, a dozen lines: planning 0.03 s of CPU, joining
 * 0.01 s, the two bands 0.32 / 0.30 s against 1.0 s read whole), so small pages are split too; at
 * 4 no bench page split further than at 6.
 */
export const MIN_BAND_LINES = 6;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

/** Where a line starts and ends across the cuts of one direction: rows for bands, columns for columns. */
type Axis = { from: (b: Box) => number; to: (b: Box) => number; cut: (r: Box, at: number) => [Box, Box] };
const ROWS: Axis = {
  from: (b) => b.y,
  to: (b) => b.y + b.h,
  cut: (r, y) => [
    { ...r, h: y - r.y },
    { ...r, y, h: r.y + r.h - y },
  ],
};
const COLUMNS: Axis = {
  from: (b) => b.x,
  to: (b) => b.x + b.w,
  cut: (r, x) => [
    { ...r, w: x - r.x },
    { ...r, x, w: r.x + r.w - x },
  ],
};

/** How much more than its share of the page's characters a part may hold before it is divided. */
const SHARE_SLACK = 1.25;

/**
 * Divides a page's lines (boxes in reading order) into parts to read apart, by recursive cuts:
 * each cut runs across a blank strip of rows or columns of pixels that has every earlier line
 * before it and every later one after it, so each part holds whole lines and reading the parts in
 * order keeps the page's reading order (text read top to bottom is cut into bands, columns read
 * one after the other into columns, and those again). Of the possible cuts the one that leaves
 * the larger side smallest is taken, and a part is divided while it holds more than
 * `SHARE_SLACK` times its share (1/`most`) of the characters (line width ÷ height) and at least
 * twice `MIN_BAND_LINES` lines. A heading, picture caption or line run across a gutter read after
 * the columns leaves no cut there. Null when the page stays one part; a part across the whole page
 * is a band of rows (no `x`, `w`).
 */
export function planParts(lines: Box[], width: number, height: number, most: number): Band[] | null {
  if (most < 2) return null;
  const weight = (ls: Box[]) => ls.reduce((n, b) => n + b.w / Math.max(1, b.h), 0);
  const share = weight(lines) / most;
  // A cut leaves a margin on both sides, as between lines on the page.
  const gap = Math.max(2, median(lines.map((b) => b.h)) / 4);
  const parts: Box[] = [];
  const divide = (ls: Box[], rect: Box) => {
    const n = ls.length;
    if (n < 2 * MIN_BAND_LINES || weight(ls) <= share * SHARE_SLACK) return void parts.push(rect);
    const chars = [0];
    for (const b of ls) chars.push(chars.at(-1)! + b.w / Math.max(1, b.h));
    let best: { i: number; at: number; axis: Axis } | null = null;
    const larger = (i: number) => Math.max(chars[i]!, chars[n]! - chars[i]!);
    for (const axis of [ROWS, COLUMNS]) {
      const before = [-Infinity]; // before[i]: furthest end of lines before i
      for (const b of ls) before.push(Math.max(before.at(-1)!, axis.to(b)));
      const after = Array<number>(n + 1).fill(Infinity); // after[i]: nearest start of lines from i on
      for (let i = n - 1; i >= 0; i--) after[i] = Math.min(after[i + 1]!, axis.from(ls[i]!));
      for (let i = MIN_BAND_LINES; i <= n - MIN_BAND_LINES; i++) {
        if (after[i]! - before[i]! < gap || (best && larger(i) >= larger(best.i))) continue;
        best = { i, at: Math.round((before[i]! + after[i]!) / 2), axis };
      }
    }
    if (!best) return void parts.push(rect);
    const [a, b] = best.axis.cut(rect, best.at);
    divide(ls.slice(0, best.i), a);
    divide(ls.slice(best.i), b);
  };
  divide(lines, { x: 0, y: 0, w: width, h: height });
  if (parts.length < 2) return null;
  return parts.map((r) => (r.x === 0 && r.w === width ? { y: r.y, h: r.h } : { y: r.y, h: r.h, x: r.x, w: r.w }));
}

/**
 * Linear scale of the image the bands are planned on, against the working image: layout analysis
 * at a quarter of the pixels costs a quarter of the time, and finds the same lines and gaps in
 * body text (a line 2.5 % of an A4 page's height is still 30 px tall there).
 */
const PLAN_SCALE = 0.5;

/** What `readOrSplit` found: the page's reading, or the bands to read apart. */
export type SplitOutcome = { page: PageText } | { bands: Band[] };

/**
 * Reads the page in `languages` (resolved), or, with `most` > 1 and horizontal models read with
 * automatic layout, divides it into parts (`planParts`) from a layout analysis of the page at
 * `PLAN_SCALE` of its working resolution.
 */
export async function readOrSplit(env: EngineEnv, gray: GrayImage, languages: string[], most: number): Promise<SplitOutcome> {
  if (most >= 2 && languages.every((l) => pageSegmentation(l) === "3")) {
    const small = downscaleGray(gray, fitScale(gray.width, gray.height, MAX_OCR_SIDE, MAX_OCR_PIXELS) * PLAN_SCALE);
    // A page with few lines in every strip (`lineProfile`; a blank page has none) has no parts to
    // read apart, and needs no layout analysis to plan them (0.05-0.14 s on a chart or a short page). The strips' count
    // can fall short of the lines layout analysis finds (a chart's scattered labels), so the bar
    // is three quarters of the lines two parts hold.
    if (lineProfile(small).mostInStrip >= 1.5 * MIN_BAND_LINES) {
      const page = { width: gray.width, height: gray.height, offset: { x: 0, y: 0 }, scale: small.width / gray.width };
      const lines = await lineBoxes(env.MODELS, ocrRasterFromGray(small, page), languages[0]!);
      const bands = planParts(lines, gray.width, gray.height, most);
      if (bands) return { bands };
    }
  }
  return { page: await readWithGaps(env.MODELS, gray, languages) };
}

/**
 * The page's reading from its bands' readings (in order, top to bottom): their lines in reading
 * order, grouped into regions as one reading of the page would be.
 */
export async function joinBands(files: R2Bucket, keys: string[]): Promise<PageText> {
  const bands = await Promise.all(keys.map((k) => readJson<PageText>(files, k, "band reading")));
  const first = bands[0]!;
  return {
    ...pageOfLines(
      bands.flatMap((b) => b.regions.flatMap((r) => r.lines)),
      { width: first.width, height: first.height, languages: first.languages },
    ),
    path: "ocr",
  };
}
