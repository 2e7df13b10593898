import type { Box } from "../../shared/engine-contract";

/** An integer pixel rectangle [x0, x1) × [y0, y1). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A box grown by `pad`, clipped to the page (empty, never inverted, when it lies outside). */
export function rectOf(b: Box, pad: number, width: number, height: number): Rect {
  const x0 = Math.min(width, Math.max(0, Math.floor(b.x - pad))),
    y0 = Math.min(height, Math.max(0, Math.floor(b.y - pad)));
  return {
    x0,
    y0,
    x1: Math.max(x0, Math.min(width, Math.ceil(b.x + b.w + pad))),
    y1: Math.max(y0, Math.min(height, Math.ceil(b.y + b.h + pad))),
  };
}
