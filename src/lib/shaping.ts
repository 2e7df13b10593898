/**
 * Scripts whose letters change shape and order in ways the typesetter's renderer (resvg) gets
 * wrong: vowel signs drawn in the wrong place, conjuncts broken, spaces lost (measured with Noto
 * Sans Devanagari and Lohit Devanagari alike). Text in them is refused rather than drawn garbled.
 */
const UNSHAPED: [script: string, re: RegExp][] = [
  ["Devanagari", /\p{Script=Devanagari}/u],
  ["Bengali", /\p{Script=Bengali}/u],
  ["Gurmukhi", /\p{Script=Gurmukhi}/u],
  ["Gujarati", /\p{Script=Gujarati}/u],
  ["Oriya", /\p{Script=Oriya}/u],
  ["Tamil", /\p{Script=Tamil}/u],
  ["Telugu", /\p{Script=Telugu}/u],
  ["Kannada", /\p{Script=Kannada}/u],
  ["Malayalam", /\p{Script=Malayalam}/u],
  ["Sinhala", /\p{Script=Sinhala}/u],
  ["Myanmar", /\p{Script=Myanmar}/u],
  ["Khmer", /\p{Script=Khmer}/u],
  ["Tibetan", /\p{Script=Tibetan}/u],
];

/** Whether typesetting refuses text in the named Unicode script (as the catalogue names scripts). */
export function isUnshapedScript(script: string): boolean {
  return UNSHAPED.some(([name]) => name === script);
}

/** The first script in `text` that typesetting cannot draw correctly, or null. */
export function unshapedScript(text: string): string | null {
  return UNSHAPED.find(([, re]) => re.test(text))?.[0] ?? null;
}
