import type { PageInk } from "./text-blocks";

/** A ruling line runs straight, across or down, for at least this share of the page's long side… */
const RULE_LENGTH = 0.04;
/** …and is at most this many analysis pixels thick (a 2 pt rule on an A4 page judged at 1 000 px: 2.4 px). */
const RULE_THICKNESS = 4;

/**
 * Share of a page's ink that lies in ruling lines: pixels of shapes larger than any letter whose
 * run of ink across (or down) is long and whose run down (or across) is thin. A table's or a
 * form's grid is such lines almost entirely (0.98–0.99 of the large shapes of pages of ruled
 * tables alone, 0.39–0.69 where charts stand beside them), a comic page's drawing hardly (its panel
 * borders: 0.01–0.05 of its large shapes on the pages at hand, 0.16 on a 4-koma of simple
 * figures); a filled area runs long both ways and is no line.
 */
export function ruledShare({ img, inkMask, ink, candidate }: PageInk): number {
  const { width: W, height: H } = img;
  const length = Math.max(2, Math.round(RULE_LENGTH * Math.max(W, H)));
  const across = runLengths(inkMask, W, H, 1, W);
  const down = runLengths(inkMask, H, W, W, 1);
  let dark = 0,
    ruled = 0;
  for (let i = 0; i < W * H; i++) {
    if (!inkMask[i]) continue;
    dark++;
    if (candidate[ink.labels[i]!]) continue;
    const a = across[i]!,
      d = down[i]!;
    if ((a >= length && d <= RULE_THICKNESS) || (d >= length && a <= RULE_THICKNESS)) ruled++;
  }
  return dark ? ruled / dark : 0;
}

/**
 * Per pixel, the length of the run of ink it lies in along one axis: `lines` lines of `along`
 * pixels, a pixel `step` from the next along a line and `stride` from the next line.
 */
function runLengths(mask: Uint8Array, along: number, lines: number, step: number, stride: number): Uint16Array {
  const out = new Uint16Array(mask.length);
  for (let l = 0; l < lines; l++) {
    const base = l * stride;
    for (let k = 0; k < along;) {
      if (!mask[base + k * step]) {
        k++;
        continue;
      }
      let end = k;
      while (end < along && mask[base + end * step]) end++;
      const run = Math.min(65535, end - k);
      for (; k < end; k++) out[base + k * step] = run;
    }
  }
  return out;
}
