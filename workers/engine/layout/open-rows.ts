import type { Box, WordText } from "../../shared/engine-contract";
import type { RuledGrid } from "./ruled-tables";

const centreY = (b: Box) => b.y + b.h / 2;

/** Lines of words (by vertical overlap of their centres), top to bottom, as [top, bottom] bands. */
function lineBands(words: WordText[]): [number, number][] {
  const bands: [number, number][] = [];
  for (const w of [...words].sort((a, b) => centreY(a.box) - centreY(b.box))) {
    const last = bands[bands.length - 1];
    if (last && centreY(w.box) <= last[1]) last[1] = Math.max(last[1], w.box.y + w.box.h);
    else bands.push([w.box.y, w.box.y + w.box.h]);
  }
  return bands;
}

/**
 * A ruled grid whose body is left open (rules under the header and above the foot, columns ruled
 * top to bottom, no rule between the body's rows) has one tall row holding every line of the body.
 * Such a row is cut at the gaps between its lines when the lines run in step across the columns:
 * at least three lines, each with words in the first cell and one more, three in four of them
 * with words in every cell the row fills. The header row never qualifies (headings wrapped in
 * step), nor does a row of wrapped cells (its continuation lines fill fewer cells) or a row
 * crossed by a cell spanning rows.
 */
export function splitOpenRows(grid: RuledGrid, words: WordText[]): RuledGrid {
  const ys = [grid.ys[0]!];
  // The first new row of each old row (and, last, the new row count).
  const start: number[] = [];
  for (let r = 0; r + 1 < grid.ys.length; r++) {
    start.push(ys.length - 1);
    ys.push(...lineCuts(grid, r, words), grid.ys[r + 1]!);
  }
  start.push(ys.length - 1);
  if (ys.length === grid.ys.length) return grid;
  const cells = grid.cells.flatMap((c) => {
    const first = start[c.row]!;
    const end = start[c.row + c.rowSpan]!;
    if (c.rowSpan > 1 || end - first === 1) return [{ ...c, row: first, rowSpan: end - first }];
    return ys.slice(first, end).map((y, k) => ({ ...c, row: first + k, box: { ...c.box, y, h: ys[first + k + 1]! - y } }));
  });
  return { ...grid, ys, cells: cells.sort((a, b) => a.row - b.row || a.col - b.col) };
}

/** Where row `r` of `grid` is cut between its lines (none when it is not an open body). */
function lineCuts(grid: RuledGrid, r: number, words: WordText[]): number[] {
  const top = grid.ys[r]!;
  const bottom = grid.ys[r + 1]!;
  const cells = grid.cells.filter((c) => c.row <= r && r < c.row + c.rowSpan);
  if (r === 0 || cells.some((c) => c.rowSpan > 1)) return [];
  const cellOf = (w: WordText) => {
    const cx = w.box.x + w.box.w / 2;
    return cells.findIndex((c) => cx >= c.box.x && cx < c.box.x + c.box.w);
  };
  const inRow = words.filter((w) => centreY(w.box) > top && centreY(w.box) < bottom && cellOf(w) >= 0);
  const bands = lineBands(inRow);
  const filled = ([t, b]: [number, number]) => new Set(inRow.filter((w) => centreY(w.box) >= t && centreY(w.box) <= b).map(cellOf));
  if (bands.length < 3 || bands.some((b) => filled(b).size < 2 || !filled(b).has(0))) return [];
  const used = new Set(inRow.map(cellOf)).size;
  if (bands.filter((b) => filled(b).size === used).length < 0.75 * bands.length) return [];
  return bands.slice(1).map((b, i) => (bands[i]![1] + b[0]) / 2);
}
