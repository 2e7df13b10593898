import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";

/** A cell to draw: its text lines (several for a multi-line cell) and spans. */
export interface DrawnCell {
  row: number;
  col: number;
  lines: string[];
  rowSpan?: number;
  colSpan?: number;
}

/**
 * A table drawn on a born-digital page: `ruled` (every cell boxed), `framed` (a rule under the
 * header and one under the last row, the common report style), `columns` (boxed, its columns ruled
 * top to bottom, no rule between rows; `cellByCell` draws the column rules row by row, as word
 * processors export them) or `none` (borderless).
 */
export interface DrawnTable {
  style: "ruled" | "framed" | "columns" | "none";
  /** Top-left corner in points from the page's top-left. */
  x: number;
  y: number;
  colWidths: number[];
  /** Lines of text each row has room for (1 by default). */
  rowLines?: number[];
  /** Space above and below each row's text (points; 5 by default, 0 sets rows as lines of running text). */
  pad?: number;
  /** `columns` style: each column rule drawn as one piece a row. */
  cellByCell?: boolean;
  /** Further rules (any style): across the top of `row` (its bottom edge when `row` is the row count), from column `from` to column `to` (exclusive; the whole width by default). */
  rules?: { row: number; from?: number; to?: number }[];
  cells: DrawnCell[];
}

const SIZE = 10;
const LEADING = 13;
const PAD = 5;
const PAGE_H = 842;

function rowHeights(t: DrawnTable): number[] {
  const rows = Math.max(...t.cells.map((c) => c.row + (c.rowSpan ?? 1)));
  return Array.from({ length: rows }, (_, r) => (t.rowLines?.[r] ?? 1) * LEADING + 2 * (t.pad ?? PAD));
}

function drawTable(page: PDFPage, font: PDFFont, t: DrawnTable) {
  const heights = rowHeights(t);
  const xs = t.colWidths.reduce((acc, w) => [...acc, acc[acc.length - 1]! + w], [t.x]);
  const ys = heights.reduce((acc, h) => [...acc, acc[acc.length - 1]! + h], [t.y]);
  const line = (x0: number, y0: number, x1: number, y1: number) =>
    page.drawLine({ start: { x: x0, y: PAGE_H - y0 }, end: { x: x1, y: PAGE_H - y1 }, thickness: 0.8 });
  for (const c of t.cells) {
    const x0 = xs[c.col]!;
    const x1 = xs[c.col + (c.colSpan ?? 1)]!;
    const y0 = ys[c.row]!;
    const y1 = ys[c.row + (c.rowSpan ?? 1)]!;
    const pad = t.pad ?? PAD;
    c.lines.forEach((text, i) => page.drawText(text, { x: x0 + PAD, y: PAGE_H - (y0 + pad + (i + 1) * LEADING - 3), size: SIZE, font }));
    if (t.style === "ruled") {
      line(x0, y0, x1, y0);
      line(x0, y1, x1, y1);
      line(x0, y0, x0, y1);
      line(x1, y0, x1, y1);
    }
  }
  if (t.style === "columns") {
    const pieces = t.cellByCell ? ys : [ys[0]!, ys[ys.length - 1]!];
    for (let r = 0; r + 1 < pieces.length; r++) for (const x of xs) line(x, pieces[r]!, x, pieces[r + 1]!);
    line(t.x, ys[0]!, xs[xs.length - 1]!, ys[0]!);
    line(t.x, ys[ys.length - 1]!, xs[xs.length - 1]!, ys[ys.length - 1]!);
  }
  for (const r of t.rules ?? []) line(xs[r.from ?? 0]!, ys[r.row]!, xs[r.to ?? t.colWidths.length]!, ys[r.row]!);
  if (t.style === "framed") {
    const right = xs[xs.length - 1]!;
    line(t.x, ys[1]!, right, ys[1]!);
    line(t.x, ys[ys.length - 1]!, right, ys[ys.length - 1]!);
  }
}

/** A one-page A4 PDF with a text layer: paragraphs (each a list of lines at a top offset) and tables. */
export async function tablePdf(content: { tables?: DrawnTable[]; paragraphs?: { y: number; lines: string[] }[] }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, PAGE_H]);
  for (const p of content.paragraphs ?? [])
    p.lines.forEach((text, i) => page.drawText(text, { x: 60, y: PAGE_H - (p.y + (i + 1) * LEADING), size: SIZE, font }));
  for (const t of content.tables ?? []) drawTable(page, font, t);
  return doc.save();
}

/** Cells of a grid of single-line texts (row-major, from row `first`), for tables without spans. */
export function gridCells(rows: string[][], first = 0): DrawnCell[] {
  return rows.flatMap((cells, r) => cells.map((text, col) => ({ row: first + r, col, lines: [text] })).filter((c) => c.lines[0] !== ""));
}
