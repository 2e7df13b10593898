/**
 * Whether a text is lettered in capitals, as comics are: at least four cased letters, nearly all
 * of them upper case. Its translation is then set in capitals too.
 */
export function letteredInCapitals(text: string): boolean {
  const upper = text.match(/\p{Lu}/gu)?.length ?? 0;
  const lower = text.match(/\p{Ll}/gu)?.length ?? 0;
  return upper + lower >= 4 && upper >= 0.85 * (upper + lower);
}

/** Languages whose text is set in columns where the original's was (Chinese and Japanese). */
const COLUMN_LANGUAGES = new Set(["ja", "jpn", "zh", "chi_sim", "chi_tra", "zh-Hans", "zh-Hant"]);

/** Whether a translation into `language` keeps a vertical original's columns. */
export function setInColumns(language: string | null | undefined): boolean {
  return !!language && COLUMN_LANGUAGES.has(language);
}
