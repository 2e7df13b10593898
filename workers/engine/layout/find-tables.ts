import type { Box, PageTable, PageText, TableCell, WordText } from "../../shared/engine-contract";
import { joinWords } from "../ocr/page-text";
import { findAlignedTables, holdsColumns, SAYS, type AlignedTable } from "./aligned-tables";
import { splitOpenRows } from "./open-rows";
import { ruledGrids, type RuledGrid } from "./ruled-tables";

/** True when the centre of `w` lies in `b`. */
export const inside = (b: Box, w: { box: Box }) => {
  const cx = w.box.x + w.box.w / 2;
  const cy = w.box.y + w.box.h / 2;
  return cx >= b.x && cx <= b.x + b.w && cy >= b.y && cy <= b.y + b.h;
};

/** Cells of a ruled grid filled from the words whose centre they hold, in reading order. */
function fillCells(grid: RuledGrid, words: WordText[]): TableCell[] {
  return grid.cells.map((c) => {
    const ws = words.filter((w) => inside(c.box, w)).sort((a, b) => a.box.y + a.box.h / 2 - (b.box.y + b.box.h / 2));
    // Lines of the cell top to bottom, words left to right within each.
    const lines: WordText[][] = [];
    for (const w of ws) {
      const line = lines.find(
        (l) => Math.abs(l[0]!.box.y + l[0]!.box.h / 2 - (w.box.y + w.box.h / 2)) <= 0.5 * Math.max(l[0]!.box.h, w.box.h),
      );
      if (line) line.push(w);
      else lines.push([w]);
    }
    const text = lines.map((l) => joinWords(l.sort((a, b) => a.box.x - b.box.x).map((w) => w.text))).join(" ");
    const confidence = ws.length ? Math.round((ws.reduce((n, w) => n + w.confidence, 0) / ws.length) * 1000) / 1000 : 1;
    return { ...c, text, confidence };
  });
}

/**
 * A grid is a table when it has two columns or more, words in at least two cells covering 30 %
 * of it and in most of its rows a word or a figure (a chart's axes and gridlines frame mostly
 * empty space; a diagram's lattice holds marks), and neither do most of its rows run across it in
 * one cell nor does any cell hold columns of its own (rules that frame a table's rows or the whole
 * table without dividing its columns: alignment reads it then).
 */
function isTable(grid: RuledGrid, cells: TableCell[], words: WordText[]): boolean {
  const filled = cells.filter((c) => c.text);
  const cols = grid.xs.length - 1;
  const rows = grid.ys.length - 1;
  if (cols < 2 || filled.length < 2) return false;
  if (filled.reduce((n, c) => n + c.rowSpan * c.colSpan, 0) < 0.3 * cols * rows) return false;
  if (2 * filled.filter((c) => c.colSpan === cols).length > rows) return false;
  if (2 * new Set(filled.filter((c) => SAYS.test(c.text)).map((c) => c.row)).size <= rows) return false;
  return !cells.some((c) => (c.rowSpan > 1 || c.colSpan > 1) && holdsColumns(words.filter((w) => inside(c.box, w))));
}

const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

/** A ruled grid this much covered by a figure is the figure's gridlines (a chart's plot area). */
const FIGURE_SHARE = 0.3;
/** Labels of a figure (axis ticks and titles, legends) sit within this many text heights of its drawing. */
const FIGURE_LABELS = 2;

/**
 * Tables found from words and ruling lines, before any cell is read again. `figures` (text-layer
 * pages) are areas drawn as charts or diagrams: grids they mostly cover are their gridlines, and
 * the words on and around them are labels, not cells.
 */
export function tablesFromWords(
  words: WordText[],
  rules: Box[],
  tol: number,
  figures: Box[] = [],
): { grids: { grid: RuledGrid; cells: TableCell[] }[]; aligned: AlignedTable[] } {
  const heights = words.map((w) => w.box.h).sort((a, b) => a - b);
  const textH = heights[heights.length >> 1] ?? 0;
  const grids = ruledGrids(rules, tol, 0.6 * textH)
    .filter((grid) => !figures.some((f) => overlap(f, grid.box) >= FIGURE_SHARE * grid.box.w * grid.box.h))
    .map((grid) => splitOpenRows(grid, words))
    .map((grid) => ({ grid, cells: fillCells(grid, words) }))
    .filter((g) => isTable(g.grid, g.cells, words));
  const m = FIGURE_LABELS * textH;
  const labelled = figures.map((f) => ({ x: f.x - m, y: f.y - m, w: f.w + 2 * m, h: f.h + 2 * m }));
  return { grids, aligned: findAlignedTables(words, [...grids.map((g) => g.grid.box), ...labelled], rules) };
}

/** How far (page pixels) ruling lines of a page `width` x `height` may stop short of each other and still meet. */
export const ruleTolerance = (width: number, height: number) => Math.max(4, Math.round(Math.max(width, height) / 700));

/** Every word of a page. */
export function pageWords(page: PageText): WordText[] {
  return page.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
}

/** A ruled grid with its cells as a page table. */
export const ruledTable = (grid: RuledGrid, cells: TableCell[]): PageTable => ({
  box: grid.box,
  rows: grid.ys.length - 1,
  cols: grid.xs.length - 1,
  kind: "ruled",
  cells,
});

/**
 * Tables of a text-layer page `width` x `height`: the layer's positioned words and the rules and
 * figures the PDF draws give every table and cell (nothing is read again), top to bottom.
 */
export function textLayerTables(text: PageText, width: number, height: number): PageTable[] {
  const found = tablesFromWords(pageWords(text), text.rules ?? [], ruleTolerance(width, height), text.figures);
  return [...found.grids.map((g) => ruledTable(g.grid, g.cells)), ...found.aligned.map((a) => a.table)].sort(
    (a, b) => a.box.y - b.box.y || a.box.x - b.box.x,
  );
}
