import type { Box, LineText, PageText, RegionText, WordText } from "../../shared/engine-contract";
import { otsuThreshold } from "../image/enhance";
import { cropGray } from "../image/geometry";
import type { GrayImage } from "../image/gray";
import { isBlank } from "../image/ink";
import { unionBox } from "./group-lines";
import { ocrRasterFromGray } from "./page-raster";
import { joinWords, letterCount, pageOfLines } from "./page-text";
import { recognizeWith } from "./recognize";
import { readSmallTextEnlarged } from "./small-text";
import { pageSegmentation } from "./tesseract";

/**
 * Text that tesseract's page layout leaves out. On busy pages (a boxed results table beside a
 * picture, a form) automatic layout can drop whole columns of text that it reads at once as a
 * block of their own. The page's ink is split into connected marks; marks of text size (height
 * near the read lines', not rules, frames or pictures) that lie outside every recognised word
 * are gathered into areas, and each area whose marks lie in rows of text is read again as one
 * block (tesseract mode 6). Words read confidently there join the page as regions of their own,
 * in reading order.
 */

/** Marks this much shorter or taller than the page's median line are no text of it (specks, frames, pictures). */
const MARK_MIN_H = 0.3;
const MARK_MAX_H = 1.6;
/** A mark wider than this many line heights is a rule or a drawing, not a word. */
const MARK_MAX_W = 15;
/** Marks closer than this (in line heights, across and down) belong to one area. */
const JOIN_X = 1.5;
const JOIN_Y = 0.7;
/** Areas holding less than this many marks and narrower than this many line heights are left out (stray marks). */
const AREA_MIN_MARKS = 2;
const AREA_MIN_W = 2.5;
/**
 * An area is read as text when at least this share of its marks lie in rows of text: runs of
 * rows its marks cover (across the area) no taller than `ROW_MAX_H` line heights. Lines of text
 * leave rows free between them; the letters of labels set at a slant (a chart's axis) and the
 * dots of a picture cover every row of their area, and read as nothing.
 */
const TEXT_ROWS_SHARE = 0.5;
const ROW_MAX_H = 1.8;

/** Share of `marks` lying in runs of covered rows no taller than `ROW_MAX_H` line heights. */
function inTextRows(marks: Box[], lineHeight: number): number {
  const sorted = [...marks].sort((a, b) => a.y - b.y);
  let inRows = 0;
  for (let i = 0; i < sorted.length;) {
    let end = sorted[i]!.y + sorted[i]!.h;
    let j = i + 1;
    for (; j < sorted.length && sorted[j]!.y <= end; j++) end = Math.max(end, sorted[j]!.y + sorted[j]!.h);
    if (end - sorted[i]!.y <= ROW_MAX_H * lineHeight) inRows += j - i;
    i = j;
  }
  return inRows / Math.max(1, marks.length);
}

/** At most this many areas are read again, those with the most marks first. */
const MAX_AREAS = 24;
/** Words read in an area with less confidence than this are dropped (pictures read as text). */
const WORD_MIN_CONFIDENCE = 0.6;
/** The ink is labelled at a resolution where a line is about this many pixels high. */
const LINE_CELLS = 14;

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
const centreIn = (b: Box, o: Box) =>
  b.x + b.w / 2 >= o.x && b.x + b.w / 2 <= o.x + o.w && b.y + b.h / 2 >= o.y && b.y + b.h / 2 <= o.y + o.h;
const grow = (b: Box, dx: number, dy: number): Box => ({ x: b.x - dx, y: b.y - dy, w: b.w + 2 * dx, h: b.h + 2 * dy });
const meets = (a: Box, b: Box) => a.x <= b.x + b.w && b.x <= a.x + a.w && a.y <= b.y + b.h && b.y <= a.y + a.h;

