import type { Box, LineText, PageText, RegionText, WordText } from "../../shared/engine-contract";
import { withExclamations } from "./exclamations";
import { groupLines, overlapArea, unionBox } from "./group-lines";
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
    return withExclamations({
      box: box(line.box),
      text: joinWords(words.map((w) => w.text)),
      confidence: round3(mean(line.words.map((w) => w.confidence))),
      words,
      ...(vertical ? { vertical } : {}),
    });
  };
  return pageOfLines(
    blocks.flatMap((b) => b.lines.map(toLine)),
    opts,
  );
}

/** Two lines overlap when this share of the smaller one's box is covered by the other's. */
const OVERLAPPING = 0.3;

const area = (b: Box) => Math.max(0, b.w) * Math.max(0, b.h);
const linesOverlap = (a: LineText, b: LineText) => overlapArea(a.box, b.box) >= OVERLAPPING * Math.min(area(a.box), area(b.box));

/**
 * Lines in reading order: down the page (right to left for vertical text); lines side by side (their
 * middles within half a line of each other, their spans along the line apart: a word read apart
 * beside a line) in the order they are read along.
 */
function inReadingOrder(lines: LineText[], vertical: boolean): LineText[] {
  const across = (l: LineText) => (vertical ? -(l.box.x + l.box.w / 2) : l.box.y + l.box.h / 2);
  const thick = (l: LineText) => (vertical ? l.box.w : l.box.h);
  const start = (l: LineText) => (vertical ? l.box.y : l.box.x);
  const end = (l: LineText) => (vertical ? l.box.y + l.box.h : l.box.x + l.box.w);
  const besides = (row: LineText[], l: LineText) =>
    across(l) - across(row[0]!) < 0.5 * Math.min(thick(row[0]!), thick(l)) && row.every((o) => end(o) <= start(l) || end(l) <= start(o));
  const rows: LineText[][] = [];
  for (const l of [...lines].sort((p, q) => across(p) - across(q))) {
    const row = rows[rows.length - 1];
    if (row && besides(row, l)) row.push(l);
    else rows.push([l]);
  }
  return rows.flatMap((row) => row.sort((p, q) => start(p) - start(q)));
}

/**
 * Paragraphs of one direction with lines that overlap (a drop cap's line read apart from the lines
 * it spans, a word read apart beside a line) are one paragraph, its lines in reading order: set
 * apart, their translations would be drawn over each other. Paragraphs whose boxes merely overlap
 * (two columns, one of them ending in a line as wide as both) stay apart.
 */
function mergeOverlapping(groups: LineText[][]): LineText[][] {
  const out = groups.map((ls) => [...ls]);
  for (let merged = true; merged;) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++)
      for (let j = i + 1; j < out.length && !merged; j++) {
        const a = out[i]!,
          b = out[j]!;
        const vertical = !!a[0]!.vertical;
        if (vertical !== !!b[0]!.vertical || !a.some((p) => b.some((q) => linesOverlap(p, q)))) continue;
        out[i] = inReadingOrder([...a, ...b], vertical);
        out.splice(j, 1);
        merged = true;
      }
  }
  return out;
}

/**
 * A page's `PageText` from its lines in reading order. Regions are paragraphs: tesseract's lines,
 * in its reading order, grouped by `groupLines` (tesseract's own blocks and paragraphs split
 * ragged text at every short line, so they are not used); paragraphs whose lines overlap are one.
 */
export function pageOfLines(lines: LineText[], opts: { width: number; height: number; languages: string[] }): PageText {
  // Runs of same-direction lines are grouped separately, keeping tesseract's order.
  const runs: LineText[][] = [];
  for (const l of lines) {
    const last = runs[runs.length - 1];
    if (last && !!last[0]!.vertical === !!l.vertical) last.push(l);
    else runs.push([l]);
  }
  const paragraphs = mergeOverlapping(runs.flatMap((run) => groupLines(run, (l) => (l.vertical ? turned(l.box) : l.box))));
  const regions: RegionText[] = paragraphs.map((ls) => ({
    box: ls.slice(1).reduce((u, l) => unionBox(u, l.box), ls[0]!.box),
    text: ls.map((l) => l.text).join("\n"),
    confidence: round3(mean(ls.flatMap((l) => l.words.map((w) => w.confidence)))),
    lines: ls,
    ...(ls[0]!.vertical ? { vertical: true } : {}),
  }));
  return {
    width: opts.width,
    height: opts.height,
    languages: opts.languages,
    text: regions.map((r) => r.text).join("\n\n"),
    confidence: round3(mean(lines.flatMap((l) => l.words.map((w) => w.confidence)))),
    regions,
  };
}

/** Regions with every box — theirs, their lines' and their words' — taken through `f`. */
export function mapRegionBoxes(regions: RegionText[], f: (b: Box) => Box): RegionText[] {
  return regions.map((r) => ({
    ...r,
    box: f(r.box),
    lines: r.lines.map((l) => ({ ...l, box: f(l.box), words: l.words.map((w) => ({ ...w, box: f(w.box) })) })),
  }));
}

/** Letters and digits in a text. */
export const letterCount = (text: string) => text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;

export function countWords(page: PageText): number {
  return page.regions.reduce((n, r) => n + r.lines.reduce((m, l) => m + l.words.length, 0), 0);
}

/** Characters recognised: code points of the words, whitespace not counted. */
export function countChars(page: PageText): number {
  let n = 0;
  for (const r of page.regions) for (const l of r.lines) for (const w of l.words) n += [...w.text.replace(/\s+/gu, "")].length;
  return n;
}
