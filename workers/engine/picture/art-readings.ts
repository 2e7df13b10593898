import type { RegionText } from "../../shared/engine-contract";
import { hasCase, letteredInCapitals } from "../../shared/lettering";
import { readsLatin } from "../../shared/ocr-models";
import { letterCount } from "../ocr/page-text";

// Art read as text: what tesseract makes of a drawing's strokes taken for lettering, told apart from
// lettering by what it reads (scraps, strokes, letters of another script) and how surely.

/**
 * A line of a block too unsure as a whole is kept when read at least this surely on its own, with
 * a word of `WORD_ALONE` letters or more (art read as text gives short words: "ツン", "oy").
 */
export const LINE_ALONE = 0.8;
export const WORD_ALONE = 3;

/**
 * A reading by models of other scripts (Japanese, Chinese, Korean) that is mostly Latin letters,
 * read less surely than a line alone must be: hatching and strands of hair read as letters ("NN",
 * "N N N N", "\ \ KM しか" on manga pages). Lettering in Latin letters there reads surely, or is
 * read by a Latin model the page's languages name too.
 */
export function latinScrap(region: RegionText, readers: string[]): boolean {
  if (readsLatin(readers)) return false;
  const latin = region.text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  const letters = region.text.match(/\p{L}/gu)?.length ?? 0;
  return latin > 0 && 2 * latin >= letters && region.confidence < LINE_ALONE;
}

/**
 * A reading of lines cut apart is kept only when letters outnumber its other marks twice over:
 * art cut into strips reads as strokes and symbols ("\ て\ て\_ にと").
 */
export function mostlyLetters(region: RegionText): boolean {
  const letters = letterCount(region.text);
  const others = region.text.match(/[^\p{L}\p{N}\s]/gu)?.length ?? 0;
  return others * 2 <= letters;
}

/**
 * A reading of at most this many letters, none a capital, on a page lettered in capitals is art read
 * as text; so is one of at most `MIXED_SCRAP_LETTERS` letters in mixed case ("Vr", "Ws").
 */
const SCRAP_LETTERS = 6;
const MIXED_SCRAP_LETTERS = 3;

/**
 * A reading of a few letters, none a capital ("oe m!") or some in lower case, or with no two
 * letters together ("“U4", "I 7"): on a page lettered in capitals, art read as text.
 */
const scrap = (r: RegionText) => {
  const n = letterCount(r.text);
  return (
    (!/\p{Lu}/u.test(r.text) && n <= SCRAP_LETTERS) || (/\p{Ll}/u.test(r.text) && n <= MIXED_SCRAP_LETTERS) || !/\p{L}{2}/u.test(r.text)
  );
};

/**
 * Whether a block's reading is nothing, or nothing but scraps in a cased script (a short reading
 * in Japanese or Arabic, which have no capitals, is no scrap): worth reading another way.
 */
export const scraps = (rs: RegionText[]) => rs.every((r) => scrap(r) && !/\p{Lo}/u.test(r.text));

/**
 * A reading of at most `MIXED_SCRAP_LETTERS` letters in a script without capitals (Japanese,
 * Chinese), read less surely than a line alone must be: art read as kana ("てて", "ゾブノ", "い(いき"
 * on a photographed manga page). Short words in balloons ("これ") read at 0.95.
 */
const uncasedScrap = (r: RegionText) => !hasCase(r.text) && letterCount(r.text) <= MIXED_SCRAP_LETTERS && r.confidence < LINE_ALONE;

/**
 * The regions without the scraps read in the art: short lower-case readings on a page lettered in
 * capitals, short unsure readings in scripts without capitals.
 */
export function withoutScraps(regions: RegionText[]): RegionText[] {
  const capitals = letteredInCapitals(regions.map((r) => r.text).join(" "));
  return regions.filter((r) => !(capitals && scrap(r)) && !uncasedScrap(r));
}
