import type { Box, TypesetOverflow } from "../../shared/engine-contract";
import { spanOver, type Shape } from "./balloon-shape";
import { advancePx, type Face } from "./fonts";

/** Characters that may be broken anywhere (scripts written without spaces between words). */
const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\u3000-\u303f\uff00-\uffef]/u;
/** Kinsoku: never at the start of a line (closing marks, small kana, prolonged sound). */
const NO_START = new Set([..."、。，．,.!?！？)]}）」』】〕〉》〙〗ー…‥・：；:;ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々〻"]);
/** Never at the end of a line (opening marks). */
const NO_END = new Set([..."([{（「『【〔〈《〘〖"]);

/** Line pitch and block height as multiples of the font size. */
export const LINE_GAP = 1.2;
const BLOCK_EXTRA = 1.16 - LINE_GAP;
/** Vertical text: one character per em, columns 1.25 em apart. */
const COLUMN_PITCH = 1.25;

interface Atom {
  text: string;
  /** Spaces after it (dropped at a line end). */
  space: string;
  hardBreak: boolean;
}

/** Splits text into unbreakable atoms: words for spaced scripts, characters (with kinsoku) for the others. */
export function atomsOf(text: string): Atom[] {
  const atoms: Atom[] = [];
  let cur: Atom | null = null;
  let lastSpaceless = false;
  for (const ch of text.replace(/\r\n?/g, "\n")) {
    if (ch === "\n") {
      if (cur) atoms.push(cur);
      atoms.push({ text: "", space: "", hardBreak: true });
      cur = null;
      continue;
    }
    if (/\s/u.test(ch) && ch !== "\u3000") {
      if (cur) cur.space += " ";
      continue;
    }
    const spaceless = SPACELESS.test(ch);
    const glue = cur && !cur.space && (NO_START.has(ch) || NO_END.has([...cur.text].pop() ?? ""));
    if (cur && (glue || (!spaceless && !lastSpaceless && !cur.space))) cur.text += ch;
    else {
      if (cur) atoms.push(cur);
      cur = { text: ch, space: "", hardBreak: false };
    }
    lastSpaceless = spaceless;
  }
  if (cur) atoms.push(cur);
  return atoms;
}

export function widthOf(chain: Face[], s: string, size: number): number {
  let w = 0;
  for (const ch of s) w += advancePx(chain, ch.codePointAt(0)!, size);
  return w;
}

export interface Layout {
  size: number;
  vertical: boolean;
  /** Horizontal: lines top to bottom; vertical: columns right to left, each top to bottom. */
  lines: { text: string; width: number }[];
  /** Horizontal text placed around background edges, or columns in a balloon's shape: each line's or column's top, from the box's top. */
  tops?: number[];
  /** Horizontal text set in a balloon's shape: each line's centre, from the box's left. */
  centres?: number[];
  fits: boolean;
}

/** Height of a line's glyphs (ascender to descender) as a multiple of the font size. */
const LINE_EXTENT = LINE_GAP + BLOCK_EXTRA;

/**
 * Line tops from `start`, one pitch apart, except that a line that would straddle a background
 * edge (a y from the box's top) starts just below it instead: no line is drawn across two backgrounds.
 */
function placeLines(count: number, size: number, start: number, edges: number[]): number[] {
  const tops: number[] = [];
  let y = start;
  for (let i = 0; i < count; i++) {
    const crossed = edges.filter((e) => e > y && e < y + size * LINE_EXTENT);
    if (crossed.length) y = Math.max(...crossed) + size * (LINE_GAP - 1);
    tops.push(y);
    y += size * LINE_GAP;
  }
  return tops;
}

/** Greedy line filling at one size (`room`: the width, or each line's by its index); an atom wider than its line is cut between characters. */
function breakLines(
  chain: Face[],
  atoms: Atom[],
  size: number,
  room: number | ((line: number) => number),
): { text: string; width: number }[] {
  const lines: { text: string; width: number }[] = [];
  let text = "",
    width = 0,
    pending = "";
  const limit = () => (typeof room === "number" ? room : room(lines.length));
  const flush = () => {
    lines.push({ text, width });
    text = "";
    width = 0;
    pending = "";
  };
  for (const a of atoms) {
    if (a.hardBreak) {
      flush();
      continue;
    }
    const aw = widthOf(chain, a.text, size);
    const sw = widthOf(chain, pending, size);
    if (text && width + sw + aw > limit()) flush();
    if (!text && aw > limit()) {
      for (const ch of a.text) {
        const cw = widthOf(chain, ch, size);
        if (text && width + cw > limit()) flush();
        text += ch;
        width += cw;
      }
    } else {
      text += (text ? pending : "") + a.text;
      width += (width ? sw : 0) + aw;
    }
    pending = a.space;
  }
  if (text || lines.length === 0) flush();
  return lines;
}

