import type { Box } from "../../shared/engine-contract";
import type { RgbaImage } from "../image/gray";

/**
 * A pixel belongs to the interior when no channel differs from its fill by more than this (paper
 * grain and halftone stay within it, outlines and art do not).
 */
const NEAR_FILL = 60;

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

/** Whether the RGBA pixel at byte `i` is of the fill's colour (`NEAR_FILL`). */
const nearFill = (data: Uint8Array, i: number, fill: [number, number, number]) =>
  Math.abs(data[i]! - fill[0]) <= NEAR_FILL &&
  Math.abs(data[i + 1]! - fill[1]) <= NEAR_FILL &&
  Math.abs(data[i + 2]! - fill[2]) <= NEAR_FILL;

/**
 * The interior of a balloon, row by row, on the clean plate: the pixels of the fill's colour joined
 * to the frame's centre within the frame (a stray dot left in it is gone round, its outline is not
 * crossed), each row from its leftmost to its rightmost such pixel, `margin` pixels in from the
 * outline (an oval's rows narrow towards its top and bottom, where the frame's rectangle crosses its
 * outline). Rows and x are those of the frame inset by `margin` on every side, where the text goes;
 * a row the interior does not reach holds nothing.
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
  const on = new Uint8Array(box.w * box.h);
  for (let y = 0; y < box.h; y++)
    for (let x = 0; x < box.w; x++) {
      on[y * box.w + x] = +nearFill(page.data, ((box.y + y) * page.width + box.x + x) * 4, fill);
    }
  // From the fill pixel nearest the centre, the fill joined to it (4-connected).
  const seed = nearestOn(on, box.w, box.h);
  const left = new Int32Array(box.h).fill(box.w);
  const right = new Int32Array(box.h).fill(-1);
  if (seed >= 0) {
    const stack = [seed];
    on[seed] = 2;
    while (stack.length) {
      const i = stack.pop()!;
      const [x, y] = [i % box.w, Math.floor(i / box.w)];
      left[y] = Math.min(left[y]!, x);
      right[y] = Math.max(right[y]!, x);
      for (const j of [x > 0 ? i - 1 : -1, x < box.w - 1 ? i + 1 : -1, i - box.w, i + box.w])
        if (j >= 0 && j < on.length && on[j] === 1) ((on[j] = 2), stack.push(j));
    }
  }
  for (let r = 0; r < rows; r++) {
    const y = margin + r;
    // The run [L, R] in frame x keeps [L + margin, R + 1 - margin) for text: in inset-box x, less margin again.
    if (right[y]! < 0) {
      x1[r] = 0;
      continue;
    }
    x0[r] = Math.min(inner, Math.max(0, left[y]!));
    x1[r] = Math.max(x0[r]!, Math.min(inner, right[y]! + 1 - 2 * margin));
  }
  return { x0, x1 };
}

/** The index of the pixel of `on` nearest the centre of a w x h grid (rings of growing size), or -1. */
function nearestOn(on: Uint8Array, w: number, h: number): number {
  const [cx, cy] = [w >> 1, h >> 1];
  for (let d = 0; d <= Math.max(w, h) >> 1; d++)
    for (let y = Math.max(0, cy - d); y <= Math.min(h - 1, cy + d); y++)
      for (let x = Math.max(0, cx - d); x <= Math.min(w - 1, cx + d); x++)
        if (Math.max(Math.abs(x - cx), Math.abs(y - cy)) === d && on[y * w + x]) return y * w + x;
  return -1;
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

/** The page as seen from a rectangle w x h centred on (cx, cy) turned by `angle` degrees clockwise (nearest pixel; black off the page). */
function turnedView(page: RgbaImage, cx: number, cy: number, w: number, h: number, angle: number): RgbaImage {
  const t = (angle * Math.PI) / 180;
  const [c, s] = [Math.cos(t), Math.sin(t)];
  const data = new Uint8Array(w * h * 4);
  for (let v = 0; v < h; v++)
    for (let u = 0; u < w; u++) {
      const [dx, dy] = [u + 0.5 - w / 2, v + 0.5 - h / 2];
      const x = Math.floor(cx + dx * c - dy * s);
      const y = Math.floor(cy + dx * s + dy * c);
      if (x < 0 || y < 0 || x >= page.width || y >= page.height) continue;
      data.set(page.data.subarray((y * page.width + x) * 4, (y * page.width + x) * 4 + 4), (v * w + u) * 4);
    }
  return { width: w, height: h, data };
}

/**
 * The interior of a balloon seen at a slant (a photo's), row by row, for text laid out upright in
 * `box` and then turned by `angle` degrees (clockwise) about its centre: `balloonShape` of the clean
 * plate as seen from that turned rectangle, `margin` pixels around it included. Its rows are those of `box`.
 */
export function turnedBalloonShape(page: RgbaImage, box: Box, margin: number, angle: number): Shape {
  const [w, h] = [Math.round(box.w) + 2 * margin, Math.round(box.h) + 2 * margin];
  const view = turnedView(page, box.x + box.w / 2, box.y + box.h / 2, w, h, angle);
  return balloonShape(view, { x: 0, y: 0, w, h }, margin);
}
