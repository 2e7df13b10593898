/**
 * Whether a text is lettered in capitals, as comics are: at least four cased letters, nearly all
 * of them upper case. Its translation is then set in capitals too.
 */
export function letteredInCapitals(text: string): boolean {
  const { upper, lower } = casedLetters(text);
  return upper + lower >= 4 && upper >= 0.85 * (upper + lower);
}

/**
 * A translation as its region is lettered: in capitals (in the target language's own way, e.g.
 * Turkish i → İ) where the style says `lettering: "caps"`, else as given.
 */
export function asLettered(text: string, lettering: unknown, language?: string | null): string {
  if (lettering !== "caps") return text;
  try {
    return text.toLocaleUpperCase(language ?? undefined);
  } catch {
    // A language tag the runtime does not take as a locale: capitals without its rules.
    return text.toUpperCase();
  }
}

/** Whether a text holds a letter of a script with case (Latin, Greek, Cyrillic), unlike kana or ideographs. */
export function hasCase(text: string): boolean {
  return /[\p{Lu}\p{Ll}]/u.test(text);
}

function casedLetters(text: string): { upper: number; lower: number } {
  return { upper: text.match(/\p{Lu}/gu)?.length ?? 0, lower: text.match(/\p{Ll}/gu)?.length ?? 0 };
}

/**
 * Which of a page's balloons are lettered in capitals: each one whose own text is, and, on a page
 * lettered in capitals (most of its balloons of four letters or more are), also a short one ("NO!")
 * or one misread in part ("Die IT!") whose cased letters are at least half upper case. A caption
 * in script ("A mighty heave upward!") is not.
 */
export function balloonsInCapitals(texts: string[]): boolean[] {
  const own = texts.map(letteredInCapitals);
  const cased = texts.map(casedLetters);
  const page = 2 * own.filter(Boolean).length > cased.filter((c) => c.upper + c.lower >= 4).length;
  return cased.map(({ upper, lower }, i) => own[i]! || (page && upper > 0 && upper >= lower));
}

/** Languages whose text is set in columns where the original's was (Chinese and Japanese). */
const COLUMN_LANGUAGES = new Set(["ja", "jpn", "zh", "chi_sim", "chi_tra", "zh-Hans", "zh-Hant"]);

/** Whether a translation into `language` keeps a vertical original's columns. */
export function setInColumns(language: string | null | undefined): boolean {
  return !!language && COLUMN_LANGUAGES.has(language);
}

/**
 * Languages whose balloons are lettered in columns whatever the original's direction: manga in
 * Japanese and in Traditional Chinese are.
 */
const BALLOON_COLUMN_LANGUAGES = new Set(["ja", "jpn", "chi_tra", "zh-Hant"]);
/** A balloon at least this many times as wide as it is high is a caption strip, lettered in rows. */
const STRIP = 2;

/**
 * Whether a translation into `language` is set in columns: where the original was (`vertical`) in
 * a language written in them, and in a balloon or caption box (`frame`, pictures) translated into
 * a language whose comics are lettered in columns, unless the box is a strip much wider than high.
 */
export function setVertically(language: string | null | undefined, vertical: boolean, frame?: { w: number; h: number } | null): boolean {
  if (!setInColumns(language)) return false;
  if (vertical) return true;
  return !!frame && BALLOON_COLUMN_LANGUAGES.has(language!) && frame.w < STRIP * frame.h;
}
