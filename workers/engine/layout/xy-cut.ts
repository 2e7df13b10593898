import type { Box } from "../../shared/engine-contract";

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** Gaps of the projection of [start, end) intervals: [from, to) ranges no interval covers. */
function projectionGaps(spans: [number, number][]): [number, number][] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const gaps: [number, number][] = [];
  let reach = sorted[0]![1];
  for (const [s, e] of sorted.slice(1)) {
    if (s > reach) gaps.push([reach, s]);
    reach = Math.max(reach, e);
  }
  return gaps;
}

function splitAt<T>(items: T[], pos: (t: T) => number, cuts: number[]): T[][] {
  const parts: T[][] = Array.from({ length: cuts.length + 1 }, () => []);
  for (const it of items) {
    const p = pos(it);
    let k = 0;
    while (k < cuts.length && p >= cuts[k]!) k++;
    parts[k]!.push(it);
  }
  return parts.filter((p) => p.length > 0);
}

/**
 * Reading order by recursive XY-cut over positioned text boxes (y down). At each level a
 * vertical gutter that runs through the whole block (at least `minGutter` wide) splits it into
 * columns, read left to right; otherwise horizontal gaps split it into bands, read top to
 * bottom: only the gaps clearly wider than its usual line gap when there are such (a heading
 * above two columns is cut off before the columns are), else every gap. Returns the leaves
 * (boxes that share one band of lines) in reading order.
 */
export function xyCut<T>(items: T[], boxOf: (t: T) => Box, minGutter: number): T[][] {
  if (items.length <= 1) return items.length ? [items] : [];
  const boxes = items.map(boxOf);
  const cols = projectionGaps(boxes.map((b) => [b.x, b.x + b.w])).filter(([a, b]) => b - a >= minGutter);
  if (cols.length) {
    const cuts = cols.map(([a, b]) => (a + b) / 2);
    return splitAt(items, (t) => boxOf(t).x + boxOf(t).w / 2, cuts).flatMap((p) => xyCut(p, boxOf, minGutter));
  }
  const rows = projectionGaps(boxes.map((b) => [b.y, b.y + b.h]));
  if (!rows.length) return [items];
  const widths = rows.map(([a, b]) => b - a);
  const usual = median(widths);
  const wide = rows.filter(([a, b]) => b - a > Math.max(1.5 * usual, usual + 0.3 * minGutter));
  const chosen = wide.length && wide.length < rows.length ? wide : rows;
  const cuts = chosen.map(([a, b]) => (a + b) / 2);
  const parts = splitAt(items, (t) => boxOf(t).y + boxOf(t).h / 2, cuts);
  if (parts.length === 1) return parts;
  return parts.flatMap((p) => xyCut(p, boxOf, minGutter));
}
