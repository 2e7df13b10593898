import type { Box } from "../../shared/engine-contract";
import { readsLatin } from "../../shared/ocr-models";
import type { GrayImage } from "../image/gray";
import { enlargeGray } from "../image/lanczos";
import { MAX_OCR_PIXELS } from "../memory";
import { findPictureText } from "./strip-windows";
import type { PictureText } from "./text-blocks";

/**
 * Median letter height (page pixels) of a page's blocks below which its lettering in Latin script
 * is found and read on the page enlarged `ENLARGE` times (Lanczos), where that stays within the
 * pixels tesseract is given at most: `006013` scaled to 50, 60 and 65 % of its size (letters of 7–9
 * px) read 51.7 → 66.2 %, 67.6 → 76.6 % and 70.3 → 75.9 % of its words so; at 70 and 80 % (10 px)
 * 80.0 → 77.2 % and 77.2 → 76.6 %, and at 90 % (12 px) the same, so those are read as they are.
 * Kana and ideographs read as well at 10 px as enlarged.
 */
const SMALL_LETTERS = 10;
const ENLARGE = 2;

/** Whether a page's lettering is in Latin script and small (`SMALL_LETTERS`), and the page small enough to enlarge. */
function smallLatinLettering(page: GrayImage, found: PictureText, languages: string[]): boolean {
  const glyphs = found.blocks.map((b) => b.glyph).sort((a, b) => a - b);
  return (
    glyphs.length > 0 &&
    glyphs[glyphs.length >> 1]! < SMALL_LETTERS &&
    page.width * page.height * ENLARGE * ENLARGE <= MAX_OCR_PIXELS &&
    languages.length > 0 &&
    languages.every((code) => readsLatin([code]))
  );
}

/**
 * A picture's text blocks as its reading finds them (`findPictureText`), with the page they were
 * found on: the page itself, or, where its lettering is small, the page enlarged `factor` times.
 */
export function findLettering(page: GrayImage, languages: string[]): { page: GrayImage; found: PictureText; factor: number } {
  const found = findPictureText(page);
  if (!smallLatinLettering(page, found, languages)) return { page, found, factor: 1 };
  const large = enlargeGray(page, ENLARGE);
  return { page: large, found: findPictureText(large), factor: ENLARGE };
}

/** A box on a page enlarged `factor` times taken back onto the page: whole pixels, around it. */
export function boxBack(b: Box, factor: number): Box {
  const x = Math.floor(b.x / factor),
    y = Math.floor(b.y / factor);
  return { x, y, w: Math.max(1, Math.ceil((b.x + b.w) / factor) - x), h: Math.max(1, Math.ceil((b.y + b.h) / factor) - y) };
}

/**
 * Text blocks found on a page enlarged `factor` times, in the page's own pixels: their boxes and
 * frames taken back (`boxBack`), their letter heights divided, the analysis rasters as they are at
 * `factor` times as many analysis pixels a page pixel.
 */
export function foundOnPage(found: PictureText, factor: number): PictureText {
  if (factor === 1) return found;
  return {
    ...found,
    scale: found.scale * factor,
    blocks: found.blocks.map((b) => ({ ...b, box: boxBack(b.box, factor), frame: boxBack(b.frame, factor), glyph: b.glyph / factor })),
  };
}
