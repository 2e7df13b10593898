import type { Box, LineText, PageText, RegionText, WordText } from "../../shared/engine-contract";
import { groupLines, unionBox } from "./group-lines";
import type { HocrBlock, HocrBox } from "./hocr";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
/** Chinese and Japanese are written without spaces; Korean puts spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * Joins words with spaces, except between Chinese or Japanese characters (which are written
 * without them) and between such text and punctuation next to it.
 */
export function joinWords(words: string[]): string {
  let out = "";
  for (const w of words) {
    if (!w) continue;
    const prev = out.at(-1);
    const tight =
      prev !== undefined &&
      ((UNSPACED.test(prev) && (UNSPACED.test(w[0]!) || /^\p{P}/u.test(w))) ||
        (/\p{P}/u.test(prev) && UNSPACED.test(w[0]!) && UNSPACED.test(out.at(-2) ?? "")));
    if (out && !tight) out += " ";
    out += w;
  }
  return out;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Maps a box from the OCR working image back to page pixels (÷ scale, + offset), clamped to the page. */
export function toPageBox(b: HocrBox, scale: number, width: number, height: number, offset = { x: 0, y: 0 }): Box {
  const x0 = Math.min(width, Math.max(0, Math.floor(offset.x + b.left / scale)));
  const y0 = Math.min(height, Math.max(0, Math.floor(offset.y + b.top / scale)));
  const x1 = Math.min(width, Math.max(x0, Math.ceil(offset.x + b.right / scale)));
  const y1 = Math.min(height, Math.max(y0, Math.ceil(offset.y + b.bottom / scale)));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** A vertical line: tesseract says so, or CJK words stacked in a tall narrow line. */
function isVertical(line: HocrBlock["lines"][number], words: WordText[]): boolean {
  if (line.vertical) return true;
  const w = line.box.right - line.box.left;
  const h = line.box.bottom - line.box.top;
  if (h < 2 * w || words.length < 2 || !words.every((x) => CJK.test(x.text))) return false;
  return words.every((x, i) => i === 0 || x.box.y >= words[i - 1]!.box.y + words[i - 1]!.box.h * 0.5);
}

/** Vertical lines grouped like horizontal ones, with the axes turned: columns run right to left. */
const turned = (b: Box): Box => ({ x: b.y, y: -(b.x + b.w), w: b.h, h: b.w });

/**
 * Builds the page's `PageText` from tesseract's blocks (`pageOfLines`). `offset` places a crop's
 * result on its page.
 */
export function buildPageText(
  blocks: HocrBlock[],
  opts: { width: number; height: number; scale: number; languages: string[]; offset?: { x: number; y: number } },
): PageText {
  const box = (b: HocrBox) => toPageBox(b, opts.scale, opts.width, opts.height, opts.offset);
  const toLine = (line: HocrBlock["lines"][number]): LineText => {
    const words: WordText[] = line.words.map((w) => ({ box: box(w.box), text: w.text, confidence: round3(w.confidence) }));
    const vertical = isVertical(line, words);
    return {
      box: box(line.box),
      text: joinWords(words.map((w) => w.text)),
      confidence: round3(mean(line.words.map((w) => w.confidence))),
      words,
      ...(vertical ? { vertical } : {}),
    };
  };
  return pageOfLines(
    blocks.flatMap((b) => b.lines.map(toLine)),
    opts,
  );
}

/**
 * A page's `PageText` from its lines in reading order. Regions are paragraphs: tesseract's lines,
 * in its reading order, grouped by `groupLines` (tesseract's own blocks and paragraphs split
 * ragged text at every short line, so they are not used).
 */
export function pageOfLines(lines: LineText[], opts: { width: number; height: number; languages: string[] }): PageText {
  // Runs of same-direction lines are grouped separately, keeping tesseract's order.
  const runs: LineText[][] = [];
  for (const l of lines) {
    const last = runs[runs.length - 1];
    if (last && !!last[0]!.vertical === !!l.vertical) last.push(l);
    else runs.push([l]);
  }
  const regions: RegionText[] = runs.flatMap((run) =>
    groupLines(run, (l) => (l.vertical ? turned(l.box) : l.box)).map((ls) => ({
      box: ls.slice(1).reduce((u, l) => unionBox(u, l.box), ls[0]!.box),
      text: ls.map((l) => l.text).join("\n"),
      confidence: round3(mean(ls.flatMap((l) => l.words.map((w) => w.confidence)))),
      lines: ls,
      ...(ls[0]!.vertical ? { vertical: true } : {}),
    })),
  );
  return {
    width: opts.width,
    height: opts.height,
    languages: opts.languages,
    text: regions.map((r) => r.text).join("\n\n"),
    confidence: round3(mean(lines.flatMap((l) => l.words.map((w) => w.confidence)))),
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
