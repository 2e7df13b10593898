import { otsuThreshold } from "../image/enhance";
import { downscaleGray, grayToRgba, upscaleGray, type GrayImage } from "../image/gray";
import { MAX_OCR_PIXELS, MAX_OCR_SIDE } from "../memory";
import { ocrModel } from "../../shared/ocr-models";
import type { HocrBlock, HocrBox } from "./hocr";
import type { OcrRaster } from "./page-raster";
import { inkProfile, inkRuns, typicalWidth } from "./ink-runs";
import { readStacked } from "./stacked-columns";

/**
 * Vertical models read pages upright in mode 5 (one block of vertical text), at a working scale
 * that brings columns to the width the model reads best at (`columnRaster`). kor_vert in
 * tesseract-wasm still splits columns now and then, at scales native tesseract does not (columns
 * read as two overlapping lines); such a reading is replaced by one of the page turned a quarter
 * counter-clockwise (each column a line, the first on top: `columnsToLines`, read as one column of
 * text, mode 4), whose boxes are turned back (`linesToColumns`). That reading misses a column's
 * final full stop where native tesseract's upright one does not, hence the upright reading first.
 */

/** kor_vert: the one vertical model whose upright reading splits columns now and then. */
const isHangul = (language: string) => ocrModel(language)?.script === "Hangul";

/**
 * The width of a column of ink, in working pixels, that each vertical model reads best at. The
 * page is scaled to it (`columnScale`); measured with `test/bench/vertical-scale.mjs` (tesseract-wasm
 * in Node against native tesseract on the same rendered pages) and the bench's real pages:
 * - Chinese and Japanese (`chi_sim_vert`, `chi_tra_vert`, `jpn_vert`): 36 px, up or down. Unscaled,
 *   tesseract-wasm read columns of 45 px (the bench's 14 pt page at 200 dpi) one character worse
 *   than native tesseract, and the real pages' columns of 24–25 px (10 pt at 200 dpi) a little
 *   worse; brought to 36 px, the drawn pages at 150–300 dpi and the real pages read as well as or
 *   better than native tesseract unscaled, but for jpn_vert at 150 dpi (one character short, as
 *   unscaled). 32 and 34 px read alike, 26 px still as well on the real Japanese page, 40 px lost
 *   characters at 200 dpi.
 * - Korean (`kor_vert`): at most 32 px. On the Hangul page drawn at 300, 250, 200, 150 dpi
 *   (columns of ink 44, 37, 30, 23 px): at 44 px the columns are split (7 lines for 4; native
 *   tesseract reads them whole), at 37 px a full stop is lost, at 30 px and less it reads as
 *   native tesseract does; brought up to 32 px, its 150 dpi page lost a full stop.
 */
const columnTarget = (language: string): { px: number; enlarge: boolean } =>
  isHangul(language) ? { px: 32, enlarge: false } : { px: 36, enlarge: true };

/**
 * A column of ink holds more than this share of the most inked one's dark pixels; where faint ink
 * (a balloon's outline, a rule) joins runs at that share into runs more than `JOINED` times as
 * wide as at `CORE`, the latter's width is taken. Taken at a tenth on every page, columns measured
 * 1–3 px narrower than at a twentieth, and three of the bench's six drawn vertical pages read a
 * character worse for it.
 */
const INKED = 1 / 20;
const CORE = 1 / 10;
const JOINED = 1.5;

/**
 * The width of the page's columns of ink: runs of image columns (x) holding more than a twentieth
 * of the most inked one's dark pixels, the median weighed by the ink each run holds. On a page of
 * vertical text, the width of a column of characters; null when there is no ink. Weighed by ink, a
 * balloon's short last column of a character whose strokes stand apart ("い！", three runs of 4 to
 * 11 px beside two columns of 26 px) does not pass for the width of its columns: counted run by
 * run, it measured 4 px and the balloon was read enlarged ninefold. The outline of a balloon of
 * three columns on a page (its arcs 9–10 dark pixels a column, the most inked column 177) joined a
 * column and the outline's side into one run of 118 px at a twentieth; at a tenth, 28 px.
 */
export function columnWidth(img: GrayImage): number | null {
  // Otsu's threshold is the darkest class's lightest level: on a bilevel page, black itself.
  const ink = inkProfile(img, otsuThreshold(img));
  let most = 0;
  for (const n of ink) most = Math.max(most, n);
  if (most === 0) return null;
  const wide = typicalWidth(inkRuns(ink, most * INKED));
  const core = typicalWidth(inkRuns(ink, most * CORE));
  return wide > JOINED * core ? core : wide;
}

/**
 * The scale that brings a page's columns to the width `language`'s model reads best at
 * (`columnTarget`). Enlarging stays within the working resolution's limits (MAX_OCR_SIDE,
 * MAX_OCR_PIXELS: the wasm heap), so a large page of small columns is enlarged only that far.
 */
export function columnScale(img: GrayImage, language: string): number {
  const width = columnWidth(img);
  if (!width) return 1;
  const { px, enlarge } = columnTarget(language);
  const scale = px / width;
  if (scale <= 1) return scale;
  if (!enlarge) return 1;
  const room = Math.min(MAX_OCR_SIDE / Math.max(img.width, img.height), Math.sqrt(MAX_OCR_PIXELS / (img.width * img.height)));
  return Math.max(1, Math.min(scale, room));
}

