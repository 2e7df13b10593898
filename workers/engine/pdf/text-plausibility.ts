/**
 * Whether a PDF text layer can be trusted as the page's text. Layers whose fonts map glyphs to
 * the wrong characters are common (no or broken ToUnicode maps, byte-swapped UTF-16); their text
 * looks like text to a program but is not what the page shows. Such pages are recognised instead.
 */

/** Scripts expected for tesseract language codes; languages not listed are written in Latin. */
const SCRIPTS: Record<string, string[]> = {
  ara: ["Arabic"],
  fas: ["Arabic"],
  urd: ["Arabic"],
  pus: ["Arabic"],
  uig: ["Arabic"],
  heb: ["Hebrew"],
  yid: ["Hebrew"],
  rus: ["Cyrillic"],
  ukr: ["Cyrillic"],
  bul: ["Cyrillic"],
  bel: ["Cyrillic"],
  mkd: ["Cyrillic"],
  srp: ["Cyrillic"],
  kaz: ["Cyrillic"],
  mon: ["Cyrillic"],
  kir: ["Cyrillic"],
  tgk: ["Cyrillic"],
  ell: ["Greek"],
  grc: ["Greek"],
  chi_sim: ["Han"],
  chi_tra: ["Han"],
  jpn: ["Han", "Hiragana", "Katakana"],
  kor: ["Hangul", "Han"],
  hin: ["Devanagari"],
  mar: ["Devanagari"],
  nep: ["Devanagari"],
  san: ["Devanagari"],
  ben: ["Bengali"],
  tam: ["Tamil"],
  tel: ["Telugu"],
  kan: ["Kannada"],
  mal: ["Malayalam"],
  guj: ["Gujarati"],
  pan: ["Gurmukhi"],
  tha: ["Thai"],
  lao: ["Lao"],
  khm: ["Khmer"],
  mya: ["Myanmar"],
  kat: ["Georgian"],
  hye: ["Armenian"],
  amh: ["Ethiopic"],
};

const SCRIPT_NAMES = [...new Set(["Latin", ...Object.values(SCRIPTS).flat()])];
const SCRIPT_RE = Object.fromEntries(SCRIPT_NAMES.map((s) => [s, new RegExp(`\\p{Script=${s}}`, "u")]));

/** Characters a real text never holds: private use, replacement characters, controls, unassigned. */
const JUNK = /[\p{Co}\p{Cn}\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;

export interface Plausibility {
  ok: boolean;
  /** Why the layer is not trusted (for the page's warning), when it is not. */
  reason?: string;
  /**
   * A trusted layer written in another script than the requested languages' (an Arabic layer
   * asked as `eng`): kept, since OCR in the requested language cannot read that script; the page
   * says so.
   */
  otherScript?: string;
}

/**
 * A layer whose letters are at least this share in the requested scripts plus one other script is
 * real text in another language, not a mis-decoded one (words holding junk characters set aside:
 * a glyph run without a Unicode map decodes as controls and stray symbols beside the real text).
 */
const TWO_SCRIPT_SHARE = 0.9;

const scriptOf = (c: string): string | undefined => SCRIPT_NAMES.find((s) => SCRIPT_RE[s]!.test(c));

/**
 * Judges a text layer's characters against the languages requested (`auto` or none: any
 * script). Fails when more than 5 % of the letters are junk, when over a third of the code points
 * above U+00FF have a zero low byte (UTF-16 read with the wrong byte order: "M" becomes 䴀), or
 * when fewer than half of the letters are in a script of the requested languages, unless the
 * layer is plainly written in one other script (`otherScript`): then it is kept.
 */
export function judgeTextLayer(text: string, languages: string[] = []): Plausibility {
  const chars = [...text.replace(/\s+/gu, "")];
  if (chars.length === 0) return { ok: false, reason: "the text layer is empty" };
  const junk = chars.filter((c) => JUNK.test(c)).length;
  if (junk > 0.05 * chars.length)
    return { ok: false, reason: `${junk} of ${chars.length} characters are private-use, replacement or control characters` };
  const wide = chars.filter((c) => c.codePointAt(0)! > 0xff);
  const swapped = wide.filter((c) => (c.codePointAt(0)! & 0xff) === 0).length;
  if (wide.length >= 4 && swapped > wide.length / 3)
    return { ok: false, reason: "the text layer decodes as byte-swapped UTF-16 (mojibake)" };
  const known = languages.filter((l) => l !== "auto");
  if (known.length === 0) return { ok: true };
  const scripts = new Set(known.flatMap((l) => SCRIPTS[l] ?? ["Latin"]));
  const letters = chars.filter((c) => /\p{L}/u.test(c));
  if (letters.length < 8) return { ok: true };
  const inScript = letters.filter((c) => [...scripts].some((s) => SCRIPT_RE[s]!.test(c))).length;
  if (inScript >= 0.5 * letters.length) return { ok: true };
  const other = otherScript(text, scripts);
  if (other) return { ok: true, otherScript: other };
  return { ok: false, reason: `only ${inScript} of ${letters.length} letters are in the script of ${known.join("+")}` };
}

/**
 * The one script besides `requested` that a layer's clean words are written in, when together they
 * hold TWO_SCRIPT_SHARE of its letters and that script holds most of them; else undefined.
 */
function otherScript(text: string, requested: Set<string>): string | undefined {
  const words = text.split(/\s+/u).filter((w) => w && !JUNK.test(w));
  const counts = new Map<string, number>();
  let letters = 0;
  for (const c of words.flatMap((w) => [...w])) {
    if (!/\p{L}/u.test(c)) continue;
    letters++;
    const script = scriptOf(c) ?? "other";
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let inRequested = 0;
  let best: [string, number] | undefined;
  for (const [script, n] of counts) {
    if (requested.has(script)) inRequested += n;
    else if (script !== "other" && (!best || n > best[1])) best = [script, n];
  }
  if (!best || letters < 8 || best[1] <= letters / 2) return undefined;
  return inRequested + best[1] >= TWO_SCRIPT_SHARE * letters ? best[0] : undefined;
}
