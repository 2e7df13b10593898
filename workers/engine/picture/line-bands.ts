import type { PictureText, TextBlock } from "./text-blocks";

/** A valley between lines holds less than this share of the fullest row's marks. */
const VALLEY = 0.5;
/** Lines are at least this many letter heights apart; the first and last at least MARGIN from the block's edges. */
const PITCH = 0.8;
const MARGIN = 0.8;
/** A valley is the lowest row within this many letter heights either side. */
const REACH = 0.4;

/**
 * The lines of a block of rows, page pixels (top, bottom), cut at the valleys of its marks' row
 * profile: where heavy or italic lettering makes strokes of one line touch the next, tesseract
 * reads the block as fewer, taller lines and loses them ("IN OUR NEXT ISSUE… / BANGUP TERROR TWINS
 * ADVENTURE!" read as "U8 VEER Fine HOVENTURE!"); cut apart, each line reads. One band when no
 * valley is found.
 */
export function lineBands(found: PictureText, index: number, block: TextBlock): [number, number][] {
  const { owner, scale, width: AW, height: AH } = found;
  const id = index + 1;
  const x0 = Math.max(0, Math.floor(block.box.x * scale)),
    y0 = Math.max(0, Math.floor(block.box.y * scale));
  const x1 = Math.min(AW, Math.ceil((block.box.x + block.box.w) * scale)),
    y1 = Math.min(AH, Math.ceil((block.box.y + block.box.h) * scale));
  const rows = y1 - y0;
  const profile = new Float64Array(rows);
  for (let y = 0; y < rows; y++) for (let x = x0; x < x1; x++) if (owner[(y + y0) * AW + x] === id) profile[y]!++;
  // Smoothed over three rows: a valley is no single row a stroke happens to miss.
  const smooth = Array.from(profile, (_, y) => {
    const a = Math.max(0, y - 1),
      b = Math.min(rows - 1, y + 1);
    let s = 0;
    for (let k = a; k <= b; k++) s += profile[k]!;
    return s / (b - a + 1);
  });
  const peak = Math.max(0, ...smooth);
  const glyph = block.glyph * scale;
  const reach = Math.max(1, Math.round(REACH * glyph));
  const cuts: number[] = [];
  for (let y = Math.round(MARGIN * glyph); y < rows - Math.round(MARGIN * glyph); y++) {
    if (smooth[y]! >= VALLEY * peak) continue;
    if (cuts.length && y - cuts[cuts.length - 1]! < PITCH * glyph) continue;
    let lowest = true;
    for (let k = Math.max(0, y - reach); k <= Math.min(rows - 1, y + reach) && lowest; k++) if (smooth[k]! < smooth[y]!) lowest = false;
    if (lowest) cuts.push(y);
  }
  const edges = [0, ...cuts, rows];
  return edges.slice(1).map((e, k) => [(y0 + edges[k]!) / scale, (y0 + e) / scale]);
}

/**
 * Whether a block of rows read as `linesRead` lines is read again band by band (its `bands` lines):
 * lettering whose lines tesseract ran together reads as fewer lines, or only in part (a block unsure
 * as a whole keeps the lines read surely alone: "ANOTHER" of a photographed two-line caption). Only
 * blocks read in Latin letters are cut in bands (`readsLatin`): on manga pages, models of other
 * scripts read the bands of hatching as text ("けり上 1 し", "/ リガリ 7 ガリブッ/ . ガイ/ゼリー")
 * and never a line of lettering.
 */
export function readByBands(bands: number, linesRead: number): boolean {
  return bands > 1 && linesRead < bands;
}