/** The raster scaled so that its columns have the width `language`'s model reads best at. */
export function columnRaster(raster: OcrRaster, language: string): OcrRaster {
  const { data, width, height } = raster.image;
  // The raster's pixels are gray (grayToRgba): every channel carries the gray level.
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = data[i * 4]!;
  const img = { width, height, data: gray };
  const scale = columnScale(img, language);
  const scaled = scale < 1 ? downscaleGray(img, scale) : upscaleGray(img, scale);
  if (scaled === img) return raster;
  return {
    ...raster,
    scale: raster.scale * (scaled.width / width),
    image: { data: grayToRgba(scaled), width: scaled.width, height: scaled.height },
    ...(raster.dpi ? { dpi: raster.dpi * (scaled.width / width) } : {}),
  };
}

/**
 * A block's columns read stacked replace its reading as drawn when read this much more surely
 * (mean word confidence): short columns read as drawn scored 0.39–0.62 where stacked they read
 * right at 0.85–0.92, while readings within a few hundredths of each other differ by a mark here
 * and there, either way ("!!" read as リ as drawn, as 中 stacked).
 */
const SURER = 0.05;

/** Mean confidence of a reading's words (0 without words). */
function meanConfidence(blocks: HocrBlock[]): number {
  const words = blocks.flatMap((b) => b.lines.flatMap((l) => l.words));
  return words.length ? words.reduce((n, w) => n + w.confidence, 0) / words.length : 0;
}

/** Whether a vertical reading split a column: two of its columns overlap across the page. */
function splitsColumns(blocks: HocrBlock[]): boolean {
  const cols = blocks.flatMap((b) => b.lines.filter((l) => l.vertical).map((l) => l.box)).sort((a, b) => a.left - b.left);
  return cols.some((c, i) => i > 0 && c.left < cols[i - 1]!.right);
}

/** A vertical model's block read upright (mode 5): its lines taller than wide are columns. */
const uprightColumns = (blocks: HocrBlock[]): HocrBlock[] =>
  blocks.map((b) => ({
    ...b,
    lines: b.lines.map((l) => (l.box.bottom - l.box.top > l.box.right - l.box.left ? { ...l, vertical: true } : l)),
  }));

/**
 * Reads a page of columns with a vertical model: upright at the model's column scale, or turned
 * when that reading split a column (kor_vert). `read` reads a raster, `turned` in mode 4. A
 * `block` (a balloon, a crop) is also read with its columns stacked into one (stacked-columns.ts),
 * kept when read clearly more surely (`SURER`). Returns the blocks with the raster their boxes lie on.
 */
export async function readColumns(
  raster: OcrRaster,
  language: string,
  read: (raster: OcrRaster, turned: boolean) => Promise<HocrBlock[]>,
  block = false,
): Promise<{ raster: OcrRaster; blocks: HocrBlock[] }> {
  const upright = columnRaster(raster, language);
  const readUpright = async (r: OcrRaster) => uprightColumns(await read(r, false));
  const blocks = await readUpright(upright);
  if (!isHangul(language) || !splitsColumns(blocks)) {
    // A block's columns read one under the other too (stacked-columns.ts), kept when read clearly more surely.
    const stacked = block ? await readStacked(upright, readUpright) : null;
    return { raster: upright, blocks: stacked && meanConfidence(stacked) > meanConfidence(blocks) + SURER ? stacked : blocks };
  }
  const lines = await read({ ...raster, image: columnsToLines(raster.image) }, true);
  return { raster, blocks: linesToColumns(lines, raster.image.width) };
}

/** The RGBA image turned a quarter counter-clockwise: columns become lines, the rightmost on top. */
export function columnsToLines(img: { data: Uint8ClampedArray; width: number; height: number }): {
  data: Uint8ClampedArray;
  width: number;
  height: number;
} {
  const { width: w, height: h, data: src } = img;
  const out = new Uint8ClampedArray(w * h * 4);
  // Output (u, v), width h, height w, takes source (w - 1 - v, u).
  for (let v = 0; v < w; v++) {
    for (let u = 0; u < h; u++) {
      const s = (u * w + (w - 1 - v)) * 4;
      const d = (v * h + u) * 4;
      out[d] = src[s]!;
      out[d + 1] = src[s + 1]!;
      out[d + 2] = src[s + 2]!;
      out[d + 3] = src[s + 3]!;
    }
  }
  return { data: out, width: h, height: w };
}

/** A box of the turned image back on the upright one of width `w`. */
const back = (b: HocrBox, w: number): HocrBox => ({ left: w - b.bottom, top: b.left, right: w - b.top, bottom: b.right });

/** Blocks read from the turned image, on the upright one: lines become columns (vertical). */
export function linesToColumns(blocks: HocrBlock[], w: number): HocrBlock[] {
  return blocks.map((b) => ({
    box: back(b.box, w),
    lines: b.lines.map((l) => ({ box: back(l.box, w), vertical: true, words: l.words.map((x) => ({ ...x, box: back(x.box, w) })) })),
  }));
}
