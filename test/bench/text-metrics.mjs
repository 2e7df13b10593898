// Text comparison shared by the benchmarks: edit distance, character and word error rates.

export function levenshtein(a, b) {
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** CER over code points and WER over words; CJK compared without spaces, width variants folded (NFKC). */
export function errorRates(expected, actual, cjk) {
  const norm = (s) => (cjk ? s.replace(/\s+/gu, "").normalize("NFKC") : s.replace(/\s+/gu, " ").trim());
  const e = norm(expected);
  const a = norm(actual);
  const cer = levenshtein([...e], [...a]) / Math.max(1, [...e].length);
  // CJK has no word spaces: WER is reported on characters' lines (one "word" per line).
  const ew = cjk ? expected.split("\n").map(norm) : e.split(" ");
  const aw = cjk ? actual.split("\n").map(norm).filter(Boolean) : a.split(" ");
  const wer = levenshtein(ew, aw) / Math.max(1, ew.length);
  return { cer, wer };
}

/**
 * The letters of a real page's text as the benchmarks compare them with a reference from
 * pdftotext: NFKC, zero-width non-joiners and bidi marks dropped, punctuation as spaces (pdftotext
 * drops the former and moves punctuation across spaces).
 */
export const referenceLetters = (t) =>
  t
    .normalize("NFKC")
    .replace(/[\u200c\u200e\u200f\u202a-\u202e]/g, "")
    .replace(/\p{P}/gu, " ");
