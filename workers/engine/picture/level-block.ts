import type { Box } from "../../shared/engine-contract";
import { rotateSmall } from "../image/geometry";
import { clampToPage } from "../image/perspective";
import { grayToRgba, type GrayImage } from "../image/gray";
import type { OcrRaster } from "../ocr/page-raster";
import { labelComponents } from "./components";

/**
 * Lettering drawn turned — a newspaper held up in a panel, a caption set at an angle, a sign in a
 * photo — is read by tesseract as nothing beyond a few degrees. Turned level first, it reads.
 */

/** Turns searched for (degrees either way): beyond, lettering stands on end, and is read as columns if at all. */
const MOST_TURN = 30;
/** Turns below this tesseract reads through. */
const LEAST_TURN = 4;
/** Marks this much shorter or taller than a letter, or wider than two, are no letters (halftone dots, rules, art). */
const SHORTEST = 0.5;
const TALLEST = 1.5;
const WIDEST = 2;
/** Fewer letters than this tell no direction. */
const FEWEST = 10;
/**
 * A turn is taken when it lines the feet up this many times better than level: turned balloons
 * scored 2.2–4.4, art taken for text blocks 1.1–2.2 (mostly under 1.9), each costing a reading.
 */
const SHARPER = 2;

/**
 * How far (degrees clockwise) the lines of black lettering on white are turned: the turn that
 * lines up the feet of its letters (marks of about a letter's height, `letter` pixels) best, the
 * sum of squares of their counts in rows a fifth of a letter apart; 0 unless it does so clearly
 * (`SHARPER`). Feet, not ink: the ink of a few lines over a halftone ground gave as sharp a
 * profile at 8° as at the true 15°.
 */
export function lineTurn(gray: GrayImage, letter: number): number {
  const { width, height, data } = gray;
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = data[i]! < 128 ? 1 : 0;
  const c = labelComponents(mask, width, height, true);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let l = 1; l <= c.count; l++) {
    const h = c.y1[l]! - c.y0[l]!;
    const w = c.x1[l]! - c.x0[l]!;
    if (h < letter * SHORTEST || h > letter * TALLEST || w > letter * WIDEST) continue;
    xs.push((c.x0[l]! + c.x1[l]!) / 2);
    ys.push(c.y1[l]!);
  }
  if (xs.length < FEWEST) return 0;
  const bin = Math.max(2, letter / 5);
  const score = (deg: number) => {
    const slope = Math.tan((deg * Math.PI) / 180);
    const rows = new Map<number, number>();
    for (let i = 0; i < xs.length; i++) {
      const r = Math.round((ys[i]! - xs[i]! * slope) / bin);
      rows.set(r, (rows.get(r) ?? 0) + 1);
    }
    let s = 0;
    for (const n of rows.values()) s += n * n;
    return s;
  };
  let best = 0;
  let bestScore = score(0);
  for (let d = -MOST_TURN; d <= MOST_TURN; d += 0.5) {
    const s = score(d);
    if (s > bestScore) [best, bestScore] = [d, s];
  }
  // Best at the end of the search: lettering on end, or marks in no rows at all (art).
  return Math.abs(best) >= MOST_TURN || bestScore < SHARPER * score(0) ? 0 : best;
}

/**
 * The block's raster (its letters `letter` pixels tall) turned so its lines run level, on a canvas
 * grown to hold all of it (white corners), with `angle` (degrees clockwise its lines were turned)
 * and `centre` (page pixels) to take boxes read on it back (`turnedBack`). None when its lines are
 * level already, or nearly.
 */
export function levelled(raster: OcrRaster, letter: number): { raster: OcrRaster; angle: number; centre: { x: number; y: number } } | null {
  const { width: w, height: h, data } = raster.image;
  const gray: GrayImage = { width: w, height: h, data: new Uint8Array(w * h) };
  for (let i = 0; i < gray.data.length; i++) gray.data[i] = data[i * 4]!;
  const angle = lineTurn(gray, letter);
  if (Math.abs(angle) < LEAST_TURN) return null;
  const a = (Math.abs(angle) * Math.PI) / 180;
  const W = Math.ceil(w * Math.cos(a) + h * Math.sin(a));
  const H = Math.ceil(w * Math.sin(a) + h * Math.cos(a));
  const left = Math.floor((W - w) / 2);
  const top = Math.floor((H - h) / 2);
  const canvas: GrayImage = { width: W, height: H, data: new Uint8Array(W * H).fill(255) };
  for (let y = 0; y < h; y++) canvas.data.set(gray.data.subarray(y * w, (y + 1) * w), (y + top) * W + left);
  const turned = rotateSmall(canvas, angle);
  const origin = raster.offset ?? { x: 0, y: 0 };
  const offset = { x: origin.x - left / raster.scale, y: origin.y - top / raster.scale };
  return {
    raster: { ...raster, offset, image: { data: grayToRgba(turned), width: W, height: H } },
    angle,
    centre: { x: offset.x + (W - 1) / 2 / raster.scale, y: offset.y + (H - 1) / 2 / raster.scale },
  };
}

/**
 * Takes a box read on a `levelled` raster back onto the page (`width` x `height`): its corners
 * turned back about `centre` by `angle`, and the upright box around them, within the page.
 */
export function turnedBack(angle: number, centre: { x: number; y: number }, width: number, height: number): (b: Box) => Box {
  const a = (angle * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  return (b) => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const [x, y] of [
      [b.x, b.y],
      [b.x + b.w, b.y],
      [b.x, b.y + b.h],
      [b.x + b.w, b.y + b.h],
    ] as const) {
      const u = x - centre.x;
      const v = y - centre.y;
      xs.push(centre.x + u * cos - v * sin);
      ys.push(centre.y + u * sin + v * cos);
    }
    const x0 = Math.max(0, Math.floor(Math.min(...xs)));
    const y0 = Math.max(0, Math.floor(Math.min(...ys)));
    const x1 = Math.min(width, Math.ceil(Math.max(...xs)));
    const y1 = Math.min(height, Math.ceil(Math.max(...ys)));
    return { x: x0, y: y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
  };
}

/**
 * As `turnedBack`, but each box keeps its size, upright and centred where its centre turns back to:
 * a line's own height, which the box around it turned overstates (a translation's size follows it),
 * as boxes read on a photo's flattened page are put back (`picture/lying-page.ts`).
 */
export function turnedBackAlike(angle: number, centre: { x: number; y: number }, width: number, height: number): (b: Box) => Box {
  const a = (angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(a), Math.sin(a)];
  return (b) => {
    const [u, v] = [b.x + b.w / 2 - centre.x, b.y + b.h / 2 - centre.y];
    const [x, y] = [centre.x + u * cos - v * sin, centre.y + u * sin + v * cos];
    return clampToPage({ x: x - b.w / 2, y: y - b.h / 2, w: b.w, h: b.h }, width, height);
  };
}
