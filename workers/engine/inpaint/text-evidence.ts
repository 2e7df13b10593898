import type { InpaintRegion } from "../contract";
import type { GrayImage } from "../image/gray";
import { readable, wordsIn } from "./leftover";
import { keepInkIn, lineHeightOf, rectOf, type RegionInk } from "./mask";

/**
 * Texture level (mask.ts `ZoneInk.texture`) above which a zone's background stands out from its
 * stroke-free estimate about as much as ink does: the ink threshold there (max(24, 1.15·t + 8))
 * has left its floor, so contrast alone no longer tells glyphs from foliage, grain or stripes.
 */
export const TEXTURED = 14;
/** Words read at least this sure are text worth removing (a little below the leftover check's 0.6: text on a photograph reads less surely). */
const WORD_CONFIDENCE = 0.5;
/** Letters or digits: a word of any length qualifies once its line holds one readable word. */
const ALNUM = /[\p{L}\p{N}]/u;

/** What the text check decided for a page. */
export interface TextEvidence {
  /** Whether zones were checked at all (a textured page with OCR models). */
  checked: boolean;
  /** Zones checked and zones in which nothing was read as text (their ink is left alone). */
  zones: number;
  rejected: number;
}

/**
 * On a page where any text zone lies on texture (a photograph, patterned paper), layout analysis
 * also takes foliage, bricks or stripes for lines of text, and their "ink" is the picture itself.
 * There every zone is read (tesseract, one block) and its ink is kept only inside words read as
 * text: at least one word of two letters or digits (or one CJK character) read with
 * WORD_CONFIDENCE on the line, and then the line's confident words. A zone with no such word
 * keeps no ink, so the picture under it is not touched. Pages on flat colour, gradients or
 * two-tone backgrounds are left as found (their ink is glyphs; no OCR is spent).
 */
export async function confirmText(models: R2Bucket, gray: GrayImage, regions: InpaintRegion[], found: RegionInk[], languages: string[]): Promise<TextEvidence> {
  const textured = found.some((f) => f.inks.some((k) => k.texture > TEXTURED && k.at.length > 0));
  const evidence: TextEvidence = { checked: false, zones: 0, rejected: 0 };
  if (!textured || !languages.length) return evidence;
  evidence.checked = true;
  for (const [i, f] of found.entries()) {
    const pad = Math.max(2, Math.round(lineHeightOf(regions[i]!) * 0.15));
    for (const [k, z] of f.zones.entries()) {
      const ink = f.inks[k]!;
      if (!ink.at.length) continue;
      evidence.zones++;
      const words = await wordsIn(models, gray, { x: z.x0, y: z.y0, w: z.x1 - z.x0, h: z.y1 - z.y0 }, languages);
      const text = words.some((w) => readable(w, WORD_CONFIDENCE)) ? words.filter((w) => w.confidence >= WORD_CONFIDENCE && ALNUM.test(w.text)) : [];
      if (!text.length) evidence.rejected++;
      keepInkIn(ink, gray.width, text.map((w) => rectOf(w.box, pad, gray.width, gray.height)));
    }
  }
  return evidence;
}
