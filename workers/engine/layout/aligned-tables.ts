import type { Box, PageTable, TableCell, WordText } from "../contract";
import { joinWords } from "../ocr/page-text";
import { unionBox } from "./group-lines";

interface Row {
  box: Box;
  words: WordText[];
  /** Runs of words separated by wide gaps: the row's cells. */
  segments: { box: Box; words: WordText[] }[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : 0;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Words into rows by vertical centre, each row split into segments at gaps wider than ~1.2 text heights. */
function rowsOf(words: WordText[]): Row[] {
  const sorted = [...words].sort((a, b) => a.box.y + a.box.h / 2 - (b.box.y + b.box.h / 2));
  const rows: Row[] = [];
  for (const w of sorted) {
    const cy = w.box.y + w.box.h / 2;
    const row = rows.find((r) => Math.abs(r.box.y + r.box.h / 2 - cy) <= Math.max(r.box.h, w.box.h) * 0.5);
    if (row) {
      row.words.push(w);
      row.box = unionBox(row.box, w.box);
    } else rows.push({ box: { ...w.box }, words: [w], segments: [] });
  }
  rows.sort((a, b) => a.box.y - b.box.y);
  for (const r of rows) {
    r.words.sort((a, b) => a.box.x - b.box.x);
    const h = median(r.words.map((w) => w.box.h)) || 1;
    for (const w of r.words) {
      const last = r.segments[r.segments.length - 1];
      if (last && w.box.x - (last.box.x + last.box.w) <= 1.2 * h) {
        last.words.push(w);
        last.box = unionBox(last.box, w.box);
      } else r.segments.push({ box: { ...w.box }, words: [w] });
    }
  }
  return rows;
}

/**
 * Borderless tables from word alignment: runs of at least three consecutive rows that each split
 * into two or more segments, whose segments share vertical gutters. Gutters come from the rows with
 * the most segments; a segment of another row that crosses a gutter spans those columns. Two-column
 * prose (long segments filling both columns) is not a table. `exclude` holds ruled tables' boxes.
 */
export function findAlignedTables(words: WordText[], exclude: Box[]): AlignedTable[] {
  const rows = rowsOf(words.filter((w) => !exclude.some((b) => overlaps(b, w.box))));
  const lineH = median(rows.map((r) => r.box.h)) || 1;
  const tables: AlignedTable[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i]!.segments.length < 2) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < rows.length && rows[j]!.segments.length >= 2 && rows[j]!.box.y - (rows[j - 1]!.box.y + rows[j - 1]!.box.h) < 2.5 * lineH) j++;
    const run = rows.slice(i, j);
    i = j;
    if (run.length < 3) continue;
    const table = tableOf(run, lineH);
    if (table) tables.push(table);
  }
  return tables;
}

/** A borderless table with its column bounds and row bands, so empty-looking cells can be re-read. */
export interface AlignedTable {
  table: PageTable;
  bounds: number[];
  rows: Box[];
}

function tableOf(run: Row[], lineH: number): AlignedTable | null {
  const full = Math.max(...run.map((r) => r.segments.length));
  const defining = run.filter((r) => r.segments.length >= Math.max(2, full - 1));
  const x0 = Math.min(...run.map((r) => r.box.x));
  const x1 = Math.max(...run.map((r) => r.box.x + r.box.w));
  // Gutters: x ranges no segment of the defining rows covers.
  const covered = new Uint8Array(Math.ceil(x1 - x0) + 1);
  for (const r of defining) for (const s of r.segments) covered.fill(1, Math.floor(s.box.x - x0), Math.ceil(s.box.x + s.box.w - x0));
  const bounds: number[] = [x0];
  for (let x = 0; x < covered.length; ) {
    if (covered[x]) {
      x++;
      continue;
    }
    let e = x;
    while (e < covered.length && !covered[e]) e++;
    if (e - x >= 0.8 * lineH && x > 0 && e < covered.length) bounds.push(x0 + (x + e) / 2);
    x = e;
  }
  bounds.push(x1);
  const cols = bounds.length - 1;
  if (cols < 2) return null;
  // Prose in two columns: segments fill their columns line after line.
  if (cols === 2) {
    const fill = run.flatMap((r) => r.segments.map((s) => s.box.w / Math.max(1, bounds[1]! - bounds[0]!)));
    if (median(fill) > 0.75) return null;
  }
  const colOf = (x: number) => {
    for (let k = 1; k < bounds.length; k++) if (x < bounds[k]!) return k - 1;
    return cols - 1;
  };
  const cells: TableCell[] = [];
  run.forEach((r, row) => {
    const taken = new Set<number>();
    for (const s of r.segments) {
      const c0 = colOf(s.box.x + 1);
      const c1 = Math.max(c0, colOf(s.box.x + s.box.w - 1));
      if (taken.has(c0)) {
        // Two segments in one column: join them into the cell already there.
        const cell = cells.find((c) => c.row === row && c.col <= c0 && c0 < c.col + c.colSpan)!;
        cell.text = joinWords([cell.text, ...s.words.map((w) => w.text)]);
        cell.box = unionBox(cell.box, s.box);
        continue;
      }
      for (let c = c0; c <= c1; c++) taken.add(c);
      cells.push({
        row,
        col: c0,
        rowSpan: 1,
        colSpan: c1 - c0 + 1,
        box: s.box,
        text: joinWords(s.words.map((w) => w.text)),
        confidence: Math.round((s.words.reduce((n, w) => n + w.confidence, 0) / s.words.length) * 1000) / 1000,
      });
    }
  });
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  const box = run.slice(1).reduce((u, r) => unionBox(u, r.box), run[0]!.box);
  return { table: { box, rows: run.length, cols, kind: "aligned", cells }, bounds, rows: run.map((r) => r.box) };
}