/** Vertical columns: characters top to bottom, kinsoku marks kept off column tops. */
function breakColumns(text: string, size: number, maxH: number | ((column: number) => number)): { text: string; width: number }[] {
  const perOf = (column: number) => Math.max(1, Math.floor((typeof maxH === "number" ? maxH : maxH(column)) / size));
  const cols: { text: string; width: number }[] = [];
  for (const para of text.replace(/\r\n?/g, "\n").split("\n")) {
    const chars = [...para.replace(/\s+/g, "")];
    let col: string[] = [];
    for (const ch of chars) {
      if (col.length >= perOf(cols.length)) {
        // A mark that may not start a column takes the column's last character with it.
        const carried = NO_START.has(ch) && col.length > 1 ? col.splice(-1) : [];
        if (!NO_START.has(ch) || carried.length) {
          cols.push({ text: col.join(""), width: col.length * size });
          col = carried;
        }
      }
      col.push(ch);
    }
    cols.push({ text: col.join(""), width: col.length * size });
  }
  return cols;
}

/** Places a block of lines may move to from the centre of a balloon's box, in half lines either way. */
const SHIFTS = [-1, 1, -2, 2, -3, 3, -4, 4];

/**
 * Lines in a balloon's shape, centred in the box: each line as wide as the rows it covers allow,
 * centred in them. The line count sets where the lines fall, which sets their widths: broken again
 * until the count holds (a few rounds; otherwise it does not fit at this size). Where the centred
 * lines do not fit (a line on rows the interior narrows to nothing, as a slanted balloon's rectangle
 * has at a corner), the block is moved up or down by half lines within the box.
 */
function shapedLines(chain: Face[], atoms: Atom[], box: Box, size: number, shape: Shape): Layout {
  /** The lines laid from `top` (box pixels), if there are `count` of them, and whether they fit there. */
  const from = (top: number, count: number) => {
    const spans = Array.from({ length: count }, (_, i) =>
      spanOver(shape, top + i * size * LINE_GAP, top + i * size * LINE_GAP + size * LINE_EXTENT, box.w),
    );
    const lines = breakLines(chain, atoms, size, (i) => (i < count ? spans[i]!.x1 - spans[i]!.x0 : box.w));
    const fits = lines.length === count && top >= -0.5 && lines.every((l, i) => l.width <= spans[i]!.x1 - spans[i]!.x0 + 0.5);
    return { lines, centres: spans.map((s) => (s.x0 + s.x1) / 2), fits };
  };
  let count = breakLines(chain, atoms, size, box.w).length;
  for (let round = 0; round < 4; round++) {
    const free = box.h - size * (LINE_GAP * count + BLOCK_EXTRA);
    const centred = from(free / 2, count);
    if (centred.fits) return { size, vertical: false, lines: centred.lines, centres: centred.centres, fits: true };
    for (const shift of SHIFTS) {
      const top = free / 2 + (shift * size * LINE_GAP) / 2;
      if (top < 0 || top > free) continue;
      const moved = from(top, count);
      if (moved.fits)
        return {
          size,
          vertical: false,
          lines: moved.lines,
          centres: moved.centres,
          tops: moved.lines.map((_, i) => top + i * size * LINE_GAP),
          fits: true,
        };
    }
    if (centred.lines.length === count) return { size, vertical: false, lines: centred.lines, centres: centred.centres, fits: false };
    count = centred.lines.length;
  }
  return { size, vertical: false, lines: breakLines(chain, atoms, size, box.w), fits: false };
}

/** The longest run of the shape's rows that a column over [a, b) (x from the box's left) lies inside: [top, bottom). */
function columnRun(shape: Shape, a: number, b: number): [number, number] {
  let best: [number, number] = [0, 0];
  let start = -1;
  const rows = shape.x0.length;
  for (let y = 0; y <= rows; y++) {
    const inside = y < rows && shape.x0[y]! <= a && shape.x1[y]! >= b;
    if (inside && start < 0) start = y;
    if (!inside && start >= 0) {
      if (y - start > best[1] - best[0]) best = [start, y];
      start = -1;
    }
  }
  return best;
}

/**
 * Columns in a balloon's shape, centred across it: each as long as the rows its width lies inside
 * (an oval's side columns are shorter), centred along them. The column count sets where the columns
 * fall: broken again until it holds, as `shapedLines` does for lines.
 */
