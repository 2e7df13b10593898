/**
 * Similarity of two strings as 1 − (Levenshtein distance ÷ length of the longer), the usual
 * translation-memory "fuzzy match" score: 1 for identical strings, 0.75 when a quarter of the
 * characters differ. Returns 0 as soon as the score cannot reach `min` (early exit).
 */
export function similarity(a: string, b: string, min = 0): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  const maxDistance = Math.floor((1 - min) * longer);
  if (Math.abs(a.length - b.length) > maxDistance) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let curr = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      curr[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > maxDistance) return 0;
    [prev, curr] = [curr, prev];
  }
  const distance = prev[b.length]!;
  const score = 1 - distance / longer;
  return score >= min ? score : 0;
}
