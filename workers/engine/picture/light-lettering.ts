import type { GrayImage } from "../image/gray";
import { boxesMeet } from "../ocr/group-lines";
import { findPictureText } from "./strip-windows";
import type { PictureText, TextBlock } from "./text-blocks";

/** The light lettering candidates of a picture (`lightLettering`). */
export interface LightLettering {
  /** The page's negative, which the candidates' marks are read from. */
  negative: GrayImage;
  /** The negative's analysis. */
  found: PictureText;
  /** Indexes in `found.blocks` of the blocks that hold more letters than the page's own blocks they meet. */
  candidates: number[];
}

/** Letters a candidate holds at least: a word, not a highlight or two. */
const MIN_GLYPHS = 3;
/**
 * Share of its box a candidate's letters (a square of its letter height each) fill at least: lines
 * of type fill a fifth to all of theirs (0.22–1.5 on photographs); a comic panel, whose border the
 * negative makes a ground around the art's highlights, holds its marks thinly (0.07–0.15).
 */
const DENSE = 0.2;

const density = (b: TextBlock) => (b.glyphs * b.glyph * b.glyph) / Math.max(1, b.box.w * b.box.h);

/**
 * Light lettering: white or pale type on a photograph, on a dark caption box, on the art. It is no
 * dark mark on a light ground, so the page's own analysis (`findPictureText`, its `dark` blocks)
 * does not see it; the page's negative shows it as one. The negative's blocks dense with letters
 * (`DENSE`) are the candidates, but for those where the page's own blocks that meet them hold as many
 * letters: that is dark lettering, whose counters the negative shows as marks (and the counters of
 * light letters are dark marks on a light ground to the page's own analysis, so a few of those do
 * not rule a candidate out). The negative also turns highlights and halftone in dark areas into
 * marks on a ground, so a candidate is kept only when it reads surely (read-picture.ts).
 */
export function lightLettering(page: GrayImage, dark: TextBlock[]): LightLettering {
  const negative: GrayImage = { width: page.width, height: page.height, data: page.data.map((v) => 255 - v) };
  const found = findPictureText(negative);
  const darkLetters = (b: TextBlock) => dark.reduce((n, d) => n + (boxesMeet(d.box, b.box) ? d.glyphs : 0), 0);
  const candidates = found.blocks.flatMap((b, i) =>
    b.glyphs >= MIN_GLYPHS && density(b) >= DENSE && darkLetters(b) < b.glyphs ? [i] : [],
  );
  return { negative, found, candidates };
}
