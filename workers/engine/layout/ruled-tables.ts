import type { Box } from "../../shared/engine-contract";

/** Grid of a ruled table: column and row boundaries, and the cells (merged where a rule is missing). */
export interface RuledGrid {
  box: Box;
  xs: number[];
  ys: number[];
  cells: { row: number; col: number; rowSpan: number; colSpan: number; box: Box }[];
  /** Half the typical rule thickness plus a margin, to inset cell crops past the rules. */
  inset: number;
}

/** A rule as a line: a0..a1 along it, `at` across it (its centre), `thick` its thickness. */
interface Rule {
  a0: number;
  a1: number;
  at: number;
  thick: number;
  /** Where pieces it was joined from met, along it. */
  joints?: number[];
}

function cluster(values: number[], tol: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of sorted) {
    const last = out[out.length - 1];
    if (last && v - last[last.length - 1]! <= tol) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((a, b) => a + b, 0) / g.length);
}

/** Horizontal and vertical rules of a set of thin boxes (a box is horizontal when wider than tall). */
export function splitRules(rules: Box[]): { h: Rule[]; v: Rule[] } {
  const h: Rule[] = [];
  const v: Rule[] = [];
  for (const r of rules) {
    if (r.w >= r.h) h.push({ a0: r.x, a1: r.x + r.w, at: r.y + r.h / 2, thick: r.h });
    else v.push({ a0: r.y, a1: r.y + r.h, at: r.x + r.w / 2, thick: r.w });
  }
  return { h, v };
}

/**
 * Rules drawn in pieces along one line (a cell's border drawn cell by cell) joined where one piece
 * ends within `tol` of the next's start: a column rule drawn row by row crosses the header's and the
 * foot's rules as one line, so the rows between stay in the grid. Each keeps where its pieces met.
 */
function joinSegments(rules: Rule[], tol: number): Rule[] {
  const sorted = [...rules].sort((a, b) => a.a0 - b.a0);
  const out: Rule[] = [];
  // Joined rules by position across them (2 px buckets): a page of a map draws thousands of strokes.
  const near = new Map<number, Rule[]>();
  const key = (at: number) => Math.floor(at / 2);
  for (const r of sorted) {
    const k = key(r.at);
    const candidates = [...(near.get(k - 1) ?? []), ...(near.get(k) ?? []), ...(near.get(k + 1) ?? [])];
    const prev = candidates.findLast((o) => Math.abs(o.at - r.at) <= Math.max(1, Math.max(o.thick, r.thick) / 2) && r.a0 <= o.a1 + tol);
    if (prev) {
      if (r.a0 >= prev.a1 - tol) (prev.joints ??= []).push((prev.a1 + r.a0) / 2);
      prev.a1 = Math.max(prev.a1, r.a1);
      prev.thick = Math.max(prev.thick, r.thick);
    } else {
      const joined = { ...r };
      out.push(joined);
      const bucket = near.get(k);
      if (bucket) bucket.push(joined);
      else near.set(k, [joined]);
    }
  }
  return out;
}

/**
 * Grids drawn without outer borders on a side (rules across the rows that run on past the first or
 * last column rule, the stub column and the last column left open): `cross` (positions of the rules
 * across `rules`) gains a line where most of `rules`' grid lines end, when that is a cell's width
 * or more beyond the outermost one. `along` are the grid lines of `rules`.
 */
function openSides(cross: number[], along: number[], rules: Rule[], near: number, minCell: number): void {
  if (cross.length < 2 || along.length < 2) return;
  const ends = along.map((at) => {
    const on = rules.filter((r) => Math.abs(r.at - at) <= near);
    return [Math.min(...on.map((r) => r.a0)), Math.max(...on.map((r) => r.a1))] as const;
  });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const start = median(ends.map((e) => e[0]));
  const end = median(ends.map((e) => e[1]));
  if (start < cross[0]! - Math.max(near, minCell)) cross.unshift(start);
  if (end > cross[cross.length - 1]! + Math.max(near, minCell)) cross.push(end);
}

/**
 * Row lines drawn without any rule across: heights where every column rule of a grid (at `xs`) is
 * broken into pieces that meet there (cell borders drawn cell by cell, the row rules left out or
 * drawn in a way that leaves no line) and no rule of `hs` runs, as rules across the grid. Where a
 * rule runs in some columns, the row line is drawn and the columns without it hold spanning cells.
 */
function jointRows(vs: Rule[], hs: Rule[], xs: number[], near: number): Rule[] {
  const lines = xs.map((x) => vs.filter((v) => Math.abs(v.at - x) <= near).flatMap((v) => v.joints ?? []));
  const thick = Math.min(...vs.map((v) => v.thick));
  return cluster(lines[0] ?? [], near)
    .filter((y) => !hs.some((h) => Math.abs(h.at - y) <= near))
    .filter((y) => lines.every((joints) => joints.some((j) => Math.abs(j - y) <= near)))
    .map((y) => ({ a0: xs[0]!, a1: xs[xs.length - 1]!, at: y, thick }));
}

