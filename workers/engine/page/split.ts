import type { Band, Box, PageText } from "../contract";
import type { EngineEnv } from "../env";
import { downscaleGray, type GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
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
type Axis = { from: (b: Box) => number; to: (b: Box) => number };
const ROWS: Axis = { from: (b) => b.y, to: (b) => b.y + b.h };
const COLUMNS: Axis = { from: (b) => b.x, to: (b) => b.x + b.w };

/**
 * Where to cut a page of `size` pixels along `axis` into at most `most` parts of about equal
 * characters (line width ÷ height), cutting only across a blank strip that has every earlier line
 * (`lines` in reading order) before it and every later one after it: each part holds whole lines,
 * and reading the parts one after the other keeps the page's reading order. The cuts' positions,
 * from 0 to `size`; null when the page stays one part.
 */
function planCuts(lines: Box[], size: number, most: number, axis: Axis): number[] | null {
  const n = lines.length;
  const parts = Math.min(most, Math.floor(n / MIN_BAND_LINES));
  if (parts < 2) return null;
  const chars = [0];
  for (const b of lines) chars.push(chars.at(-1)! + b.w / Math.max(1, b.h));
  const before = [0]; // before[i]: furthest end of lines before i
  for (const b of lines) before.push(Math.max(before.at(-1)!, axis.to(b)));
  const after = Array<number>(n + 1).fill(size); // after[i]: nearest start of lines from i on
  for (let i = n - 1; i >= 0; i--) after[i] = Math.min(after[i + 1]!, axis.from(lines[i]!));
  // A cut leaves a margin on both sides, as between lines on the page.
  const gap = Math.max(2, median(lines.map((b) => b.h)) / 4);
  const cuts: number[] = [];
  for (let k = 1; k < parts; k++) {
    const target = (chars[n]! * k) / parts;
    const from = (cuts.at(-1) ?? 0) + MIN_BAND_LINES;
    let best = -1;
    for (let i = from; i <= n - MIN_BAND_LINES * (parts - k); i++) {
      if (after[i]! - before[i]! < gap) continue;
      if (best < 0 || Math.abs(chars[i]! - target) < Math.abs(chars[best]! - target)) best = i;
    }
    if (best >= 0) cuts.push(best);
  }
  if (cuts.length === 0) return null;
  return [0, ...cuts.map((i) => Math.round((before[i]! + after[i]!) / 2)), size];
}

/**
 * Divides a page's lines (boxes in reading order) into at most `most` bands across the page, cut
 * across blank rows (`planCuts`). Null when the page stays one part.
 */
export function planBands(lines: Box[], height: number, most: number): Band[] | null {
  const ys = planCuts(lines, height, most, ROWS);
  return ys && ys.slice(1).map((y, i) => ({ y: ys[i]!, h: y - ys[i]! }));
}

/**
 * Divides a page of columns side by side, read one after the other, into at most `most` parts
 * from top to bottom of the page, cut down blank columns of pixels (`planCuts`): what bands do for
 * text read top to bottom. Null when no such cut exists (a heading or a picture across columns
 * read later, lines run together across a narrow gutter): the page stays one part.
 */
export function planColumns(lines: Box[], width: number, height: number, most: number): Band[] | null {
  const xs = planCuts(lines, width, most, COLUMNS);
  return xs && xs.slice(1).map((x, i) => ({ y: 0, h: height, x: xs[i]!, w: x - xs[i]! }));
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
 * automatic layout, divides it into bands (`planBands`), or else into columns (`planColumns`),
 * from a layout analysis of the page at `PLAN_SCALE` of its working resolution.
 */
export async function readOrSplit(env: EngineEnv, gray: GrayImage, languages: string[], most: number): Promise<SplitOutcome> {
  if (most >= 2 && languages.every((l) => pageSegmentation(l) === "3")) {
    const small = downscaleGray(gray, fitScale(gray.width, gray.height, MAX_OCR_SIDE, MAX_OCR_PIXELS) * PLAN_SCALE);
    const page = { width: gray.width, height: gray.height, offset: { x: 0, y: 0 }, scale: small.width / gray.width };
    const lines = await lineBoxes(env.MODELS, ocrRasterFromGray(small, page), languages[0]!);
    const bands = planBands(lines, gray.height, most) ?? planColumns(lines, gray.width, gray.height, most);
    if (bands) return { bands };
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
