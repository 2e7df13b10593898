import type { Box, PageTable, TableCell, WordText } from "../../shared/engine-contract";
import { joinWords } from "../ocr/page-text";
import { unionBox } from "../ocr/group-lines";
import { splitRules } from "./ruled-tables";

interface Segment {
  box: Box;
  words: WordText[];
}

interface Line {
  box: Box;
  words: WordText[];
  /** Runs of words separated by wide gaps: the line's cells. */
  segments: Segment[];
}

/** A table found from word alignment, with its column bounds and row bands (so empty-looking cells can be re-read). */
export interface AlignedTable {
  table: PageTable;
  bounds: number[];
  rows: Box[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : 0;
}

const centreIn = (b: Box, w: Box) =>
  w.x + w.w / 2 >= b.x && w.x + w.w / 2 <= b.x + b.w && w.y + w.h / 2 >= b.y && w.y + w.h / 2 <= b.y + b.h;
const boxOf = (boxes: Box[]) => boxes.slice(1).reduce((u, b) => unionBox(u, b), boxes[0]!);

/** Words into lines by vertical centre, each line split into segments at gaps wider than 0.9 text heights (a word space is about 0.3). */
function linesOf(words: WordText[]): Line[] {
  const sorted = [...words].sort((a, b) => a.box.y + a.box.h / 2 - (b.box.y + b.box.h / 2));
  const lines: Line[] = [];
  for (const w of sorted) {
    const cy = w.box.y + w.box.h / 2;
    const line = lines.find((r) => Math.abs(r.box.y + r.box.h / 2 - cy) <= Math.max(r.box.h, w.box.h) * 0.5);
    if (line) {
      line.words.push(w);
      line.box = unionBox(line.box, w.box);
    } else lines.push({ box: { ...w.box }, words: [w], segments: [] });
  }
  lines.sort((a, b) => a.box.y - b.box.y);
  for (const r of lines) {
    r.words.sort((a, b) => a.box.x - b.box.x);
    const h = median(r.words.map((w) => w.box.h)) || 1;
    for (const w of r.words) {
      const last = r.segments[r.segments.length - 1];
      if (last && w.box.x - (last.box.x + last.box.w) <= 0.9 * h) {
        last.words.push(w);
        last.box = unionBox(last.box, w.box);
      } else r.segments.push({ box: { ...w.box }, words: [w] });
    }
  }
  return lines;
}

/** True when words form two lines or more that each split into columns: a table of their own. */
export function holdsColumns(words: WordText[]): boolean {
  return linesOf(words).filter((l) => l.segments.length >= 2).length >= 2;
}

/** Uncovered x ranges [from, to) of `boxes` between x0 and x1 at least `min` wide (none at either end). */
function gutters(boxes: Box[], x0: number, x1: number, min: number): [number, number][] {
  const covered = new Uint8Array(Math.ceil(x1 - x0) + 1);
  for (const b of boxes) covered.fill(1, Math.floor(b.x - x0), Math.ceil(b.x + b.w - x0));
  const out: [number, number][] = [];
  for (let x = 0; x < covered.length;) {
    if (covered[x]) {
      x++;
      continue;
    }
    let e = x;
    while (e < covered.length && !covered[e]) e++;
    if (e - x >= min && x > 0 && e < covered.length) out.push([x0 + x, x0 + e]);
    x = e;
  }
  return out;
}

/** Word gaps at least this many text heights wide (a word space is about 0.3) may part columns that lines align. */
const ALIGNED_GAP = 0.45;

/**
 * Column bounds of a block of lines: gutters are x ranges that no segment of the lines with the
 * most segments covers. Columns set closer than a segment gap (figures a few spaces apart) part
 * where no word of those lines lies and at least three of them have figures on both sides of the
 * gap: alignment, not width, separates them. `aligned` holds those bounds.
 */
function columnBounds(lines: Line[], lineH: number): { bounds: number[]; aligned: number[] } {
  const full = Math.max(...lines.map((r) => r.segments.length));
  const defining = lines.filter((r) => r.segments.length >= Math.max(2, full - 1));
  const x0 = Math.min(...lines.map((r) => r.box.x));
  const x1 = Math.max(...lines.map((r) => r.box.x + r.box.w));
  const wide = gutters(
    defining.flatMap((r) => r.segments.map((s) => s.box)),
    x0,
    x1,
    0.8 * lineH,
  ).map(([a, b]) => (a + b) / 2);
  const aligned = gutters(
    defining.flatMap((r) => r.words.map((w) => w.box)),
    x0,
    x1,
    ALIGNED_GAP * lineH,
  ).filter(([a, b]) => {
    if (wide.some((x) => x >= a && x <= b)) return false;
    const figures = defining.filter((r) => {
      const before = r.words.filter((w) => w.box.x + w.box.w <= a).at(-1);
      const after = r.words.find((w) => w.box.x >= b);
      const inside = r.segments.some((s) => s.box.x < a && s.box.x + s.box.w > b);
      return inside && before && after && /\d/.test(before.text) && /\d/.test(after.text);
    });
    return figures.length >= 3;
  });
  const cuts = aligned.map(([a, b]) => (a + b) / 2);
  return { bounds: [x0, ...[...wide, ...cuts].sort((a, b) => a - b), x1], aligned: cuts };
}

/** A line with its segments cut where an aligned column bound falls between two of their words. */
function cutSegments(line: Line, at: number[]): Line {
  if (!at.length) return line;
  const segments = line.segments.flatMap((s) => {
    const parts: Segment[] = [];
    for (const w of s.words) {
      const last = parts[parts.length - 1];
      const prev = last?.words[last.words.length - 1];
      if (last && prev && !at.some((x) => x > prev.box.x + prev.box.w && x < w.box.x)) {
        last.words.push(w);
        last.box = unionBox(last.box, w.box);
      } else parts.push({ box: { ...w.box }, words: [w] });
    }
    return parts;
  });
  return { ...line, segments };
}

/** Grid positions a segment covers: the columns its left and right ends fall in. */
function columnsOf(bounds: number[], s: Segment): [number, number] {
  const cols = bounds.length - 1;
  const colOf = (x: number) => {
    for (let k = 1; k < bounds.length; k++) if (x < bounds[k]!) return k - 1;
    return cols - 1;
  };
  const c0 = colOf(s.box.x + 1);
  return [c0, Math.max(c0, colOf(s.box.x + s.box.w - 1))];
}

const spans = (bounds: number[], l: Line) => l.segments.some((s) => columnsOf(bounds, s)[1] > columnsOf(bounds, s)[0]);

/**
 * Rows of a table from its lines. Where rules run across the table (`cuts`, y positions), the lines
 * between two rules are one row when the rules separate rows (several bands of a few lines each) and
 * in the header band above the first inner rule: multi-line cells, whose later lines fill fewer
 * columns than the first. A line holding a spanning cell stays a row of its own (a group header
 * above the columns it spans).
 */
function rowsOf(lines: Line[], bounds: number[], cuts: number[]): Line[][] {
  const bands: Line[][] = [];
  for (const l of lines) {
    const band = cuts.filter((y) => y < l.box.y + l.box.h / 2).length;
    (bands[band] ??= []).push(l);
  }
  const filled = bands.filter((b) => b?.length);
  const ruledRows = filled.length >= 3 && filled.every((b) => b.length <= 4);
  const rows: Line[][] = [];
  filled.forEach((band, i) => {
    const merge = ruledRows || (i === 0 && filled.length >= 2 && band.length <= 4);
    const local: Line[][] = [];
    for (const l of band) {
      const last = local[local.length - 1];
      // A cell's next line fills fewer columns than the row's first line; a line as full as the
      // row, or fuller (the row under a group's label), is a row of its own.
      const continues = last && l.segments.length < Math.max(...last.map((x) => x.segments.length));
      if (merge && continues && spans(bounds, l) === spans(bounds, last[0]!)) last.push(l);
      else local.push([l]);
    }
    rows.push(...local);
  });
  return rows;
}

/** Cells of a table from its rows: each segment at the columns it covers; segments meeting in one column join. */
function cellsOf(rows: Line[][], bounds: number[]): TableCell[] {
  const cells: TableCell[] = [];
  rows.forEach((lines, row) => {
    for (const s of lines.flatMap((l) => l.segments)) {
      const [c0, c1] = columnsOf(bounds, s);
      const there = cells.find((c) => c.row === row && c.col <= c1 && c0 < c.col + c.colSpan);
      if (there) {
        there.text = joinWords([there.text, ...s.words.map((w) => w.text)]);
        there.box = unionBox(there.box, s.box);
        continue;
      }
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
  return cells.sort((a, b) => a.row - b.row || a.col - b.col);
}

/** A list item's marker: a bullet or dash, or an enumerator such as "3.", "b)", "(iv)". */
const MARKER = /^(?:[•●▪■□◦○·‣⁃∙*+>\-–—]|\(?(?:\d{1,3}|[a-z]|[ivxlc]{1,6})[.)])$/iu;

/**
 * Markers in a column and text beside them: a list set with a tab after each marker, or such a
 * list set in several columns (every other column all markers).
 */
function isList(cells: TableCell[], cols: number): boolean {
  const markers = (col: number) => cells.filter((c) => c.col === col).every((c) => MARKER.test(c.text));
  if (cols % 2 !== 0) return false;
  for (let col = 0; col < cols; col += 2) if (!markers(col)) return false;
  return true;
}

/** The cells of each row, left to right. */
function rowsOfCells(cells: TableCell[], rows: number): TableCell[][] {
  const out = Array.from({ length: rows }, () => [] as TableCell[]);
  for (const c of cells) out[c.row]!.push(c);
  return out.map((r) => r.sort((a, b) => a.col - b.col));
}

/**
 * A table of contents: every row a heading (words, often numbered) and, last, a page number that
 * never decreases down the rows. Headings are titles of several words or numbered sections, so
 * that a ranking (names beside ascending ranks) stays a table.
 */
function isContents(cells: TableCell[], rows: number, cols: number): boolean {
  if (rows < 3) return false;
  const lines = rowsOfCells(cells, rows);
  if (lines.some((r) => r.length < 2 || r[r.length - 1]!.col + r[r.length - 1]!.colSpan !== cols)) return false;
  const pages = lines.map((r) => r[r.length - 1]!.text.trim());
  if (!pages.every((p) => /^(?:\d{1,4}|[ivxlc]{1,6})$/i.test(p))) return false;
  const numbers = pages.filter((p) => /^\d+$/.test(p)).map(Number);
  if (numbers.some((n, i) => i > 0 && n < numbers[i - 1]!)) return false;
  const headings = lines.map((r) =>
    r
      .slice(0, -1)
      .map((c) => c.text)
      .join(" "),
  );
  if (!headings.every((h) => /\p{L}/u.test(h))) return false;
  const numbered = headings.filter((h) => /^(?:\d+(?:\.\d+)*\.?|[A-Z]\.|chapter|section|annex|appendix|part)\s/i.test(h)).length;
  const words = headings.reduce((n, h) => n + h.split(/\s+/).length, 0) / headings.length;
  return numbered >= headings.length / 2 || words >= 3;
}

/**
 * Running text set in columns: in some column, line after line is full of words and goes on from
 * the line above (it starts in lower case), and the other columns are filled on those lines too —
 * the lines of a paragraph, not a table's wrapped cell (which leaves the other columns empty).
 */
function flowsAsText(cells: TableCell[], rows: number, cols: number): boolean {
  const lines = rowsOfCells(cells, rows);
  const full = (r: TableCell[]) => r.reduce((n, c) => n + c.colSpan, 0) >= cols;
  for (let col = 0; col < cols; col++) {
    let flowing = 0;
    for (let i = 1; i < rows; i++) {
      const above = lines[i - 1]!.find((c) => c.col === col);
      const here = lines[i]!.find((c) => c.col === col);
      if (!above || !here || !full(lines[i]!) || above.text.split(/\s+/).length < 3) continue;
      if (/^\p{Ll}/u.test(here.text)) flowing++;
    }
    if (flowing >= Math.max(2, 0.4 * (rows - 1))) return true;
  }
  return false;
}

/**
 * An index entry: a term and its page numbers ("Homotopie, 44", "Knoten, 17–21, 40"), or a
 * cross-reference. Page numbers have three digits at most, so that a date ("March 1, 2021") is no
 * index entry.
 */
const INDEX_ENTRY = /(?:\p{L}.*,\s*\d{1,3}(?:[–-]\d{1,3})?(?:,\s*\d{1,3}(?:[–-]\d{1,3})?)*|\b(?:see|siehe|voir)\b.*)$/u;

/** An index set in columns: most cells are index entries. */
const isIndex = (cells: TableCell[]) => cells.filter((c) => INDEX_ENTRY.test(c.text.trim())).length >= 0.6 * cells.length;

/**
 * Mathematical notation: relations, operators, arrows and the pieces of large brackets and braces a
 * typeset formula's text layer holds (the private-use glyphs of math fonts). Not the signs a table
 * of figures uses: minus, ≤, ≥, ≈, and the plain arrows of a trend.
 */
const MATH =
  /[=\u219a-\u21ff\u2200-\u2211\u2213-\u2247\u2249-\u2263\u2266-\u22ff\u2308-\u230b\u239b-\u23b3\u27c0-\u27ef\u2980-\u2aff\ue000-\uf8ff\ufe35-\ufe44]/u;

/** A cell that says something: a word of two letters or more, or a figure. */
export const SAYS = /\p{L}{2}|\d/u;

/**
 * Lines that are not rows of a table: most rows hold a single cell (running text, figure captions
 * and labels between a few aligned lines), or most rows hold a formula or nothing that says
 * anything (a typeset formula's pieces — fractions, matrices, brackets — line up like columns).
 */
function notRows(cells: TableCell[], rows: number): boolean {
  const lines = rowsOfCells(cells, rows);
  if (lines.filter((r) => r.length === 1).length > rows / 2) return true;
  const rowsOfText = lines.filter((r) => r.some((c) => SAYS.test(c.text)) && !r.some((c) => MATH.test(c.text)));
  return 2 * rowsOfText.length <= rows;
}

/**
 * A table from a block of lines, or null when the block reads as text: fewer than two columns or
 * rows, two columns filled line after line (prose in two columns), cells holding sentences, a
 * grid mostly empty (labels of a chart), a list, a table of contents or running text in columns.
 */
function tableOf(block: Line[], lineH: number, cuts: number[]): AlignedTable | null {
  const { bounds, aligned } = columnBounds(block, lineH);
  const lines = block.map((l) => cutSegments(l, aligned));
  const cols = bounds.length - 1;
  if (cols < 2) return null;
  if (cols === 2) {
    const fill = lines.flatMap((r) => r.segments.map((s) => s.box.w / Math.max(1, bounds[1]! - bounds[0]!)));
    if (median(fill) > 0.75) return null;
  }
  const rows = rowsOf(lines, bounds, cuts);
  if (rows.length < 2) return null;
  const cells = cellsOf(rows, bounds);
  // Labels scattered over a chart line up in a few places only; a table fills most of its grid.
  if (cells.reduce((n, c) => n + c.colSpan, 0) < 0.4 * rows.length * cols) return null;
  const words = cells.map((c) => c.text.split(/\s+/).length);
  if (words.reduce((a, b) => a + b, 0) / cells.length > 6) return null;
  if (isList(cells, cols) || isContents(cells, rows.length, cols) || isIndex(cells)) return null;
  if (flowsAsText(cells, rows.length, cols) || notRows(cells, rows.length)) return null;
  const box = boxOf(lines.map((l) => l.box));
  return { table: { box, rows: rows.length, cols, kind: "aligned", cells }, bounds, rows: rows.map((ls) => boxOf(ls.map((l) => l.box))) };
}

/**
 * Tables bounded by horizontal rules that are not part of a grid (the common report style: a rule
 * under the header and one under the last row, or booktabs' top, middle and bottom rules). Rules
 * of about the same extent, one under the other, frame a region; header lines just above the first
 * rule belong to it when they split into columns.
 */
function ruleFramed(lines: Line[], rules: Box[], lineH: number): { lines: Line[]; cuts: number[] }[] {
  const long = splitRules(rules)
    .h.filter((r) => r.a1 - r.a0 >= 8 * lineH)
    .sort((a, b) => a.at - b.at);
  const used = new Set<number>();
  const out: { lines: Line[]; cuts: number[] }[] = [];
  for (let i = 0; i < long.length; i++) {
    if (used.has(i)) continue;
    const stack = [long[i]!];
    for (let j = i + 1; j < long.length; j++) {
      const top = stack[stack.length - 1]!;
      const r = long[j]!;
      const overlap = Math.min(r.a1, top.a1) - Math.max(r.a0, top.a0);
      if (overlap < 0.8 * Math.max(r.a1 - r.a0, top.a1 - top.a0)) continue;
      const between = lines.filter((l) => l.box.y > top.at && l.box.y + l.box.h < r.at);
      // Rules far apart with running text between them frame no table; a short line alone between
      // two rules (a group's label row, a spanning header) is a row of the table they frame.
      const extent = Math.max(r.a1 - r.a0, top.a1 - top.a0);
      if (between.length && between.every((l) => l.segments.length < 2) && between.some((l) => l.box.w > 0.5 * extent)) break;
      stack.push(r);
      used.add(j);
    }
    if (stack.length < 2) continue;
    const x0 = Math.min(...stack.map((r) => r.a0)) - lineH;
    const x1 = Math.max(...stack.map((r) => r.a1)) + lineH;
    const top = stack[0]!.at;
    const bottom = stack[stack.length - 1]!.at;
    const within = (l: Line) => l.box.x < x1 && l.box.x + l.box.w > x0;
    const inside = lines.filter((l) => within(l) && l.box.y + l.box.h / 2 > top && l.box.y + l.box.h / 2 < bottom);
    if (inside.length === 0) continue;
    // Header lines: up to three lines right above the first rule, the topmost splitting into columns.
    const above: Line[] = [];
    let edge = top;
    for (const l of [...lines].reverse()) {
      if (l.box.y + l.box.h / 2 >= top || !within(l)) continue;
      if (edge - (l.box.y + l.box.h) > 1.2 * lineH || above.length >= 3) break;
      above.unshift(l);
      edge = l.box.y;
    }
    while (above.length && above[0]!.segments.length < 2) above.shift();
    out.push({ lines: [...above, ...inside], cuts: stack.slice(above.length ? 0 : 1, -1).map((r) => r.at) });
  }
  return out;
}

/**
 * Tables from word alignment: first regions framed by horizontal rules, then runs of lines that
 * each split into two or more segments sharing vertical gutters (a line of one narrow segment may
 * sit between them: a wrapped cell). Gutters come from the lines with the most segments; a segment
 * that crosses a gutter spans those columns. `exclude` holds ruled grids' boxes; `rules` the page's
 * ruling lines.
 */
export function findAlignedTables(words: WordText[], exclude: Box[], rules: Box[]): AlignedTable[] {
  let lines = linesOf(words.filter((w) => !exclude.some((b) => centreIn(b, w.box))));
  const lineH = median(lines.map((r) => r.box.h)) || 1;
  const tables: AlignedTable[] = [];
  for (const region of ruleFramed(
    lines,
    rules.filter((r) => !exclude.some((b) => centreIn(b, r))),
    lineH,
  )) {
    // Regions of rules that overlap share lines: a line goes to the first table that takes it.
    const free = region.lines.filter((l) => lines.includes(l));
    const t = free.length ? tableOf(free, lineH, region.cuts) : null;
    if (!t) continue;
    tables.push(t);
    lines = lines.filter((l) => !free.includes(l));
  }
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.segments.length < 2) {
      i++;
      continue;
    }
    const run = [lines[i]!];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.box.y - (run[run.length - 1]!.box.y + run[run.length - 1]!.box.h) >= 2.5 * lineH) break;
      const width = boxOf(run.map((r) => r.box)).w;
      // A wrapped cell's next line: one narrow segment of words (a lone number is an axis tick of a chart).
      const wrapped =
        l.segments.length === 1 &&
        l.box.w < 0.4 * width &&
        /\p{L}/u.test(l.segments[0]!.words.map((w) => w.text).join("")) &&
        (lines[j + 1]?.segments.length ?? 0) >= 2;
      if (l.segments.length < 2 && !wrapped) break;
      run.push(l);
    }
    i = j;
    if (run.length < 3) continue;
    const t = tableOf(run, lineH, []);
    if (t) tables.push(t);
  }
  return tables.sort((a, b) => a.table.box.y - b.table.box.y || a.table.box.x - b.table.box.x);
}
