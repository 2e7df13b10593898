import { engineError } from "../errors";
import type { GrayImage } from "./gray";

/**
 * Ink on a page: the guard against silent blank pages. A page image that decodes or renders
 * blank although the document draws something on it, or that holds ink where recognition found
 * no text, must fail or be flagged, never pass as an empty success.
 *
 * Ink is measured on a sample grid (at most ~1 M pixels): a pixel is ink when it differs from the
 * page's dominant level (the median, i.e. the paper, light or dark) by more than INK_CONTRAST.
 */

/** Gray levels between paper and ink: well above scanner noise and JPEG ringing on white. */
const INK_CONTRAST = 64;
const MAX_SAMPLES = 1_000_000;

/** Below this share of ink a page image is blank: not a glyph's worth at any resolution (dust, a stray dot). */
export const BLANK_BELOW = 1e-5;
/**
 * From this share of ink on, a page holds marks recognition should read: one line of body text on
 * an A4 page covers about 0.15 %; dust and scanner edges stay well below.
 */
export const TEXT_INK_FROM = 5e-4;

/**
 * Below this many source pixels on its longer side, an image holds no legible word: recognition
 * needs glyphs about 10 px tall and a margin around them, so a 16x16 icon or a 24x24 emblem carries
 * at most a mark or two, not text anyone could read. Such a page with nothing recognised is
 * empty (completed, with the blank-page warning), not `no_text_found`; larger pictures without
 * text still fail, since there the ink may be handwriting or a script not asked for.
 */
export const LEGIBLE_FROM_PX = 32;

/** True when a source raster of this size can hold legible text at all. */
export function canHoldText(width: number, height: number): boolean {
  return Math.max(width, height) >= LEGIBLE_FROM_PX;
}

/** Share of the page's pixels (0..1) that are ink. */
export function inkFraction(img: GrayImage): number {
  const { width, height, data } = img;
  const step = Math.max(1, Math.ceil(Math.sqrt((width * height) / MAX_SAMPLES)));
  const hist = new Uint32Array(256);
  let n = 0;
  for (let y = 0; y < height; y += step) {
    const row = y * width;
    for (let x = 0; x < width; x += step) {
      hist[data[row + x]!]!++;
      n++;
    }
  }
  if (n === 0) return 0;
  let median = 0;
  for (let acc = 0; median < 255 && (acc += hist[median]!) < n / 2;) median++;
  let ink = 0;
  for (let v = 0; v < 256; v++) if (Math.abs(v - median) > INK_CONTRAST) ink += hist[v]!;
  return ink / n;
}

export function isBlank(img: GrayImage): boolean {
  return inkFraction(img) < BLANK_BELOW;
}

/**
 * Fails with `[empty_page_image]` when `img` is blank although the document says the page holds
 * an image or text (`what` names that content, e.g. "an embedded scan"). For decoders and
 * renderers whose failure would otherwise be a white page.
 */
export function assertInk(img: GrayImage, page: number, what: string): void {
  if (!isBlank(img)) return;
  throw engineError(
    "empty_page_image",
    `Page ${page + 1} came out blank although the document draws ${what} on it: its content could not be decoded. The page is not charged.`,
  );
}
