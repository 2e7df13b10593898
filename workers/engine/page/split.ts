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

/**
 * Divides a page's lines (boxes in reading order) into at most `most` bands of about equal
 * characters (line width ÷ height), cut only across blank rows that have every earlier line above
 * them and every later one below: each band holds whole lines, and reading the bands one after the
 * other keeps the page's reading order. Null when the page stays one part.
 */
export function planBands(lines: Box[], height: number, most: number): Band[] | null {
  const n = lines.length;
  const parts = Math.min(most, Math.floor(n / MIN_BAND_LINES));
  if (parts < 2) return null;
  const chars = [0];
  for (const b of lines) chars.push(chars.at(-1)! + b.w / Math.max(1, b.h));
  const above = [0]; // above[i]: lowest bottom of lines before i
  for (const b of lines) above.push(Math.max(above.at(-1)!, b.y + b.h));
  const below = Array<number>(n + 1).fill(height); // below[i]: highest top of lines from i on
  for (let i = n - 1; i >= 0; i--) below[i] = Math.min(below[i + 1]!, lines[i]!.y);
  // A cut leaves a margin above and below it, as between lines on the page.
  const gap = Math.max(2, median(lines.map((b) => b.h)) / 4);
  const cuts: number[] = [];
  for (let k = 1; k < parts; k++) {
    const target = (chars[n]! * k) / parts;
    const from = (cuts.at(-1) ?? 0) + MIN_BAND_LINES;
    let best = -1;
    for (let i = from; i <= n - MIN_BAND_LINES * (parts - k); i++) {
      if (below[i]! - above[i]! < gap) continue;
      if (best < 0 || Math.abs(chars[i]! - target) < Math.abs(chars[best]! - target)) best = i;
    }
    if (best >= 0) cuts.push(best);
  }
  if (cuts.length === 0) return null;
  const ys = [0, ...cuts.map((i) => Math.round((above[i]! + below[i]!) / 2)), height];
  return ys.slice(1).map((y, i) => ({ y: ys[i]!, h: y - ys[i]! }));
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
 * automatic layout, divides it into bands (`planBands`) from a layout analysis of the page at
 * `PLAN_SCALE` of its working resolution.
 */
export async function readOrSplit(env: EngineEnv, gray: GrayImage, languages: string[], most: number): Promise<SplitOutcome> {
  if (most >= 2 && languages.every((l) => pageSegmentation(l) === "3")) {
    const small = downscaleGray(gray, fitScale(gray.width, gray.height, MAX_OCR_SIDE, MAX_OCR_PIXELS) * PLAN_SCALE);
    const page = { width: gray.width, height: gray.height, offset: { x: 0, y: 0 }, scale: small.width / gray.width };
    const bands = planBands(await lineBoxes(env.MODELS, ocrRasterFromGray(small, page), languages[0]!), gray.height, most);
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