function shapedColumns(text: string, box: Box, size: number, shape: Shape): Layout {
  let count = breakColumns(text, size, box.h).length;
  for (let round = 0; round < 4; round++) {
    const extent = size * (COLUMN_PITCH * (count - 1) + 1);
    const right = (box.w + extent) / 2;
    const runs = Array.from({ length: count }, (_, i) => {
      const cx = right - size / 2 - i * size * COLUMN_PITCH;
      return columnRun(shape, Math.floor(cx - size / 2), Math.ceil(cx + size / 2));
    });
    const cols = breakColumns(text, size, (i) => (i < count ? runs[i]![1] - runs[i]![0] : box.h));
    if (cols.length === count) {
      const fits = extent <= box.w + 0.5 && cols.every((c, i) => c.width <= runs[i]![1] - runs[i]![0] + 0.5);
      const tops = cols.map((c, i) => runs[i]![0] + (runs[i]![1] - runs[i]![0] - c.width) / 2);
      return { size, vertical: true, lines: cols, tops, fits };
    }
    count = cols.length;
  }
  return { size, vertical: true, lines: breakColumns(text, size, box.h), fits: false };
}

function layoutAt(
  chain: Face[],
  text: string,
  box: Box,
  size: number,
  vertical: boolean,
  edges: number[],
  start: number,
  shape?: Shape,
): Layout {
  if (vertical) {
    if (shape) return shapedColumns(text, box, size, shape);
    const lines = breakColumns(text, size, box.h);
    const w = size * (COLUMN_PITCH * (lines.length - 1) + 1);
    const fits = w <= box.w + 0.5 && lines.every((c) => c.width <= box.h + 0.5);
    return { size, vertical, lines, fits };
  }
  if (shape) return shapedLines(chain, atomsOf(text), box, size, shape);
  const lines = breakLines(chain, atomsOf(text), size, box.w);
  if (edges.length) {
    // Placed from the original's first line (or the top), stepping over each edge.
    const tops = placeLines(lines.length, size, Math.max(0, Math.min(start, box.h - size * LINE_EXTENT)), edges);
    const fits = tops[tops.length - 1]! + size * LINE_EXTENT <= box.h + 0.5 && lines.every((l) => l.width <= box.w + 0.5);
    return { size, vertical, lines, tops, fits };
  }
  const h = size * (LINE_GAP * lines.length + BLOCK_EXTRA);
  const fits = h <= box.h + 0.5 && lines.every((l) => l.width <= box.w + 0.5);
  return { size, vertical, lines, fits };
}

/** Total height (horizontal) or width (vertical) of a laid-out block. */
export function blockExtent(l: Layout): number {
  return l.vertical ? l.size * (COLUMN_PITCH * (l.lines.length - 1) + 1) : l.size * (LINE_GAP * l.lines.length + BLOCK_EXTRA);
}

export const COLUMN_STEP = COLUMN_PITCH;

/** The smallest font size (pixels) text is set at. */
const SMALLEST = 6;

/** Share of its original size text may shrink to before it is reported overflowing. */
export const SHRINK = 0.45;

/** Where and how small `fitText` may set text (see there). */
export interface FitOptions {
  edges?: number[];
  start?: number;
  shape?: Shape;
  /** The smallest size it may shrink to (default SHRINK of the target). */
  least?: number;
}

/**
 * Font size search: the largest whole-pixel size from `target` down to `least` at which the text
 * fits the box (binary search; fitting only gets easier as the size drops, nearly always). `fitted` at the
 * original size, `shrunk` below it, `overflowing` when even `least` does not fit (laid out there;
 * in a balloon's shape, at the largest smaller size that fits it, if any).
 * `edges` are background edges across the box (y from its top, horizontal text only): lines are
 * placed from `start` so that none crosses one. `shape`, a balloon's interior row by row
 * (horizontal text), sets each line's width instead of the box's.
 */
export function fitText(
  chain: Face[],
  text: string,
  box: Box,
  target: number,
  vertical: boolean,
  { edges = [], start = 0, shape, least }: FitOptions = {},
): { layout: Layout; overflow: TypesetOverflow } {
  const top = Math.max(4, Math.round(target));
  const min = Math.max(SMALLEST, Math.min(top, Math.ceil(least ?? top * SHRINK)));
  const at = (size: number) => layoutAt(chain, text, box, size, vertical, edges, start, shape);
  const first = at(top);
  if (first.fits) return { layout: first, overflow: "fitted" };
  let lo = min,
    hi = top - 1;
  let best: Layout | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const l = at(mid);
    if (l.fits) {
      best = l;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best) return { layout: best, overflow: "shrunk" };
  // In a balloon's shape fitting is not always easier at a smaller size (a line moves onto rows the
  // outline narrows): every size is tried before the text is reported overflowing. Text that
  // overflows a balloon is still set within its outline, below `least` (down to the smallest size),
  // and reported overflowing: laid out at `least` its lines crossed the outline.
  for (let size = top - 1; shape && size >= SMALLEST; size--) {
    const l = at(size);
    if (l.fits) return { layout: l, overflow: size >= min ? "shrunk" : "overflowing" };
  }
  return { layout: at(min), overflow: "overflowing" };
}
