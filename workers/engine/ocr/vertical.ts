import type { HocrBlock, HocrBox } from "./hocr";

/**
 * kor_vert in tesseract-wasm splits upright columns wrongly at 300 dpi (mode 5; native tesseract
 * does not), but reads the same columns turned a quarter counter-clockwise (each column a line,
 * the first on top) as well as native tesseract reads the upright page. So its columns are turned
 * into lines before reading, and the boxes turned back after (`turnsColumns`).
 */

/** The RGBA image turned a quarter counter-clockwise: columns become lines, the rightmost on top. */
export function columnsToLines(img: { data: Uint8ClampedArray; width: number; height: number }): {
  data: Uint8ClampedArray;
  width: number;
  height: number;
} {
  const { width: w, height: h, data: src } = img;
  const out = new Uint8ClampedArray(w * h * 4);
  // Output (u, v), width h, height w, takes source (w - 1 - v, u).
  for (let v = 0; v < w; v++) {
    for (let u = 0; u < h; u++) {
      const s = (u * w + (w - 1 - v)) * 4;
      const d = (v * h + u) * 4;
      out[d] = src[s]!;
      out[d + 1] = src[s + 1]!;
      out[d + 2] = src[s + 2]!;
      out[d + 3] = src[s + 3]!;
    }
  }
  return { data: out, width: h, height: w };
}

/** A box of the turned image back on the upright one of width `w`. */
const back = (b: HocrBox, w: number): HocrBox => ({ left: w - b.bottom, top: b.left, right: w - b.top, bottom: b.right });

/** Blocks read from the turned image, on the upright one: lines become columns (vertical). */
export function linesToColumns(blocks: HocrBlock[], w: number): HocrBlock[] {
  return blocks.map((b) => ({
    box: back(b.box, w),
    lines: b.lines.map((l) => ({ box: back(l.box, w), vertical: true, words: l.words.map((x) => ({ ...x, box: back(x.box, w) })) })),
  }));
}
