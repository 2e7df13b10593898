import type { Box, LineText, PageText, RegionText, WordText } from "../contract";
import { groupLines, unionBox } from "../layout/group-lines";
import type { HocrBlock, HocrBox } from "./hocr";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/** Joins words with spaces, except between CJK characters (which are written without them). */
export function joinWords(words: string[]): string {
  let out = "";
  for (const w of words) {
    if (out && !(CJK.test(out.at(-1)!) && CJK.test(w[0]!))) out += " ";
    out += w;
  }
  return out;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Maps a box from the OCR working image back to page pixels (÷ scale), clamped to the page. */
export function toPageBox(b: HocrBox, scale: number, width: number, height: number): Box {
  const x0 = Math.min(width, Math.max(0, Math.floor(b.left / scale)));
  const y0 = Math.min(height, Math.max(0, Math.floor(b.top / scale)));
  const x1 = Math.min(width, Math.max(x0, Math.ceil(b.right / scale)));
  const y1 = Math.min(height, Math.max(y0, Math.ceil(b.bottom / scale)));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/**
 * Builds the page's `PageText`. Regions are paragraphs: tesseract's lines, in its reading
 * order, grouped by `groupLines` (tesseract's own blocks and paragraphs split ragged text at
 * every short line, so they are not used).
 */
export function buildPageText(
  blocks: HocrBlock[],
  opts: { width: number; height: number; scale: number; languages: string[] },
): PageText {
  const { width, height, scale } = opts;
  const box = (b: HocrBox) => toPageBox(b, scale, width, height);
  const allWords: number[] = [];
  const toLine = (l: HocrBlock["lines"][number]): LineText => {
    const words: WordText[] = l.words.map((w) => ({ box: box(w.box), text: w.text, confidence: round3(w.confidence) }));
    allWords.push(...l.words.map((w) => w.confidence));
    return {
      box: box(l.box),
      text: joinWords(words.map((w) => w.text)),
      confidence: round3(mean(l.words.map((w) => w.confidence))),
      words,
    };
  };
  const regions: RegionText[] = groupLines(blocks.flatMap((b) => b.lines.map(toLine)), (l) => l.box).map((lines) => ({
    box: lines.slice(1).reduce((u, l) => unionBox(u, l.box), lines[0]!.box),
    text: lines.map((l) => l.text).join("\n"),
    confidence: round3(mean(lines.flatMap((l) => l.words.map((w) => w.confidence)))),
    lines,
  }));
  return {
    width,
    height,
    languages: opts.languages,
    text: regions.map((r) => r.text).join("\n\n"),
    confidence: round3(mean(allWords)),
    regions,
  };
}

export function countWords(page: PageText): number {
  return page.regions.reduce((n, r) => n + r.lines.reduce((m, l) => m + l.words.length, 0), 0);
}

/** Characters recognised: code points of the words, whitespace not counted. */
export function countChars(page: PageText): number {
  let n = 0;
  for (const r of page.regions) for (const l of r.lines) for (const w of l.words) n += [...w.text.replace(/\s+/gu, "")].length;
  return n;
}
