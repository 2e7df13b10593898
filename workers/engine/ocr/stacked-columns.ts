import { otsuThreshold } from "../image/enhance";
import type { HocrBlock, HocrBox, HocrLine } from "./hocr";
import { inkProfile, inkRuns, typicalWidth, type InkRun } from "./ink-runs";
import type { OcrRaster } from "./page-raster";

/**
 * A balloon's columns read one under the other. Read as they stand, columns of a few characters
 * give a vertical model no column to take the characters' pitch from: a balloon of five columns of
 * five read "財 の 旧 中 が / 真中 が / あま り に マー …" to native tesseract, and a kana whose
 * strokes stand apart ("い！" alone in a last column) read as strokes. Set one under the other in
 * reading order, right to left, they are one column of text as it runs on, and read whole:
 * "のみならず顔の真中があまりに突起している!". Each word goes back to the column it was read in.
 */

/** Runs of ink closer than this share of a column's width, and no wider together than `JOINED` of it, are one column (a kana's strokes, a "!"). */
const APART = 0.25;
const JOINED = 1.35;
/** A run narrower than this share of a column's width beside a column is furigana (or a mark off the text): left out. */
const RUBY = 0.6;
/** Blank between stacked columns, and around them, in a column's widths. */
const GAP = 0.2;
const MARGIN = 1;

/** The block's columns of text, right to left: runs of ink joined where they stand close, furigana left out. */
export function textColumns(gray: Uint8Array, width: number, height: number): HocrBox[] {
  const img = { width, height, data: gray };
  const t = otsuThreshold(img);
  const runs = inkRuns(inkProfile(img, t));
  const w = typicalWidth(runs);
  if (!w) return [];
  const joined: InkRun[] = [];
  for (const r of runs) {
    const last = joined[joined.length - 1];
    if (last && r.x0 - last.x1 < APART * w && r.x1 - last.x0 <= JOINED * w) ((last.x1 = r.x1), (last.ink += r.ink));
    else joined.push({ ...r });
  }
  const columns = joined.filter((r, i) => {
    if (r.x1 - r.x0 >= RUBY * w) return true;
    // A narrow run close beside a column is furigana; standing apart, a column of its own ("！").
    const near = [joined[i - 1], joined[i + 1]].some((o) => o && o.x1 - o.x0 >= RUBY * w && Math.max(o.x0 - r.x1, r.x0 - o.x1) < APART * w);
    return !near;
  });
  return columns
    .map((c) => {
      let top = height,
        bottom = 0;
      for (let y = 0; y < height; y++)
        for (let x = c.x0; x < c.x1; x++)
          if (gray[y * width + x]! <= t) {
            top = Math.min(top, y);
            bottom = Math.max(bottom, y + 1);
            break;
          }
      return { left: c.x0, top, right: c.x1, bottom };
    })
    .filter((c) => c.bottom > c.top)
    .reverse();
}

/**
 * Reads a block of columns stacked into one (see above) with `read` (a vertical model, mode 5);
 * null when it holds fewer than two columns. Boxes are the block raster's.
 */
export async function readStacked(raster: OcrRaster, read: (raster: OcrRaster) => Promise<HocrBlock[]>): Promise<HocrBlock[] | null> {
  const { data, width, height } = raster.image;
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = data[i * 4]!;
  const columns = textColumns(gray, width, height);
  if (columns.length < 2) return null;
  const w = Math.max(...columns.map((c) => c.right - c.left));
  const gap = Math.max(2, Math.round(GAP * w)),
    margin = Math.round(MARGIN * w);
  const outW = w + 2 * margin;
  const outH = columns.reduce((n, c) => n + c.bottom - c.top, 0) + gap * (columns.length - 1) + 2 * margin;
  const out = new Uint8ClampedArray(outW * outH * 4).fill(255);
  // Where each column lies in the stack: its top and its shift across.
  const placed = columns.map((c) => ({ c, y: 0, dx: 0 }));
  let y = margin;
  for (const p of placed) {
    p.y = y;
    p.dx = margin + Math.round((w - (p.c.right - p.c.left)) / 2) - p.c.left;
    for (let sy = p.c.top; sy < p.c.bottom; sy++) {
      const from = (sy * width + p.c.left) * 4;
      out.set(data.subarray(from, from + (p.c.right - p.c.left) * 4), ((y + sy - p.c.top) * outW + p.c.left + p.dx) * 4);
    }
    y += p.c.bottom - p.c.top + gap;
  }
  const read_ = await read({ ...raster, image: { data: out, width: outW, height: outH } });
  const words = read_.flatMap((b) => b.lines.flatMap((l) => l.words));
  const lines: HocrLine[] = placed.map((p) => ({ box: p.c, words: [], vertical: true }));
  for (const word of words) {
    const cy = (word.box.top + word.box.bottom) / 2;
    let k = placed.findIndex((p) => cy < p.y + p.c.bottom - p.c.top + gap / 2);
    if (k < 0) k = placed.length - 1;
    const p = placed[k]!;
    const dy = p.c.top - p.y;
    const box = {
      left: Math.max(p.c.left, word.box.left - p.dx),
      right: Math.min(p.c.right, word.box.right - p.dx),
      top: Math.max(p.c.top, word.box.top + dy),
      bottom: Math.min(p.c.bottom, word.box.bottom + dy),
    };
    lines[k]!.words.push({ ...word, box: box.right > box.left && box.bottom > box.top ? box : p.c });
  }
  const kept = lines.filter((l) => l.words.length);
  if (!kept.length) return [];
  const union = (a: HocrBox, b: HocrBox) => ({
    left: Math.min(a.left, b.left),
    top: Math.min(a.top, b.top),
    right: Math.max(a.right, b.right),
    bottom: Math.max(a.bottom, b.bottom),
  });
  return [{ box: kept.map((l) => l.box).reduce(union), lines: kept }];
}
