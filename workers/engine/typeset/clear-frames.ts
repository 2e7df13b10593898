import type { Box } from "../../shared/engine-contract";

/**
 * Least share of its frame a region keeps once cleared of its neighbours': more overlap than that
 * is no band along an edge but one balloon lying in another, left as it is.
 */
const KEEP = 0.5;

/**
 * A region's frame with each band along one of its edges that another region's frame covers from
 * side to side cut off, so its translation is not set over its neighbour's: a newspaper held up
 * over a caption, read turned, had a frame reaching into the caption, and its last line was set
 * across the caption's first. Overlaps at a corner, or that would leave less than `KEEP` of the
 * frame, are left: a balloon's own shape keeps its text inside.
 */
export function clearOf(frame: Box, others: Box[]): Box {
  let f = frame;
  for (const o of others) {
    const x0 = Math.max(f.x, o.x),
      y0 = Math.max(f.y, o.y);
    const x1 = Math.min(f.x + f.w, o.x + o.w),
      y1 = Math.min(f.y + f.h, o.y + o.h);
    if (x0 >= x1 || y0 >= y1) continue;
    const cuts: Box[] = [];
    if (x0 <= f.x && x1 >= f.x + f.w) {
      if (y0 <= f.y) cuts.push({ ...f, y: y1, h: f.y + f.h - y1 });
      if (y1 >= f.y + f.h) cuts.push({ ...f, h: y0 - f.y });
    }
    if (y0 <= f.y && y1 >= f.y + f.h) {
      if (x0 <= f.x) cuts.push({ ...f, x: x1, w: f.x + f.w - x1 });
      if (x1 >= f.x + f.w) cuts.push({ ...f, w: x0 - f.x });
    }
    const best = cuts.sort((a, b) => b.w * b.h - a.w * a.h)[0];
    if (best && best.w * best.h >= KEEP * frame.w * frame.h) f = best;
  }
  return f;
}
