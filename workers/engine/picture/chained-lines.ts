/**
 * Heavy lettering packed into a caption box runs together: its letters touch one another and the
 * box's border, and a run of touching letters is one shape larger than any letter, so it is no
 * mark. The letters on either side of such a run are then two groups on the one ground, and the
 * caption was read as two blocks, each cut through the run ("IN OUR NEXT ISSUE…ANOTHER BANGUP
 * TERROR TWINS ADVENTURE!" on `006013` at 90 % of its size: nothing read). Two groups are one
 * text when they stand on the same ground, side by side on the same lines, with letters alike in
 * size, the ground snug around them (a caption or a balloon, not a page's open paper), and ink
 * between them along their lines (the run of letters; two texts on one ground have ground between
 * them).
 */

/** A group of letters as placed on the analysis raster. */
export interface LetterGroup {
  ground: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Height of its letters (`lineHeight`). */
  glyph: number;
}

/** Letter heights between the groups, at most. */
const REACH = 4;
/** Share of the shorter group's rows the two share, at least. */
const SAME_LINES = 0.5;
/** Ratio of letter heights within which the groups' letters are alike. */
const ALIKE = 1.5;
/** Letter heights the ground stands above and below their lines, at most (a caption or balloon). */
const SNUG = 3;
/** Share of the space between them, along their lines, that is ink (letters run together), at least. */
const INKED = 0.15;

/** Marks this many times as tall as the group's lower quartile are letters of two lines run together. */
const TWO_LINES = 1.8;

/** The median height of a group's marks (`heights`), marks of two lines run together (`TWO_LINES`) aside. */
export function lineHeight(heights: number[]): number {
  const sorted = [...heights].sort((a, b) => a - b);
  const low = sorted[(sorted.length - 1) >> 2]!;
  const lines = sorted.filter((x) => x <= TWO_LINES * low);
  return lines[lines.length >> 1]!;
}

/** A text: the indices of its groups, and the spaces between them that hold its letters run together. */
export interface ChainedText {
  groups: number[];
  /** [x0, y0, x1, y1] on the analysis raster: between two joined groups, across the lines of both. */
  runs: [number, number, number, number][];
}

/**
 * The groups partitioned into the texts they make (each group alone, or with the groups it
 * joins); `ink` is the analysis raster's ink mask (`width` wide), `groundBox` a ground's box as
 * [x0, y0, x1, y1].
 */
export function chainedTexts(
  groups: LetterGroup[],
  ink: Uint8Array,
  width: number,
  groundBox: (g: number) => [number, number, number, number],
): ChainedText[] {
  const parent = groups.map((_, i) => i);
  const root = (a: number): number => (parent[a] === a ? a : (parent[a] = root(parent[a]!)));
  const order = groups.map((_, i) => i).sort((a, b) => groups[a]!.x0 - groups[b]!.x0);
  const runs: [number, [number, number, number, number]][] = [];
  for (let s = 0; s < order.length; s++) {
    for (let t = s + 1; t < order.length; t++) {
      const a = groups[order[s]!]!,
        b = groups[order[t]!]!;
      if (a.ground !== b.ground) continue;
      const glyph = Math.max(a.glyph, b.glyph);
      if (glyph > ALIKE * Math.min(a.glyph, b.glyph)) continue;
      const [gx0, gx1] = a.x1 <= b.x0 ? [a.x1, b.x0] : [b.x1, a.x0];
      if (gx1 - gx0 > REACH * glyph || gx1 <= gx0) continue;
      const [ry0, ry1] = [Math.max(a.y0, b.y0), Math.min(a.y1, b.y1)];
      if (ry1 - ry0 < SAME_LINES * Math.min(a.y1 - a.y0, b.y1 - b.y0)) continue;
      if (!snug(groundBox(a.ground), Math.max(a.y1, b.y1) - Math.min(a.y0, b.y0), glyph)) continue;
      let inked = 0;
      for (let y = ry0; y < ry1; y++) for (let x = gx0; x < gx1; x++) inked += ink[y * width + x]!;
      if (inked < INKED * (ry1 - ry0) * (gx1 - gx0)) continue;
      parent[root(order[s]!)] = root(order[t]!);
      runs.push([order[s]!, [gx0, Math.min(a.y0, b.y0), gx1, Math.max(a.y1, b.y1)]]);
    }
  }
  const texts = new Map<number, ChainedText>();
  groups.forEach((_, i) => {
    const r = root(i);
    const t = texts.get(r);
    if (t) t.groups.push(i);
    else texts.set(r, { groups: [i], runs: [] });
  });
  for (const [i, run] of runs) texts.get(root(i))!.runs.push(run);
  return [...texts.values()];
}

/** Whether a ground (its box) stands at most `SNUG` letter heights above and below lines `rows` high: a caption or a balloon. */
const snug = ([, y0, , y1]: [number, number, number, number], rows: number, glyph: number) => y1 - y0 <= rows + SNUG * glyph;
