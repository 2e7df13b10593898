import type { Box } from "../../shared/engine-contract";
import type { RgbaImage } from "../inpaint/rgba";

/** A step this large (0–255, any channel) in a row's mean colour over a few rows is a background edge. */
const EDGE = 48;
/** Rows compared: an edge drawn with anti-aliasing or JPEG blur still steps within this span. */
const SPAN = 4;

/**
 * Where the background under a box changes from one row to the next (the clean plate's flat
 * beige over a blue band, a photograph's horizon): the rows, from the box's top, at which the mean
 * colour across the box steps by more than EDGE. One row per step (the middle of the rows that see it).
 */
export function rowEdges(page: RgbaImage, box: Box): number[] {
  const x0 = Math.max(0, Math.floor(box.x)),
    x1 = Math.min(page.width, Math.ceil(box.x + box.w));
  const y0 = Math.max(0, Math.floor(box.y)),
    y1 = Math.min(page.height, Math.ceil(box.y + box.h));
  if (x1 <= x0 || y1 - y0 <= SPAN) return [];
  const step = Math.max(1, Math.floor((x1 - x0) / 400));
  const means: number[][] = [];
  for (let y = y0; y < y1; y++) {
    const m = [0, 0, 0];
    let n = 0;
    for (let x = x0; x < x1; x += step) {
      const i = (y * page.width + x) * 4;
      for (let c = 0; c < 3; c++) m[c]! += page.data[i + c]!;
      n++;
    }
    means.push(m.map((v) => v / n));
  }
  const steps = (k: number) => Math.max(...[0, 1, 2].map((c) => Math.abs(means[k]![c]! - means[k - SPAN]![c]!))) > EDGE;
  const edges: number[] = [];
  for (let k = SPAN; k < means.length; k++) {
    if (!steps(k)) continue;
    let e = k;
    while (e + 1 < means.length && steps(e + 1)) e++;
    edges.push(Math.round((k - SPAN + e) / 2) + y0 - box.y);
    k = e;
  }
  return edges;
}
