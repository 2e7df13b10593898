/** Strong right-to-left letters: Hebrew, Arabic, Syriac, Thaana, NKo and the Arabic presentation forms. */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
const LETTER = /\p{L}/u;

/**
 * The direction of a text by its first strong (letter) character, as the Unicode bidi algorithm
 * and HTML's `dir="auto"` decide a paragraph's base direction.
 */
export function textDirection(text: string): "ltr" | "rtl" {
  for (const c of text) if (LETTER.test(c)) return RTL.test(c) ? "rtl" : "ltr";
  return "ltr";
}
