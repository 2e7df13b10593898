import { otsuThreshold } from "../image/enhance";
import { downscaleGray, grayToRgba, type GrayImage } from "../image/gray";
import type { HocrBlock, HocrBox } from "./hocr";
import type { OcrRaster } from "./page-raster";

/**
 * Vertical models read pages upright in mode 5 (one block of vertical text), at a working scale
 * that keeps columns within what the model reads whole (`columnRaster`). kor_vert in
 * tesseract-wasm still splits columns now and then, at scales native tesseract does not (columns
 * read as two overlapping lines); such a reading is replaced by one of the page turned a quarter
 * counter-clockwise (each column a line, the first on top: `columnsToLines`, read as one column of
 * text, mode 4), whose boxes are turned back (`linesToColumns`). That reading misses a column's
 * final full stop where native tesseract's upright one does not, hence the upright reading first.
 */

/**
 * The widest column of ink, in working pixels, that tesseract-wasm's mode 5 reads whole, for the
 * vertical models that need a bound. kor_vert, on the bench's Hangul page (14 pt) drawn at 300,
 * 250, 200, 150 dpi (columns of ink 44, 37, 30, 23 px): at 44 px the columns are split (7 lines
 * for 4; native tesseract reads them whole), at 37 px a full stop is lost, at 30 px and less it
 * reads as native tesseract does (`test/bench/vertical-scale.mjs`). Chinese and Japanese vertical
 * models read 75 px columns as native tesseract does: no bound.
 */
const MAX_COLUMN_PX: Record<string, number> = { kor_vert: 32 };

/**
 * The median width of the page's columns of ink: runs of image columns (x) holding more than a
 * twentieth of the most inked one's dark pixels. On a page of vertical text, the width of a
 * column of characters; null when there is no ink.
 */
export function columnWidth(img: GrayImage): number | null {
  const { width: w, height: h, data } = img;
  const t = otsuThreshold(img);
  const ink = new Uint32Array(w);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) if (data[row + x]! < t) ink[x]!++;
  }
  let most = 0;
  for (const n of ink) most = Math.max(most, n);
  if (most === 0) return null;
  const runs: number[] = [];
  let start = -1;
  for (let x = 0; x <= w; x++) {
    const inked = x < w && ink[x]! > most / 20;
    if (inked && start < 0) start = x;
    else if (!inked && start >= 0) {
      runs.push(x - start);
      start = -1;
    }
  }
  runs.sort((a, b) => a - b);
  return runs[runs.length >> 1]!;
}

/** The scale (≤ 1) that brings a page's columns within what `language`'s model reads whole. */
export function columnScale(img: GrayImage, language: string): number {
  const max = MAX_COLUMN_PX[language];
  const width = max ? columnWidth(img) : null;
  return width && width > max! ? max! / width : 1;
}

/** The raster, downscaled when its columns are wider than `language`'s model reads whole. */
export function columnRaster(raster: OcrRaster, language: string): OcrRaster {
  if (!MAX_COLUMN_PX[language]) return raster;
  const { data, width, height } = raster.image;
  // The raster's pixels are gray (grayToRgba): every channel carries the gray level.
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = data[i * 4]!;
  const img = { width, height, data: gray };
  const small = downscaleGray(img, columnScale(img, language));
  if (small === img) return raster;
  return {
    ...raster,
    scale: raster.scale * (small.width / width),
    image: { data: grayToRgba(small), width: small.width, height: small.height },
  };
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
 * when that reading split a column (kor_vert). `read` reads a raster, `turned` in mode 4. Returns
 * the blocks with the raster their boxes lie on.
 */
export async function readColumns(
  raster: OcrRaster,
  language: string,
  read: (raster: OcrRaster, turned: boolean) => Promise<HocrBlock[]>,
): Promise<{ raster: OcrRaster; blocks: HocrBlock[] }> {
  const upright = columnRaster(raster, language);
  const blocks = uprightColumns(await read(upright, false));
  if (!MAX_COLUMN_PX[language] || !splitsColumns(blocks)) return { raster: upright, blocks };
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
