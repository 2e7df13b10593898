import type { Box, PagePath, PageTable, PageTables, PageText, TableCell, WordText } from "../contract";
import { otsuThreshold } from "../image/enhance";
import { cropGray } from "../image/geometry";
import type { GrayImage } from "../image/gray";
import { ocrRasterFromGray } from "../ocr/page-raster";
import { joinWords } from "../ocr/page-text";
import { recognizeWith } from "../ocr/recognize";
import { findAlignedTables, type AlignedTable } from "./aligned-tables";
import { findRuledTables, type RuledGrid } from "./ruled-tables";

const PAD = 12;

const inside = (b: Box, w: WordText) => {
  const cx = w.box.x + w.box.w / 2;
  const cy = w.box.y + w.box.h / 2;
  return cx >= b.x && cx <= b.x + b.w && cy >= b.y && cy <= b.y + b.h;
};

function allWords(page: PageText): WordText[] {
  return page.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
}

/** A crop with a white margin: tesseract reads text touching the image edge poorly. */
function padded(img: GrayImage): GrayImage {
  const w = img.width + 2 * PAD;
  const h = img.height + 2 * PAD;
  const out = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < img.height; y++) out.set(img.data.subarray(y * img.width, (y + 1) * img.width), (y + PAD) * w + PAD);
  return { width: w, height: h, data: out };
}

function hasInk(img: GrayImage): boolean {
  const t = Math.min(otsuThreshold(img), 160);
  let n = 0;
  for (let i = 0; i < img.data.length; i++) if (img.data[i]! <= t) n++;
  return n >= 12;
}

/** Recognises each cell of a ruled table from its own crop, inset past the rules. */
async function readRuledCells(models: R2Bucket, page: GrayImage, grid: RuledGrid, languages: string[]): Promise<TableCell[]> {
  const cells: TableCell[] = [];
  for (const c of grid.cells) {
    const inner = { x: c.box.x + grid.inset, y: c.box.y + grid.inset, w: c.box.w - 2 * grid.inset, h: c.box.h - 2 * grid.inset };
    cells.push({ ...c, ...(await readCrop(models, page, inner, languages)) });
  }
  return cells;
}

/** Reads one crop of the page as a block of text; empty when the crop holds no ink. */
async function readCrop(models: R2Bucket, page: GrayImage, box: Box, languages: string[]): Promise<{ text: string; confidence: number }> {
  if (box.w <= 4 || box.h <= 4) return { text: "", confidence: 1 };
  const crop = cropGray(page, box);
  if (!hasInk(crop)) return { text: "", confidence: 1 };
  const raster = ocrRasterFromGray(padded(crop), { width: page.width, height: page.height, offset: { x: box.x - PAD, y: box.y - PAD }, scale: 1 });
  const read = await recognizeWith(models, raster, languages, "block");
  return { text: read.regions.flatMap((r) => r.lines).map((l) => l.text).join("\n"), confidence: read.confidence };
}

/**
 * Grid positions of a borderless table that the page reading left empty (tesseract's page
 * layout drops short isolated words such as lone numbers) are read again from their own crop.
 */
async function fillAlignedGaps(models: R2Bucket, page: GrayImage, t: AlignedTable, languages: string[]): Promise<PageTable> {
  const cells = [...t.table.cells];
  for (let row = 0; row < t.rows.length; row++) {
    for (let col = 0; col < t.bounds.length - 1; col++) {
      if (cells.some((c) => c.row === row && c.col <= col && col < c.col + c.colSpan)) continue;
      const band = t.rows[row]!;
      const box = { x: t.bounds[col]!, y: band.y - 4, w: t.bounds[col + 1]! - t.bounds[col]!, h: band.h + 8 };
      const read = await readCrop(models, page, box, languages);
      if (read.text) cells.push({ row, col, rowSpan: 1, colSpan: 1, box, ...read });
    }
  }
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  return { ...t.table, cells };
}

/** Cells of a ruled table filled from words already read (a text layer). */
function fillCells(grid: RuledGrid, words: WordText[]): TableCell[] {
  return grid.cells.map((c) => {
    const ws = words.filter((w) => inside(c.box, w));
    return { ...c, text: joinWords(ws.map((w) => w.text)), confidence: 1 };
  });
}

/**
 * Tables of a page: ruled tables from the rules drawn on it (each cell recognised from its own crop,
 * or filled from the text layer), then borderless tables from the alignment of the page's words
 * (recognised once for the page, or taken from the text layer).
 */
export async function extractPageTables(models: R2Bucket, page: GrayImage, path: PagePath, textLayer: PageText | null, languages: string[]): Promise<PageTables> {
  const tables: PageTable[] = [];
  const grids = findRuledTables(page);
  const layerWords = textLayer ? allWords(textLayer) : null;
  for (const grid of grids) {
    const cells = layerWords ? fillCells(grid, layerWords) : await readRuledCells(models, page, grid, languages);
    tables.push({ box: grid.box, rows: grid.ys.length - 1, cols: grid.xs.length - 1, kind: "ruled", cells });
  }
  const words = layerWords ?? allWords(await recognizeWith(models, ocrRasterFromGray(page), languages));
  for (const aligned of findAlignedTables(words, grids.map((g) => g.box))) {
    tables.push(layerWords ? aligned.table : await fillAlignedGaps(models, page, aligned, languages));
  }
  tables.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  return { width: page.width, height: page.height, languages, path, tables };
}
