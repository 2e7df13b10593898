import type { Box } from "../../shared/engine-contract";
import { otsuThreshold } from "../image/enhance";
import type { GrayImage } from "../image/gray";

/** A run of ink along one axis: a0..a1 along the line, b0..b1 across it (inclusive, page pixels). */
interface Segment {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/**
 * Long runs of ink along one axis, merged across neighbouring scanlines into segments: a 1-D
 * opening of the binarised page (runs shorter than minLen are dropped). Gaps of a couple of pixels
 * inside a run are bridged (scan noise, dashed rules). Thick segments (filled shapes) are dropped.
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

const hBox = (s: Segment): Box => ({ x: s.a0, y: s.b0, w: s.a1 - s.a0 + 1, h: s.b1 - s.b0 + 1 });
const vBox = (s: Segment): Box => ({ x: s.b0, y: s.a0, w: s.b1 - s.b0 + 1, h: s.a1 - s.a0 + 1 });
const touches = (a: Box, b: Box, tol: number) =>
  a.x - tol <= b.x + b.w && b.x - tol <= a.x + a.w && a.y - tol <= b.y + b.h && b.y - tol <= a.y + a.h;

/**
 * The ruling lines of a page image, as thin boxes: horizontal runs at least 1/30 of the page wide,
 * and vertical runs that meet at least two horizontal rules (letter strokes do not; a table's
 * column rules do).
 */
export function pageRules(img: GrayImage): Box[] {
  const dark = Math.min(otsuThreshold(img), 160);
  const hs = segments(img, dark, true, Math.max(30, Math.round(img.width / 30))).map(hBox);
  if (hs.length === 0) return [];
  const vs = segments(img, dark, false, Math.max(12, Math.round(img.height / 150)))
    .map(vBox)
    .filter((v) => hs.filter((h) => touches(h, v, 4)).length >= 2);
  return [...hs, ...vs];
}

/** The page with its ruling lines painted white (a pixel beyond each side), so OCR reads cell text without them. */
export function eraseRules(img: GrayImage, rules: Box[]): GrayImage {
  const out = new Uint8Array(img.data);
  for (const r of rules) {
    const x0 = Math.max(0, Math.floor(r.x) - 1);
    const x1 = Math.min(img.width, Math.ceil(r.x + r.w) + 1);
    const y0 = Math.max(0, Math.floor(r.y) - 1);
    const y1 = Math.min(img.height, Math.ceil(r.y + r.h) + 1);
    for (let y = y0; y < y1; y++) out.fill(255, y * img.width + x0, y * img.width + x1);
  }
  return { width: img.width, height: img.height, data: out };
}
