import type { GrayImage } from "../image/gray";
import { findTextBlocks, isTallStrip, STRIP_ACROSS, type PictureText, type TextBlock } from "./text-blocks";

/** Rows two windows share, in widths: more than a balloon is tall, so each balloon is whole in one. */
const OVERLAP = 0.5;

/**
 * The text blocks of a picture (`findTextBlocks`). A tall strip larger than the analysis side (a
 * webtoon episode, panels stacked in one column) is analysed in windows of 1:2 down its length,
 * each as a page is: its lettering keeps the size it has on a page, and each window's analysis the
 * memory a page's takes. A block belongs to the window whose own rows (up to the middle of the rows
 * it shares with its neighbours) hold its centre. The strip's `art`, `drawn` and `glyphs` are its
 * windows', weighted by the rows each owns.
 */
export function findPictureText(page: GrayImage): PictureText {
  const { width: W, height: H } = page;
  if (!isTallStrip(W, H)) return findTextBlocks(page);
  // Windows of 1:2, as the longest pages analysed whole.
  const span = Math.round(W / STRIP_ACROSS);
  const step = span - Math.round(OVERLAP * W);
  const starts: number[] = [];
  for (let y = 0; y + span < H; y += step) starts.push(y);
  starts.push(H - span);
  // Window k owns page rows [cuts[k], cuts[k + 1]): the middle of each shared run of rows.
  const cuts = [0, ...starts.slice(1).map((s, k) => Math.round((s + starts[k]! + span) / 2)), H];

  const blocks: TextBlock[] = [];
  // Each window's runs (a run in the rows two windows share is counted in both).
  const runs: number[] = [];
  let merged: Pick<PictureText, "owner" | "shapes" | "width" | "height" | "scale"> | null = null;
  let art = 0,
    drawn = 0,
    glyphs = 0;
  for (let k = 0; k < starts.length; k++) {
    const y0 = starts[k]!;
    const found = findTextBlocks({ width: W, height: span, data: page.data.subarray(y0 * W, (y0 + span) * W) });
    const { scale, width: aw, height: ah } = found;
    if (!merged) {
      const height = Math.round((H - span) * scale) + ah;
      merged = { owner: new Uint16Array(aw * height), shapes: new Uint8Array(aw * height), width: aw, height, scale };
    }
    const [from, to] = [cuts[k]!, cuts[k + 1]!];
    const share = (to - from) / H;
    art += found.art * share;
    drawn += found.drawn * share;
    glyphs += found.glyphs * share;
    runs.push(...found.runs);
    // The window's blocks whose centres lie in its own rows, numbered on after the strip's.
    const ids = new Uint16Array(found.blocks.length + 1);
    found.blocks.forEach((b, i) => {
      const middle = y0 + b.box.y + b.box.h / 2;
      if (middle < from || middle >= to || blocks.length >= 65535) return;
      blocks.push({ ...b, box: { ...b.box, y: b.box.y + y0 }, frame: { ...b.frame, y: b.frame.y + y0 } });
      ids[i + 1] = blocks.length;
    });
    const oy = Math.round(y0 * scale);
    const [ownFrom, ownTo] = [Math.round(from * scale) - oy, Math.round(to * scale) - oy];
    for (let r = 0; r < ah && oy + r < merged.height; r++) {
      const at = (oy + r) * aw;
      for (let x = 0; x < aw; x++) {
        const id = ids[found.owner[r * aw + x]!]!;
        if (id) merged.owner[at + x] = id;
        if (r >= ownFrom && r < ownTo) merged.shapes[at + x] = found.shapes[r * aw + x]!;
      }
    }
  }
  return { ...merged!, blocks, art, drawn, glyphs: Math.round(glyphs), runs };
}
