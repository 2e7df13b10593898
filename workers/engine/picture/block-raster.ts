import { downscaleGray, grayToRgba, upscaleGray, type GrayImage } from "../image/gray";
import { medianLevel } from "../image/histogram";
import { fitScale } from "../image/limits";
import { MAX_OCR_PIXELS, MAX_OCR_SIDE } from "../memory";
import type { OcrRaster } from "../ocr/page-raster";
import { nearMarks } from "./near-marks";
import type { PictureText, TextBlock } from "./text-blocks";

/**
 * Letter height (px) a block is brought to for reading, up (at most fourfold) or down: tesseract
 * reads capitals of 30–40 px best.
 */
const READ_GLYPH = 34;
/** How far from its marks (share of the letter height) the frame's other pixels still belong to the block's letters. */
const LETTER_REACH = 0.5;
/** Gray levels of a balloon's ground (light enough to letter on) and the level it is stretched from to white at most. */
const GROUND = 140;
const LIGHT = 230;
/** Levels above its ground's median that are stretched to white: the ground comes out near white, its grain never as ink. */
const HEADROOM = 20;

/**
 * The block's text alone: its marks (and their anti-aliased edges) on white, everything else of
 * the picture — art, the balloon's outline, other blocks — blanked, at the letter height tesseract
 * reads best (`enlarge`: small lettering enlarged, a large title reduced, to `glyph` pixels;
 * vertical models scale columns their own way). Contrast is stretched from the marks' ink to white.
 */
export function blockRaster(
  page: GrayImage,
  found: PictureText,
  index: number,
  block: TextBlock,
  enlarge: boolean,
  glyph = READ_GLYPH,
): OcrRaster {
  const pad = Math.max(4, Math.round(block.glyph * 0.5));
  const x0 = Math.max(0, block.box.x - pad);
  const y0 = Math.max(0, block.box.y - pad);
  const x1 = Math.min(page.width, block.box.x + block.box.w + pad);
  const y1 = Math.min(page.height, block.box.y + block.box.h + pad);
  const w = x1 - x0;
  const h = y1 - y0;
  const crop = new Uint8Array(w * h).fill(255);
  const { owner, scale, width: AW, height: AH } = found;
  const id = index + 1;
  // A page pixel is kept when an analysis pixel within one pixel of it is the block's mark, or
  // when it lies in the block's frame (its own ground), within half a letter of its marks (light
  // strokes of thin type stay whole), and is no other block's mark nor part of a larger shape.
  // Nothing else of the frame: a balloon's outline where the frame reaches into its corners, or
  // the art's halftone where its ground leaks out, at a line's ends made tesseract drop the line.
  const f = block.frame;
  const { shapes } = found;
  const reach = Math.max(1, Math.ceil(block.glyph * scale * LETTER_REACH));
  const close = nearMarks(owner, AW, AH, new Set([id]), block.box, scale, reach, reach);
  const near = (px: number, py: number) => {
    const ax = Math.floor(px * scale);
    const ay = Math.floor(py * scale);
    const framed = px >= f.x && py >= f.y && px < f.x + f.w && py < f.y + f.h;
    const a = ay * AW + ax;
    const u = ax - close.x0,
      v = ay - close.y0;
    const letterNear = u >= 0 && v >= 0 && u < close.w && v * close.w + u < close.at.length && close.at[v * close.w + u]! > 0;
    if (framed && ax < AW && ay < AH && ((owner[a] === 0 && !shapes[a] && letterNear) || owner[a] === id)) return true;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const x = ax + dx,
          y = ay + dy;
        if (x >= 0 && y >= 0 && x < AW && y < AH && owner[y * AW + x] === id) return true;
      }
    return false;
  };
  let dark = 255;
  const grounds = new Uint32Array(256);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      if (!near(x, y)) continue;
      const v = page.data[y * page.width + x]!;
      crop[(y - y0) * w + (x - x0)] = v;
      if (v < dark) dark = v;
      if (v >= GROUND) grounds[v]!++;
    }
  // The ground's own shade (a yellow caption's too) becomes near white, the ink black: a caption's
  // ground left gray was taken for ink by tesseract's threshold and the block read as nothing.
  const ground = medianLevel(grounds);
  const light = ground < 0 ? LIGHT : Math.min(LIGHT, ground + HEADROOM);
  const span = Math.max(1, light - dark);
  for (let i = 0; i < crop.length; i++) crop[i] = Math.max(0, Math.min(255, Math.round(((crop[i]! - dark) * 255) / span)));
  const factor = enlarge ? Math.min(4, glyph / block.glyph) : 1;
  const cropped = { width: w, height: h, data: crop };
  let img: GrayImage = factor >= 1 ? upscaleGray(cropped, factor) : downscaleGray(cropped, factor);
  const fit = fitScale(img.width, img.height, MAX_OCR_SIDE, MAX_OCR_PIXELS);
  img = downscaleGray(img, fit);
  return {
    width: page.width,
    height: page.height,
    scale: img.width / w,
    offset: { x: x0, y: y0 },
    image: { data: grayToRgba(img), width: img.width, height: img.height },
  };
}

/**
 * The rows of a block's raster (`blockRaster`) between page rows `top` and `bottom`, on white
 * with a quarter of their height above and below: one of its lines read alone. Boxes read on it
 * map back to the page as the block's do.
 */
export function lineRaster(raster: OcrRaster, top: number, bottom: number): OcrRaster {
  const { width, height, data } = raster.image;
  const origin = raster.offset ?? { x: 0, y: 0 };
  const from = Math.max(0, Math.floor((top - origin.y) * raster.scale));
  const to = Math.min(height, Math.max(from + 1, Math.ceil((bottom - origin.y) * raster.scale)));
  const pad = Math.ceil((to - from) / 4);
  const rows = to - from + 2 * pad;
  const out = new Uint8ClampedArray(width * rows * 4).fill(255);
  out.set(data.subarray(from * width * 4, to * width * 4), pad * width * 4);
  return {
    ...raster,
    offset: { x: origin.x, y: origin.y + (from - pad) / raster.scale },
    image: { data: out, width, height: rows },
  };
}
