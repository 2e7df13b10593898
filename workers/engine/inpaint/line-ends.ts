import type { Box } from "../../shared/engine-contract";
import type { Rect } from "./rect";
import type { RgbaImage } from "./rgba";
import { luma } from "../image/gray";
import { histogramQuantile } from "../image/histogram";

/** Blank columns (share of the line height) between a zone's end and ink that still continues its line: a word space. */
const WORD_GAP = 0.7;
/** A pixel is ink when it stands this share of the line's contrast (ground to its extreme ink) away from the ground. */
const INK_SHARE = 0.5;
/** Lines of less contrast than this (luma levels) are left as they are: their ink cannot be told from grain. */
const MIN_CONTRAST = 40;

const lumaAt = (d: Uint8Array, i: number) => luma(d[i * 4]!, d[i * 4 + 1]!, d[i * 4 + 2]!);

/**
 * A horizontal line's zone grown along its line over ink that continues it. A reading that lost a
 * line's first or last letters ("udy" for "Judy", a line start dropped by the page layout) leaves
 * them just beside its zone, within a word space of its ends, where removal would not look (and
 * where they spoil the background measured around the zone: the whole line start is then missed).
 * The zone reaches over such ink on the line's own rows (`line`) column by column, never past `bound`
 * (its region's box, padded), and stops at ink that runs through the whole zone from top to
 * bottom (a rule, a frame, drawing). It steps over blanks up to a word space: WORD_GAP of the line
 * height, or `wordSpace` (the line's own, measured between its words) where that is wider, as in
 * letter-spaced type.
 */
export function reachLineEnds(img: RgbaImage, z: Rect, line: Rect, lh: number, bound: Rect, wordSpace = 0): Rect {
  const pad = line.x0 - z.x0;
  const { width, data } = img;
  if (z.x1 <= z.x0 || z.y1 <= z.y0) return z;
  const counts = new Uint32Array(256);
  for (let y = z.y0; y < z.y1; y++) for (let x = z.x0; x < z.x1; x++) counts[lumaAt(data, y * width + x)]!++;
  const ground = histogramQuantile(counts, 0.5);
  const darkest = histogramQuantile(counts, 0.02);
  const lightest = histogramQuantile(counts, 0.98);
  const dark = ground - darkest >= lightest - ground;
  const contrast = dark ? ground - darkest : lightest - ground;
  if (contrast < MIN_CONTRAST) return z;
  const isInk = (x: number, y: number) => {
    const v = lumaAt(data, y * width + x);
    return (dark ? ground - v : v - ground) > INK_SHARE * contrast;
  };
  // 0: blank, 1: ink on the line's rows, -1: ink through the whole zone (not text).
  const column = (x: number): number => {
    let inked = 0,
      onLine = false;
    for (let y = z.y0; y < z.y1; y++)
      if (isInk(x, y)) {
        inked++;
        if (y >= line.y0 && y < line.y1) onLine = true;
      }
    return inked === z.y1 - z.y0 ? -1 : onLine ? 1 : 0;
  };
  const gap = Math.max(2, Math.round(WORD_GAP * lh), Math.round(wordSpace));
  const reach = (from: number, step: 1 | -1, limit: number): number => {
    let end = from,
      blank = 0;
    for (let x = from + step; step < 0 ? x >= limit : x < limit; x += step) {
      const c = column(x);
      if (c < 0) break;
      if (c > 0) ((end = x), (blank = 0));
      else if (++blank > gap) break;
    }
    return end;
  };
  // Ink reached is padded as the zone's own ends are (its faint edge, and the background ring
  // around it is then free of its letters).
  const start = reach(z.x0, -1, bound.x0);
  const end = reach(z.x1 - 1, 1, bound.x1);
  return {
    ...z,
    x0: start < z.x0 ? Math.max(bound.x0, start - pad) : z.x0,
    x1: end >= z.x1 ? Math.min(bound.x1, end + 1 + pad) : z.x1,
  };
}

/** Share of a line's median word space a lost word at its end may stand away (spaces vary a little along a line). */
const SPACE_SLACK = 1.25;

/** A line's word space: the median blank between its words' boxes side by side (two blanks at least), with slack; 0 when unknown. */
export function lineWordSpace(boxes: Box[]): number {
  const xs = boxes.slice().sort((a, b) => a.x - b.x);
  const gaps = xs
    .slice(1)
    .map((b, k) => b.x - (xs[k]!.x + xs[k]!.w))
    .filter((g) => g > 0)
    .sort((a, b) => a - b);
  return gaps.length < 2 ? 0 : gaps[Math.floor(gaps.length / 2)]! * SPACE_SLACK;
}
