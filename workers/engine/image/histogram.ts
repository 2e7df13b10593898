/** Counts of each gray level (0..255) of `data`. */
export function grayHistogram(data: Uint8Array): Uint32Array {
  const h = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) h[data[i]!]!++;
  return h;
}

/** The first level of a histogram below which (itself included) more than `q` (0..1) of its count lies; -1 when it is empty. */
export function histogramQuantile(counts: Uint32Array, q: number): number {
  let total = 0;
  for (const c of counts) total += c;
  let seen = 0;
  for (let v = 0; v < counts.length; v++) if ((seen += counts[v]!) > q * total) return v;
  return -1;
}

/** The median level of a histogram; -1 when it is empty. */
export function medianLevel(counts: Uint32Array): number {
  return histogramQuantile(counts, 0.5);
}
