/** Levenshtein edit distance between two strings, by code point. */
export function levenshtein(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  let cur = new Array<number>(t.length + 1).fill(0);
  for (let i = 1; i <= s.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[t.length]!;
}

/** Collapses every whitespace run to one space, so layout differences do not count as errors. */
export function normaliseWhitespace(s: string): string {
  return s.replace(/\s+/gu, " ").trim();
}

/** Character error rate: edit distance over the expected length, whitespace normalised. */
export function characterErrorRate(expected: string, actual: string): number {
  const e = normaliseWhitespace(expected);
  const a = normaliseWhitespace(actual);
  if (e.length === 0) return a.length === 0 ? 0 : 1;
  return levenshtein(e, a) / [...e].length;
}