/**
 * Ruled tables: horizontal and vertical rules that cross each other form a grid (connected groups
 * of crossing rules); a missing rule between two grid cells merges them (spanning cells); sides left
 * open (no outer border) close where the rules along them end. `tol` is
 * how far (page pixels) rules may stop short of each other and still meet; rules closer together
 * than `minCell` (double rules, a cell border drawn twice) are one grid line.
 */
export function ruledGrids(rules: Box[], tol: number, minCell: number): RuledGrid[] {
  const split = splitRules(rules);
  const hs = joinSegments(split.h, tol);
  const vs = joinSegments(split.v, tol);
  if (hs.length < 2 || vs.length < 2) return [];
  const crosses = (h: Rule, v: Rule) => v.at >= h.a0 - tol && v.at <= h.a1 + tol && h.at >= v.a0 - tol && h.at <= v.a1 + tol;
  const parent = [...hs, ...vs].map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  hs.forEach((h, i) => vs.forEach((v, j) => crosses(h, v) && (parent[find(i)] = find(hs.length + j))));
  const groups = new Map<number, { h: Rule[]; v: Rule[] }>();
  hs.forEach((h, i) => {
    const g = groups.get(find(i)) ?? { h: [], v: [] };
    g.h.push(h);
    groups.set(find(i), g);
  });
  vs.forEach((v, j) => {
    const g = groups.get(find(hs.length + j)) ?? { h: [], v: [] };
    g.v.push(v);
    groups.set(find(hs.length + j), g);
  });
  const grids: RuledGrid[] = [];
  for (const g of groups.values()) {
    if (g.h.length < 2 || g.v.length < 2) continue;
    const near = Math.max(1.5 * tol, minCell);
    const xs = cluster(
      g.v.map((s) => s.at),
      near,
    );
    g.h.push(...jointRows(g.v, g.h, xs, near));
    const ys = cluster(
      g.h.map((s) => s.at),
      near,
    );
    openSides(xs, ys, g.h, near, minCell);
    openSides(ys, xs, g.v, near, minCell);
    if (ys.length < 2 || xs.length < 2) continue;
    const rows = ys.length - 1;
    const cols = xs.length - 1;
    const covered = (segs: Rule[], at: number, from: number, to: number) => {
      let len = 0;
      for (const s of segs) if (Math.abs(s.at - at) <= near) len += Math.max(0, Math.min(s.a1, to) - Math.max(s.a0, from));
      return len >= 0.6 * (to - from);
    };
    // Merge neighbouring grid cells where the rule between them is missing (spanning cells).
    const id = (r: number, c: number) => r * cols + c;
    const up = Array.from({ length: rows * cols }, (_, i) => i);
    const root = (i: number): number => (up[i] === i ? i : (up[i] = root(up[i]!)));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (c + 1 < cols && !covered(g.v, xs[c + 1]!, ys[r]!, ys[r + 1]!)) up[root(id(r, c + 1))] = root(id(r, c));
        if (r + 1 < rows && !covered(g.h, ys[r + 1]!, xs[c]!, xs[c + 1]!)) up[root(id(r + 1, c))] = root(id(r, c));
      }
    }
    const spans = new Map<number, { r0: number; r1: number; c0: number; c1: number }>();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const k = root(id(r, c));
        const s = spans.get(k);
        if (!s) spans.set(k, { r0: r, r1: r, c0: c, c1: c });
        else {
          s.r0 = Math.min(s.r0, r);
          s.r1 = Math.max(s.r1, r);
          s.c0 = Math.min(s.c0, c);
          s.c1 = Math.max(s.c1, c);
        }
      }
    }
    const cells = [...spans.values()]
      .map((s) => ({
        row: s.r0,
        col: s.c0,
        rowSpan: s.r1 - s.r0 + 1,
        colSpan: s.c1 - s.c0 + 1,
        box: { x: xs[s.c0]!, y: ys[s.r0]!, w: xs[s.c1 + 1]! - xs[s.c0]!, h: ys[s.r1 + 1]! - ys[s.r0]! },
      }))
      .sort((a, b) => a.row - b.row || a.col - b.col);
    const thickness = [...g.h, ...g.v].map((s) => s.thick).sort((a, b) => a - b);
    grids.push({
      box: { x: xs[0]!, y: ys[0]!, w: xs[cols]! - xs[0]!, h: ys[rows]! - ys[0]! },
      xs,
      ys,
      cells,
      inset: Math.ceil(thickness[thickness.length >> 1]! / 2) + 2,
    });
  }
  return grids.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}
