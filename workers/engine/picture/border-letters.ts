import { labelComponents, type Components } from "./components";

/** A caption box's interior is at most this many letter heights higher than its text. */
const SNUG = 3;
/** Share of a row or column just inside each side of the ground's box that is ground, for a box drawn square. */
const SQUARE_SIDE = 0.5;

/**
 * Where lettering fills a caption box, heavy letters run into its border and become one shape
 * with it, larger than any letter, so no ground encloses them: "NEXT INSTANT…" was read
 * "INSTANT". Inside a snug, square caption (its ground fills its box up to its top, its bottom and
 * one end; an oval balloon's does not) and along the block's lines, the ink of such shapes is the
 * border with its letters: cut off at the border's inner edge, the pieces of letter size that
 * continue the block's lines are its marks too. They are given to the block (`owner`); returns the
 * block's box grown by them (analysis pixels).
 */
export function borderLetters(
  grounds: Components,
  g: number,
  ink: { mask: Uint8Array; labels: Int32Array; letterSized: Uint8Array },
  owner: Uint16Array,
  W: number,
  id: number,
  box: [number, number, number, number],
  glyph: number,
): [number, number, number, number] {
  let [x0, y0, x1, y1] = box;
  const gx0 = grounds.x0[g]!,
    gy0 = grounds.y0[g]!,
    gx1 = grounds.x1[g]!,
    gy1 = grounds.y1[g]!;
  if (gy1 - gy0 > y1 - y0 + SNUG * glyph || gx1 - gx0 < 6 || gy1 - gy0 < 6) return box;
  const isGround = (x: number, y: number) => grounds.labels[y * W + x] === g;
  const share = (n: number, at: (k: number) => boolean) => {
    let c = 0;
    for (let k = 0; k < n; k++) if (at(k)) c++;
    return c / n;
  };
  // Rows and columns this far inside the ground's box: past the border's unevenness.
  const inset = 2;
  // Top and bottom drawn straight, and at least one end (the other may run out in a point or a tail).
  const square =
    share(gx1 - gx0, (k) => isGround(gx0 + k, gy0 + inset)) >= SQUARE_SIDE &&
    share(gx1 - gx0, (k) => isGround(gx0 + k, gy1 - 1 - inset)) >= SQUARE_SIDE &&
    (share(gy1 - gy0, (k) => isGround(gx0 + inset, gy0 + k)) >= SQUARE_SIDE ||
      share(gy1 - gy0, (k) => isGround(gx1 - 1 - inset, gy0 + k)) >= SQUARE_SIDE);
  if (!square) return box;
  // The border's shapes inside the ground's box, along the block's lines.
  const cx0 = gx0 + 1,
    cx1 = gx1 - 1;
  const cy0 = Math.max(gy0 + 1, y0 - Math.round(glyph / 2)),
    cy1 = Math.min(gy1 - 1, y1 + Math.round(glyph / 2));
  const cw = cx1 - cx0,
    ch = cy1 - cy0;
  if (cw <= 0 || ch <= 0) return box;
  const cut = new Uint8Array(cw * ch);
  for (let v = 0; v < ch; v++)
    for (let u = 0; u < cw; u++) {
      const i = (v + cy0) * W + u + cx0;
      if (ink.mask[i] && !ink.letterSized[ink.labels[i]!] && !owner[i]) cut[v * cw + u] = 1;
    }
  const pieces = labelComponents(cut, cw, ch, true);
  const letters: number[] = [];
  for (let k = 1; k <= pieces.count; k++) {
    const w = pieces.x1[k]! - pieces.x0[k]!,
      h = pieces.y1[k]! - pieces.y0[k]!;
    // What reaches the box's ends is its border (a drawn end, a point, a tail), not lettering.
    if (pieces.x0[k] === 0 || pieces.x1[k] === cw) continue;
    if (h < 0.5 * glyph || h > 2.5 * glyph || w > 5 * glyph || pieces.area[k]! < 0.12 * w * h) continue;
    letters.push(k);
  }
  // Pieces that continue the lines: beside the block (or a piece taken), overlapping its rows.
  const taken = new Set<number>();
  for (let grew = true; grew;) {
    grew = false;
    for (const k of letters) {
      if (taken.has(k)) continue;
      const px0 = pieces.x0[k]! + cx0,
        px1 = pieces.x1[k]! + cx0,
        py0 = pieces.y0[k]! + cy0,
        py1 = pieces.y1[k]! + cy0;
      const gap = Math.max(px0, x0) - Math.min(px1, x1);
      const overlap = Math.min(py1, y1) - Math.max(py0, y0);
      if (gap > 1.5 * glyph || overlap < 0.5 * (py1 - py0)) continue;
      taken.add(k);
      grew = true;
      [x0, y0, x1, y1] = [Math.min(x0, px0), Math.min(y0, py0), Math.max(x1, px1), Math.max(y1, py1)];
    }
  }
  if (!taken.size) return box;
  for (let v = 0; v < ch; v++) for (let u = 0; u < cw; u++) if (taken.has(pieces.labels[v * cw + u]!)) owner[(v + cy0) * W + u + cx0] = id;
  return [x0, y0, x1, y1];
}
