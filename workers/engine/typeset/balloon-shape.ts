import type { Box } from "../../shared/engine-contract";
import type { RgbaImage } from "../image/gray";

/**
 * A pixel belongs to the interior when no channel differs from its fill by more than this (paper
 * grain and halftone stay within it, outlines and art do not).
 */
const NEAR_FILL = 60;
/** Pixels off the fill a run may step over (a stray dot left in the interior). */
const GAP = 2;

/** Per row of a box (from its top), the interior's span on that row, x from the box's left: [x0, x1). */
export interface Shape {
  x0: Int32Array;
  x1: Int32Array;
}

/** Per-channel median of a box's pixels: a balloon's fill, which covers most of its interior. */
function fillOf(page: RgbaImage, box: Box): [number, number, number] {
  const hist = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  let n = 0;
  for (let y = box.y; y < box.y + box.h; y++)
    for (let x = box.x; x < box.x + box.w; x++, n++) {
      const i = (y * page.width + x) * 4;
      for (let c = 0; c < 3; c++) hist[c]![page.data[i + c]!]!++;
    }
  return hist.map((h) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += h[v]!) * 2 >= n) return v;
    return 255;
  }) as [number, number, number];
}

/**
 * The interior of a balloon, row by row, on the clean plate: the run of the fill's colour through
 * the frame's centre line, `margin` pixels in from the outline (an oval's rows narrow towards its
 * top and bottom, where the frame's rectangle crosses its outline). Rows and x are those of the frame
 * inset by `margin` on every side, where the text goes. A row whose centre is off the fill keeps the
 * whole width.
 */
export function balloonShape(page: RgbaImage, frame: Box, margin: number): Shape {
  const box = {
    x: Math.max(0, Math.round(frame.x)),
    y: Math.max(0, Math.round(frame.y)),
    w: Math.min(page.width, Math.round(frame.x + frame.w)) - Math.max(0, Math.round(frame.x)),
    h: Math.min(page.height, Math.round(frame.y + frame.h)) - Math.max(0, Math.round(frame.y)),
  };
  const rows = Math.max(0, box.h - 2 * margin);
  const inner = Math.max(0, box.w - 2 * margin);
  const x0 = new Int32Array(rows).fill(0);
  const x1 = new Int32Array(rows).fill(inner);
  if (!rows || !inner) return { x0, x1 };
  const fill = fillOf(page, box);
  const near = (x: number, y: number) => {
    const i = (y * page.width + x) * 4;
    return (
      Math.abs(page.data[i]! - fill[0]) <= NEAR_FILL &&
      Math.abs(page.data[i + 1]! - fill[1]) <= NEAR_FILL &&
      Math.abs(page.data[i + 2]! - fill[2]) <= NEAR_FILL
    );
  };
  const cx = box.x + (box.w >> 1);
  // The last fill pixel reached from the centre going one way, over gaps of at most GAP pixels.
  const reach = (y: number, step: 1 | -1, end: number) => {
    let last = cx,
      off = 0;
    for (let x = cx + step; x !== end; x += step) {
      if (near(x, y)) {
        last = x;
        off = 0;
      } else if (++off > GAP) break;
    }
    return last;
  };
  for (let r = 0; r < rows; r++) {
    const y = box.y + margin + r;
    if (!near(cx, y)) continue;
    // The run [L, R] in frame x keeps [L + margin, R + 1 - margin) for text: in inset-box x, less margin again.
    const left = reach(y, -1, box.x - 1) - box.x;
    const right = reach(y, 1, box.x + box.w) - box.x + 1 - 2 * margin;
    x0[r] = Math.min(inner, Math.max(0, left));
    x1[r] = Math.max(x0[r]!, Math.min(inner, right));
  }
  return { x0, x1 };
}

/** The span every row from `top` to `bottom` (box pixels) holds: the narrowest of them. */
export function spanOver(shape: Shape, top: number, bottom: number, width: number): { x0: number; x1: number } {
  let x0 = 0,
    x1 = width;
  for (let r = Math.max(0, Math.floor(top)); r < Math.min(shape.x0.length, Math.ceil(bottom)); r++) {
    x0 = Math.max(x0, shape.x0[r]!);
    x1 = Math.min(x1, shape.x1[r]!);
  }
  return { x0, x1: Math.max(x0, x1) };
}