/** Connected marks of the page's dark pixels, as boxes in page pixels, labelled on cells of `f`×`f` pixels. */
function inkMarks(gray: GrayImage, f: number): { box: Box; cells: number }[] {
  const dark = Math.min(otsuThreshold(gray), 160);
  const w = Math.ceil(gray.width / f);
  const h = Math.ceil(gray.height / f);
  const ink = new Uint8Array(w * h);
  const cell = new Int32Array(gray.width);
  for (let x = 0; x < gray.width; x++) cell[x] = (x / f) | 0;
  for (let y = 0; y < gray.height; y++) {
    const row = ((y / f) | 0) * w;
    const at = y * gray.width;
    for (let x = 0; x < gray.width; x++) if (gray.data[at + x]! <= dark) ink[row + cell[x]!] = 1;
  }
  const label = new Int32Array(w * h).fill(-1);
  const marks: { box: Box; cells: number }[] = [];
  const stack: number[] = [];
  const visit = (j: number) => {
    if (ink[j] && label[j]! < 0) {
      label[j] = marks.length;
      stack.push(j);
    }
  };
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || label[start]! >= 0) continue;
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    let cells = 0;
    visit(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i / w) | 0;
      cells++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (x > 0) visit(i - 1);
      if (x < w - 1) visit(i + 1);
      if (y > 0) visit(i - w);
      if (y < h - 1) visit(i + w);
    }
    marks.push({ box: { x: x0 * f, y: y0 * f, w: (x1 - x0 + 1) * f, h: (y1 - y0 + 1) * f }, cells });
  }
  return marks;
}

/** Areas of text-sized marks outside the recognised words, in page pixels, most marks first. */
export function layoutGaps(gray: GrayImage, words: Box[], lineHeight: number): Box[] {
  const f = Math.max(1, Math.floor(lineHeight / LINE_CELLS));
  const covered = words.map((b) => grow(b, lineHeight * 0.15, lineHeight * 0.15));
  const marks = inkMarks(gray, f)
    .map((m) => m.box)
    .filter(
      (b) =>
        b.h >= MARK_MIN_H * lineHeight &&
        b.h <= MARK_MAX_H * lineHeight &&
        b.w <= MARK_MAX_W * lineHeight &&
        !covered.some((c) => centreIn(b, c)),
    );
  // Marks joined into areas (union–find over marks whose grown boxes meet).
  const parent = marks.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const grown = marks.map((b) => grow(b, (JOIN_X * lineHeight) / 2, (JOIN_Y * lineHeight) / 2));
  for (let i = 0; i < marks.length; i++)
    for (let j = i + 1; j < marks.length; j++) if (meets(grown[i]!, grown[j]!)) parent[root(i)] = root(j);
  const areas = new Map<number, { box: Box; marks: Box[] }>();
  marks.forEach((b, i) => {
    const a = areas.get(root(i));
    if (a) {
      a.box = unionBox(a.box, b);
      a.marks.push(b);
    } else areas.set(root(i), { box: b, marks: [b] });
  });
  return [...areas.values()]
    .filter((a) => a.marks.length >= AREA_MIN_MARKS || a.box.w >= AREA_MIN_W * lineHeight)
    .filter((a) => inTextRows(a.marks, lineHeight) >= TEXT_ROWS_SHARE)
    .sort((a, b) => b.marks.length - a.marks.length)
    .slice(0, MAX_AREAS)
    .map((a) => a.box);
}

/** The page's regions with `added` placed in reading order: each before the first region that starts below it. */
function withRegions(page: PageText, added: RegionText[]): PageText {
  const regions = [...page.regions];
  for (const r of [...added].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)) {
    const at = regions.findIndex((o) => o.box.y > r.box.y);
    regions.splice(at < 0 ? regions.length : at, 0, r);
  }
  return {
    ...page,
    regions,
    text: regions.map((r) => r.text).join("\n\n"),
    confidence: round3(mean(regions.flatMap((r) => r.lines.flatMap((l) => l.words.map((w) => w.confidence))))),
  };
}

/**
 * A region read in a gap, kept to its confident words of text size that no recognised word
 * already covers, nor holds again within a recognised line's box (tesseract may give a word of a
 * line a box that misses its ink: a light gray link "12," boxed 2×2 px beside it); lines without a
 * word of two letters or digits are dropped (marks of a picture).
 */
