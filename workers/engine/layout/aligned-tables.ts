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

/** Column bounds of a block of lines: gutters are x ranges that no segment of the lines with the most segments covers. */
function columnBounds(lines: Line[], lineH: number): number[] {
  const full = Math.max(...lines.map((r) => r.segments.length));
  const defining = lines.filter((r) => r.segments.length >= Math.max(2, full - 1));
  const x0 = Math.min(...lines.map((r) => r.box.x));
  const x1 = Math.max(...lines.map((r) => r.box.x + r.box.w));
  const covered = new Uint8Array(Math.ceil(x1 - x0) + 1);
  for (const r of defining) for (const s of r.segments) covered.fill(1, Math.floor(s.box.x - x0), Math.ceil(s.box.x + s.box.w - x0));
  const bounds: number[] = [x0];
  for (let x = 0; x < covered.length;) {
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
  return bounds;
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
 * in the header band above the first inner rule: multi-line cells. A line holding a spanning cell
 * stays a row of its own (a group header above the columns it spans).
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
      if (merge && last && spans(bounds, l) === spans(bounds, last[0]!)) last.push(l);
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

/**
 * A table from a block of lines, or null when the block reads as text: fewer than two columns or
 * rows, two columns filled line after line (prose in two columns), cells holding sentences, or a
 * grid mostly empty (labels of a chart).
 */
function tableOf(lines: Line[], lineH: number, cuts: number[]): AlignedTable | null {
  const bounds = columnBounds(lines, lineH);
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
      // Rules far apart with running text between them frame no table.
      if (between.length && between.every((l) => l.segments.length < 2)) break;
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
