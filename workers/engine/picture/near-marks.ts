import type { Box } from "../../shared/engine-contract";

/**
 * Over the analysis pixels of `box` (page pixels), 2 where a mark of `mine` lies within `reach`, 1
 * where one lies within `wide`, else 0 (separable box dilations).
 */
export function nearMarks(
  owner: Uint16Array,
  AW: number,
  AH: number,
  mine: Set<number>,
  box: Box,
  scale: number,
  reach: number,
  wide: number,
) {
  const x0 = Math.max(0, Math.floor(box.x * scale) - wide - 1);
  const y0 = Math.max(0, Math.floor(box.y * scale) - wide - 1);
  const x1 = Math.min(AW, Math.ceil((box.x + box.w) * scale) + wide + 2);
  const y1 = Math.min(AH, Math.ceil((box.y + box.h) * scale) + wide + 2);
  const w = x1 - x0,
    h = y1 - y0;
  const marks = new Uint8Array(w * h);
  for (let v = 0; v < h; v++) for (let u = 0; u < w; u++) if (mine.has(owner[(v + y0) * AW + u + x0]!)) marks[v * w + u] = 1;
  const dilate = (r: number) => {
    const across = new Uint8Array(w * h);
    for (let v = 0; v < h; v++)
      for (let u = 0; u < w; u++)
        if (marks[v * w + u]) for (let k = Math.max(0, u - r); k <= Math.min(w - 1, u + r); k++) across[v * w + k] = 1;
    const out = new Uint8Array(w * h);
    for (let v = 0; v < h; v++)
      for (let u = 0; u < w; u++)
        if (across[v * w + u]) for (let k = Math.max(0, v - r); k <= Math.min(h - 1, v + r); k++) out[k * w + u] = 1;
    return out;
  };
  const close = dilate(reach);
  const far = dilate(wide);
  const at = new Uint8Array(w * h);
  for (let i = 0; i < at.length; i++) at[i] = close[i] ? 2 : far[i] ? 1 : 0;
  return { at, x0, y0, w };
}