function keptRegion(region: RegionText, known: Box[], read: LineText[], lineHeight: number): RegionText | null {
  const textSized = (w: WordText) => w.box.h >= MARK_MIN_H * lineHeight && w.box.h <= MARK_MAX_H * lineHeight;
  const lines = region.lines
    .map((l) => {
      const again = (w: WordText) => read.some((o) => centreIn(w.box, o.box) && o.words.some((k) => k.text === w.text));
      const words = l.words.filter(
        (w) => w.confidence >= WORD_MIN_CONFIDENCE && textSized(w) && !known.some((k) => centreIn(w.box, k)) && !again(w),
      );
      if (!words.some((w) => letterCount(w.text) >= 2)) return null;
      const box = words.slice(1).reduce((u, w) => unionBox(u, w.box), words[0]!.box);
      return { ...l, box, words, text: joinWords(words.map((w) => w.text)), confidence: round3(mean(words.map((w) => w.confidence))) };
    })
    .filter((l) => l !== null);
  if (!lines.length) return null;
  return {
    ...region,
    box: lines.slice(1).reduce((u, l) => unionBox(u, l.box), lines[0]!.box),
    lines,
    text: lines.map((l) => l.text).join("\n"),
    confidence: round3(mean(lines.flatMap((l) => l.words.map((w) => w.confidence)))),
  };
}

/**
 * Share of dark pixels (below mid-gray) from which an area may be light text on a dark ground
 * (label bars, a dark panel): its reading then tries low-confidence lines inverted, as tesseract
 * does by default. Dark text on a light ground covers well under a third of its area; reading it
 * without inverted re-readings saves a third to a half of a gap's reading on pictures and charts.
 */
const DARK_GROUND = 0.35;

function darkShare(img: GrayImage): number {
  let dark = 0;
  for (const v of img.data) if (v < 128) dark++;
  return dark / Math.max(1, img.data.length);
}

/**
 * Reads again, each as one block, the areas of text-sized ink that the page's reading left out,
 * and adds what they hold to it. Pages of models read in other modes (vertical, Hangul) and
 * pages with nothing read are left as they are.
 */
export async function readLayoutGaps(models: R2Bucket, gray: GrayImage, page: PageText, languages: string[]): Promise<PageText> {
  if (languages.some((l) => pageSegmentation(l) !== "3")) return page;
  const lines = page.regions.flatMap((r) => r.lines).filter((l) => !l.vertical);
  if (!lines.length) return page;
  const lineHeight = median(lines.map((l) => l.box.h));
  const words = lines.flatMap((l) => l.words.map((w) => w.box));
  const added: RegionText[] = [];
  for (const area of layoutGaps(gray, words, lineHeight)) {
    const box = grow(area, lineHeight * 0.5, lineHeight * 0.5);
    const crop = cropGray(gray, box);
    const offset = { x: Math.max(0, Math.floor(box.x)), y: Math.max(0, Math.floor(box.y)) };
    const raster = ocrRasterFromGray(crop, { width: page.width, height: page.height, offset, scale: 1 });
    const read = await recognizeWith(models, raster, languages, "block", { invert: darkShare(crop) >= DARK_GROUND });
    const known = [...words, ...added.flatMap((r) => r.lines.flatMap((l) => l.words.map((w) => w.box)))];
    for (const r of read.regions) {
      const kept = keptRegion(r, known, lines, lineHeight);
      if (kept) added.push(kept);
    }
  }
  return added.length ? withRegions(page, added) : page;
}

/**
 * The page read in `languages` (small text enlarged, `readSmallTextEnlarged`), with the text its
 * layout leaves out read again (`readLayoutGaps`).
 */
export async function readWithGaps(models: R2Bucket, gray: GrayImage, languages: string[]): Promise<PageText> {
  // A blank page holds nothing to read (not a glyph's worth of ink): no reading at all.
  if (isBlank(gray)) return { ...pageOfLines([], { width: gray.width, height: gray.height, languages }), path: "ocr" };
  const first = await recognizeWith(models, ocrRasterFromGray(gray), languages);
  return readLayoutGaps(models, gray, await readSmallTextEnlarged(models, gray, languages, first), languages);
}
