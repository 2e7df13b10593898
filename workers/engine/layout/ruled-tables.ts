import type { Box } from "../contract";
import { otsuThreshold } from "../image/enhance";
import type { GrayImage } from "../image/gray";

/** A ruling line: a long thin run of ink, horizontal or vertical, in page pixels (inclusive ends). */
interface Segment {
  a0: number; // along the line
  a1: number;
  b0: number; // across (thickness)
  b1: number;
}

/** Grid of a ruled table: column and row boundaries, and the cells (merged where a rule is missing). */
export interface RuledGrid {
  box: Box;
  xs: number[];
  ys: number[];
  cells: { row: number; col: number; rowSpan: number; colSpan: number; box: Box }[];
  /** Half the typical rule thickness, to inset cell crops past the rules. */
  inset: number;
}

/**
 * Long runs of ink along one axis, merged across neighbouring scanlines into segments. Gaps of a
 * couple of pixels inside a run are bridged (scan noise, dashed rules).
 */
function segments(img: GrayImage, dark: number, horizontal: boolean, minLen: number): Segment[] {
  const { width: w, height: h, data } = img;
  const lines = horizontal ? h : w;
  const along = horizontal ? w : h;
  const at = horizontal ? (i: number, j: number) => data[i * w + j]! : (i: number, j: number) => data[j * w + i]!;
  const open: Segment[] = [];
  const done: Segment[] = [];
  for (let i = 0; i < lines; i++) {
    const runs: [number, number][] = [];
    let start = -1;
    let gap = 0;
    for (let j = 0; j <= along; j++) {
      const ink = j < along && at(i, j) <= dark;
      if (ink) {
        if (start < 0) start = j;
        gap = 0;
      } else if (start >= 0 && (++gap > 2 || j === along)) {
        const end = j - gap;
        if (end - start + 1 >= minLen) runs.push([start, end]);
        start = -1;
        gap = 0;
      }
    }
    // Continue open segments with overlapping runs on this scanline; close the rest.
    const still: Segment[] = [];
    for (const s of open) {
      const k = runs.findIndex(([a, b]) => a <= s.a1 && b >= s.a0);
      if (k >= 0 && i - s.b1 <= 1) {
        const [a, b] = runs.splice(k, 1)[0]!;
        s.a0 = Math.min(s.a0, a);
        s.a1 = Math.max(s.a1, b);
        s.b1 = i;
        still.push(s);
      } else done.push(s);
    }
    for (const [a, b] of runs) still.push({ a0: a, a1: b, b0: i, b1: i });
    open.length = 0;
    open.push(...still);
  }
  done.push(...open);
  // Rules are thin: anything thicker than a few percent of its length is a filled shape.
  return done.filter((s) => s.b1 - s.b0 + 1 <= Math.max(8, (s.a1 - s.a0) * 0.05));
}

function cluster(values: number[], tol: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of sorted) {
    const last = out[out.length - 1];
    if (last && v - last[last.length - 1]! <= tol) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => Math.round(g.reduce((a, b) => a + b, 0) / g.length));
}

/** Ruled tables of a page: horizontal and vertical rules that cross each other form a grid. */
export function findRuledTables(img: GrayImage): RuledGrid[] {
  const dark = Math.min(otsuThreshold(img), 160);
  const minH = Math.max(30, Math.round(img.width / 30));
  const hs = segments(img, dark, true, minH);
  if (hs.length < 2) return [];
  const vsAll = segments(img, dark, false, Math.max(12, Math.round(img.height / 150)));
  const tol = 4;
  const crosses = (h: Segment, v: Segment) => v.b0 - tol <= h.a1 && v.b1 + tol >= h.a0 && h.b0 - tol <= v.a1 && h.b1 + tol >= v.a0;
  // A vertical rule joins at least two horizontal ones (letter strokes do not).
  const vs = vsAll.filter((v) => hs.filter((h) => crosses(h, v)).length >= 2);
  if (vs.length < 2) return [];
  // Connected groups of crossing rules.
  const parent = [...hs, ...vs].map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  hs.forEach((h, i) => vs.forEach((v, j) => crosses(h, v) && (parent[find(i)] = find(hs.length + j))));
  const groups = new Map<number, { h: Segment[]; v: Segment[] }>();
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
  const tables: RuledGrid[] = [];
  for (const g of groups.values()) {
    if (g.h.length < 2 || g.v.length < 2) continue;
    const ys = cluster(g.h.map((s) => (s.b0 + s.b1) / 2), 6);
    const xs = cluster(g.v.map((s) => (s.b0 + s.b1) / 2), 6);
    if (ys.length < 2 || xs.length < 2) continue;
    const rows = ys.length - 1;
    const cols = xs.length - 1;
    const covered = (segs: Segment[], at: number, from: number, to: number) => {
      let len = 0;
      for (const s of segs) if (Math.abs((s.b0 + s.b1) / 2 - at) <= 6) len += Math.max(0, Math.min(s.a1, to) - Math.max(s.a0, from));
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
    const thickness = [...g.h, ...g.v].map((s) => s.b1 - s.b0 + 1).sort((a, b) => a - b);
    tables.push({
      box: { x: xs[0]!, y: ys[0]!, w: xs[cols]! - xs[0]!, h: ys[rows]! - ys[0]! },
      xs,
      ys,
      cells,
      inset: Math.ceil(thickness[thickness.length >> 1]! / 2) + 2,
    });
  }
  return tables.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}
