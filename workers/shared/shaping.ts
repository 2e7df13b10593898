/**
 * Scripts whose letters change shape and order in ways the typesetter's renderer (resvg) gets
 * wrong: vowel signs drawn in the wrong place, conjuncts broken, spaces lost (measured with Noto
 * Sans Devanagari and Lohit Devanagari alike). Text in them is refused rather than drawn garbled.
 */
const UNSHAPED: [script: string, re: RegExp][] = [
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Myanmar",
  "Khmer",
  "Tibetan",
].map((script) => [script, new RegExp(`\\p{Script=${script}}`, "u")]);

/** Whether typesetting refuses text in the named Unicode script (as the catalogue names scripts). */
export function isUnshapedScript(script: string): boolean {
  return UNSHAPED.some(([name]) => name === script);
}

/** The first script in `text` that typesetting cannot draw correctly, or null. */
export function unshapedScript(text: string): string | null {
  return UNSHAPED.find(([, re]) => re.test(text))?.[0] ?? null;
}
