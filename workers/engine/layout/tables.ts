import type {
  Box,
  LineText,
  PagePath,
  PageTable,
  PageTables,
  PageText,
  RegionText,
  TableCell,
  WordText,
} from "../../shared/engine-contract";
import { otsuThreshold } from "../image/enhance";
import { cropGray } from "../image/geometry";
import type { GrayImage } from "../image/gray";
import { ocrRasterFromGray } from "../ocr/page-raster";
import { joinWords } from "../ocr/page-text";
import { recognizeWith } from "../ocr/recognize";
import type { AlignedTable } from "./aligned-tables";
import { inside, pageWords, ruledTable, ruleTolerance, tablesFromWords, textLayerTables } from "./find-tables";
import { unionBox } from "../ocr/group-lines";
import { eraseRules, pageRules } from "./page-rules";
import type { RuledGrid } from "./ruled-tables";

const PAD = 12;

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

interface CropRead {
  text: string;
  confidence: number;
  /** The lines read, in page coordinates. */
  lines: LineText[];
}

/** Reads one crop of the page as a block of text; empty when the crop holds no ink. */
async function readCrop(models: R2Bucket, page: GrayImage, box: Box, languages: string[]): Promise<CropRead> {
  if (box.w <= 4 || box.h <= 4) return { text: "", confidence: 1, lines: [] };
  const crop = cropGray(page, box);
  if (!hasInk(crop)) return { text: "", confidence: 1, lines: [] };
  const raster = ocrRasterFromGray(padded(crop), {
    width: page.width,
    height: page.height,
    offset: { x: box.x - PAD, y: box.y - PAD },
    scale: 1,
  });
  const read = await recognizeWith(models, raster, languages, "block");
  const lines = read.regions.flatMap((r) => r.lines);
  return { text: lines.map((l) => l.text).join(" "), confidence: read.confidence, lines };
}

/** Grids with at most this many cells are read cell by cell; larger ones from the page reading. */
const CELL_BY_CELL = 80;

/**
 * Cells of a ruled grid on an image: each read from its own crop, inset past the rules (small
 * grids), or taken from the page reading with the cells it left empty though they hold ink read
 * again (tesseract's page layout drops short isolated words such as lone numbers).
 */
async function readRuledCells(
  models: R2Bucket,
  page: GrayImage,
  grid: RuledGrid,
  cells: TableCell[],
  languages: string[],
): Promise<{ cells: TableCell[]; reads: CropRead[] }> {
  const out: TableCell[] = [];
  const reads: CropRead[] = [];
  for (const c of cells) {
    if (c.text && cells.length > CELL_BY_CELL) out.push(c);
    else {
      const inner = { x: c.box.x + grid.inset, y: c.box.y + grid.inset, w: c.box.w - 2 * grid.inset, h: c.box.h - 2 * grid.inset };
      const read = await readCrop(models, page, inner, languages);
      out.push({ ...c, text: read.text, confidence: read.confidence });
      reads.push(read);
    }
  }
  return { cells: out, reads };
}

/** The same for the empty grid positions of a borderless table. */
async function fillAlignedGaps(
  models: R2Bucket,
  page: GrayImage,
  t: AlignedTable,
  languages: string[],
): Promise<{ table: PageTable; reads: CropRead[] }> {
  const cells = [...t.table.cells];
  const reads: CropRead[] = [];
  for (let row = 0; row < t.rows.length; row++) {
    for (let col = 0; col < t.bounds.length - 1; col++) {
      if (cells.some((c) => c.row === row && c.col <= col && col < c.col + c.colSpan)) continue;
      const band = t.rows[row]!;
      const box = { x: t.bounds[col]!, y: band.y - 4, w: t.bounds[col + 1]! - t.bounds[col]!, h: band.h + 8 };
      const read = await readCrop(models, page, box, languages);
      if (!read.text) continue;
      cells.push({ row, col, rowSpan: 1, colSpan: 1, box, text: read.text, confidence: read.confidence });
      reads.push(read);
    }
  }
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  return { table: { ...t.table, cells }, reads };
}

/**
 * The page text with what cells were read from their own crops: page lines inside a grid read cell
 * by cell give way to its cells' readings (one region per cell); readings of gaps are added. So the
 * regions hold every cell's text even where the page reading dropped or garbled it.
 */
function withCellReads(text: PageText, grids: Box[], reads: CropRead[]): PageText {
  if (reads.length === 0) return text;
  const kept = text.regions
    .map((r) => {
      const lines = r.lines.filter((l) => !grids.some((g) => inside(g, l)));
      return lines.length === r.lines.length ? r : { ...r, lines, text: lines.map((l) => l.text).join("\n") };
    })
    .filter((r) => r.lines.length > 0);
  const cellRegions: RegionText[] = reads
    .filter((c) => c.lines.length > 0)
    .map((c) => ({
      box: c.lines.slice(1).reduce((u, l) => unionBox(u, l.box), c.lines[0]!.box),
      text: c.lines.map((l) => l.text).join("\n"),
      confidence: c.confidence,
      lines: c.lines,
    }));
  const regions = [...kept, ...cellRegions].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  return { ...text, regions, text: regions.map((r) => r.text).join("\n\n") };
}

/** Tables and the text they were read from. */
export interface PageTablesAndText {
  tables: PageTables;
  text: PageText;
}

/**
 * Tables of a page. Text-layer pages: the layer's positioned words and the rules the PDF draws.
 * Images: the ruling lines found on the page are painted out, the page is read once (so rules
 * neither hide nor garble cell text), and cells that reading left empty are read from their own
 * crop. Ruled grids come first (crossing rules), then tables framed by horizontal rules, then
 * borderless tables from word alignment.
 */
export async function extractPageTables(
  models: R2Bucket,
  page: GrayImage,
  path: PagePath,
  textLayer: PageText | null,
  languages: string[],
): Promise<PageTablesAndText> {
  if (textLayer) {
    const tables = textLayerTables(textLayer, page.width, page.height);
    const languages_ = textLayer.languages.length ? textLayer.languages : languages;
    return { tables: { width: page.width, height: page.height, languages: languages_, path, tables }, text: textLayer };
  }
  const rules = pageRules(page);
  const clean = rules.length ? { ...eraseRules(page, rules), ...(page.dpi ? { dpi: page.dpi } : {}) } : page;
  const text: PageText = { ...(await recognizeWith(models, ocrRasterFromGray(clean), languages)), path };
  const found = tablesFromWords(pageWords(text), rules, ruleTolerance(page.width, page.height));
  const tables: PageTable[] = [];
  const reads: CropRead[] = [];
  // Grids read cell by cell: their cells' readings replace the page reading inside them.
  const replaced: Box[] = [];
  for (const { grid, cells } of found.grids) {
    const read = await readRuledCells(models, clean, grid, cells, languages);
    tables.push(ruledTable(grid, read.cells));
    reads.push(...read.reads);
    if (cells.length <= CELL_BY_CELL) replaced.push(grid.box);
  }
  for (const aligned of found.aligned) {
    const filled = await fillAlignedGaps(models, clean, aligned, languages);
    tables.push(filled.table);
    reads.push(...filled.reads);
  }
  tables.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const read = withCellReads(text, replaced, reads);
  return {
    tables: { width: page.width, height: page.height, languages: text.languages.length ? text.languages : languages, path, tables },
    text: read,
  };
}
