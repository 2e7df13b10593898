import type { Box } from "../../shared/engine-contract";
import type { GrayImage } from "../image/gray";
import type { SegmentationMode } from "../ocr/recognize";
import { chromaAxis, sauvola } from "./binarise";
import { growByColour, inkColour } from "./colour-grow";
import { readable, wordsIn, type ReadWord } from "./leftover";
import { lineWordSpace, reachLineEnds } from "./line-ends";
import { zoneInk, type RegionInk, type ZoneInk } from "./mask";
import { rectOf, type Rect } from "./rect";
import type { RgbaImage } from "./rgba";

/**
 * Texture level (mask.ts `ZoneInk.texture`) above which a zone's background stands out from its
 * stroke-free estimate about as much as ink does: the ink threshold there (max(24, 1.15·t + 8))
 * has left its floor, so contrast alone no longer tells glyphs from foliage, grain or stripes.
 */
export const TEXTURED = 14;
/** Words read at least this sure are text worth removing (a little below the leftover check's 0.6: text on a photograph reads less surely). */
const WORD_CONFIDENCE = 0.5;
/**
 * In a zone the size of a picture, a word is taken for text when read this surely: its drawing reads
 * as words at 0.5–0.65 ("22%", "DMN", "WHEE" in a comic prose page's illustration, which were wiped
 * with their neighbours), lettering set on photographs at 0.88 and above.
 */
const PICTURE_WORD_CONFIDENCE = 0.8;
/**
 * A line whose words read on the photo's own light span less than this share of it is read on the
 * evened page too: a body line's words span 0.8 of it and more; one cut by a shadow's edge, its one side.
 */
const READ_ACROSS = 0.7;
/** Letters or digits: a word of any length qualifies once its line holds one readable word. */
const ALNUM = /[\p{L}\p{N}]/u;

/**
 * A "line" taller than this (pixels of the page image, at most 3508 px long) is taken for a block:
 * layout analysis on a photograph returns a band of the picture, or the whole picture, text and
 * all, as one line; body text and headings stay below it.
 */
const MAX_LINE = 96;

/**
 * How a zone is read: one uniform block of text for a line, tesseract's own layout analysis with
 * local binarisation for a zone shaped like a block (a picture with a few lines of text somewhere
 * in it, which a uniform-block reading garbles into one run of noise).
 */
export const readingModeOf = (z: Rect): SegmentationMode => (z.y1 - z.y0 > MAX_LINE ? "picture" : "block");

/**
 * Bands a block-shaped zone is also read in: 2·MAX_LINE tall, overlapping by half, so every line
 * up to MAX_LINE tall lies whole in one of them. A reading of the whole picture lets its layout
 * analysis take the lines of text for part of the picture (text across grass, sea and sky reads
 * as nothing); a band holds few picture features besides its lines, and is read as one block.
 */
function bandsOf(z: Rect): Box[] {
  const bands: Box[] = [];
  for (let y = z.y0; ; y += MAX_LINE) {
    const y1 = Math.min(z.y1, y + 2 * MAX_LINE);
    bands.push({ x: z.x0, y, w: z.x1 - z.x0, h: y1 - y });
    if (y1 >= z.y1) return bands;
  }
}

/** Half-window of the bands' local binarisation: a quarter of the tallest line, wider than any stroke. */
const BAND_WINDOW = MAX_LINE / 4;
/** Bands are binarised locally (sauvola): one threshold over a band of a picture loses text on its lighter or darker parts. */
const binarised = (crop: GrayImage) => sauvola(crop, BAND_WINDOW);
/** Margin around a band that its reading crops with it (wordsIn pads a crop by a tenth of its height). */
const BAND_PAD = Math.ceil(MAX_LINE * 0.2) + 4;

/** Vertical overlap of two boxes over the smaller height (0..1). */
function rowOverlap(a: Box, b: Box): number {
  return Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y)) / Math.min(a.h, b.h);
}

/**
 * The words of a zone taken for text: those read surely (WORD_CONFIDENCE, letters or digits),
 * once one of them is a readable word; then, by text-line shape, their unsure neighbours — words
 * on the same row (overlapping it by half), of a like height, at most a word space or two away —
 * chained outwards: text on a busy picture reads unevenly, and a line is removed whole. In a zone
 * the size of a picture (`picture`), words are taken surely at PICTURE_WORD_CONFIDENCE, and only
 * the sure words' own neighbours with them: chained on, unsure words ran along a row of its drawing.
 */
function textWords(words: ReadWord[], picture = false): ReadWord[] {
  const sure = picture ? PICTURE_WORD_CONFIDENCE : WORD_CONFIDENCE;
  if (!words.some((w) => readable(w, sure))) return [];
  const direct = words.map((w) => w.confidence >= sure && ALNUM.test(w.text));
  const taken = direct.slice();
  for (let grew = true; grew;) {
    grew = false;
    words.forEach((w, i) => {
      if (taken[i]) return;
      const near = words.some((t, k) => {
        if (!(picture ? direct : taken)[k] || rowOverlap(w.box, t.box) < 0.5 || w.box.h > t.box.h * 1.6 || w.box.h < t.box.h * 0.4)
          return false;
        const gap = Math.max(t.box.x - (w.box.x + w.box.w), w.box.x - (t.box.x + t.box.w));
        return gap <= t.box.h * 1.5;
      });
      if (near) taken[i] = grew = true;
    });
  }
  return words.filter((_, i) => taken[i]);
}

/** What the text check decided for a page. */
export interface TextEvidence {
  /** Whether zones were checked at all (a textured page with OCR models). */
  checked: boolean;
  /** Zones checked, zones in which nothing was read as text (their ink is left alone), and zones read by OCR here. */
  zones: number;
  rejected: number;
  read: number;
  /** Per region, the boxes of the words taken for text (what a leftover reading must fall on). */
  text: Box[][];
}

/**
 * On a page where any text zone lies on texture (a photograph, patterned paper), layout analysis
 * also takes foliage, bricks or stripes for lines of text, and their "ink" is the picture itself.
 * There every zone is read (tesseract, one block) and only words read as text are removed: at
 * least one word of two letters or digits (or one CJK character) read with WORD_CONFIDENCE (in a
 * picture-sized zone, PICTURE_WORD_CONFIDENCE), and then the words beside it that textWords takes;
 * a picture-sized zone also in bands (bandsOf), each locally binarised, and on its hue axis where
 * lightness reads nothing (binarise.ts). A line-shaped zone whose words recognition already read
 * as text (`read`, per region) is taken on that reading. A zone whose words span less than
 * READ_ACROSS of it is read again on the image `reading` loads, where one is given (loaded when
 * first needed): a photographed page as recognition read it, its light evened out (a line crossing
 * a hard shadow's edge reads as nothing, or only on one side of the edge, on the photo's own light;
 * the evened page alone reads a few words of other lines less surely). Those words become the
 * region's zones (`found` is rewritten): their ink is found again against the background around
 * each word (a "line" as tall as the picture measured its texture over the whole picture), and a
 * zone with no such word keeps none, so the picture under it is not touched. Pages on flat colour,
 * gradients or two-tone backgrounds are left as found (their ink is glyphs; no OCR is spent).
 */
export async function confirmText(
  models: R2Bucket,
  img: RgbaImage,
  gray: GrayImage,
  found: RegionInk[],
  languages: string[],
  guide: Uint8Array,
  read: (ReadWord[] | undefined)[] = [],
  reading?: () => Promise<GrayImage>,
): Promise<TextEvidence> {
  const textured = found.some((f) => f.inks.some((k) => k.texture > TEXTURED));
  const evidence: TextEvidence = { checked: false, zones: 0, rejected: 0, read: 0, text: found.map(() => []) };
  if (!textured || !languages.length) return evidence;
  evidence.checked = true;
  // A page-sized plane for the bands read in hue (written band by band, only where read).
  let chroma: GrayImage | undefined;
  for (const [i, f] of found.entries()) {
    for (const [k, z] of f.zones.entries()) {
      // A block-shaped zone is read even with no ink found (its texture, measured over the whole
      // picture, can set the ink threshold above the text's own contrast), and both ways when ink
      // was found: each reading finds text the other misses on some pictures.
      const inked = f.inks[k]!.at.length > 0;
      const modes: SegmentationMode[] =
        readingModeOf(z) === "picture" ? (inked ? ["picture", "block"] : ["picture"]) : inked ? ["block"] : [];
      if (!modes.length) continue;
      evidence.zones++;
      // A line recognition already read as text is not read again (the same reader on the same pixels).
      const known = readingModeOf(z) === "block" ? textWords(read[i]?.filter((w) => centredIn(w.box, z)) ?? []) : [];
      const text: ReadWord[] = [...known];
      if (known.length) {
        keep(evidence, i, withLineEnds(img, text, z));
        continue;
      }
      evidence.read++;
      const readIn = async (source: GrayImage, box: Box, mode: SegmentationMode, prepare?: (crop: GrayImage) => GrayImage, invert = true) =>
        text.push(
          ...textWords(
            (await wordsIn(models, source, box, languages, mode, prepare, { invert })).filter((w) => w.box.w > 0 && w.box.h > 0),
            readingModeOf(z) === "picture",
          ),
        );
      // A line of dark ink is not also read inverted line by line (which doubles its reading).
      const dark = readingModeOf(z) === "block" && darkInk(gray, f.inks[k]!, guide);
      const box = { x: z.x0, y: z.y0, w: z.x1 - z.x0, h: z.y1 - z.y0 };
      for (const mode of modes) await readIn(gray, box, mode, undefined, !dark);
      if (reading && spanned(text, z) < READ_ACROSS) {
        const again = await reading();
        for (const mode of modes) await readIn(again, box, mode, undefined, !dark);
      }
      if (readingModeOf(z) === "picture") {
        for (const band of bandsOf(z)) {
          const before = text.length;
          await readIn(gray, band, "block", binarised);
          if (text.length > before) continue;
          // Nothing read in lightness: the band again on its strongest difference of hue.
          chroma ??= { width: gray.width, height: gray.height, data: new Uint8Array(gray.width * gray.height) };
          chromaAxis(img, rectOf(band, BAND_PAD, img.width, img.height), chroma);
          await readIn(chroma, band, "block", binarised);
        }
      }
      if (!text.length) evidence.rejected++;
      keep(evidence, i, readingModeOf(z) === "block" ? withLineEnds(img, text, z) : text);
    }
  }
  // Word boxes hug the glyphs: grown by a share of their height for strokes they clip.
  const zones = evidence.text.map((boxes) => boxes.map((b) => rectOf(b, Math.max(2, Math.round(b.h * 0.15)), img.width, img.height)));
  const blocked: Rect[] = zones.flat();
  found.forEach((f, i) => {
    f.zones = zones[i]!;
    f.inks = zones[i]!.map((z, k) => zoneInk(img, z, evidence.text[i]![k]!.h, blocked, guide));
    growWords(img, f, evidence.text[i]!, blocked);
  });
  return evidence;
}

/**
 * The words of one line, its first word reaching left and its last right over ink that continues
 * the line within its zone `z` (line-ends.ts): letters the reading lost at the line's ends ("udy"
 * for "Judy") are removed with their word. A word lost whole stands a word space of the line's
 * own away (`lineWordSpace`): in a letter-spaced footer the unread "J u d y" stood 17 px from
 * "of", beyond the 13 px a word space is taken for in a 19 px line, and stayed on the page.
 */
function withLineEnds(img: RgbaImage, words: ReadWord[], z: Rect): ReadWord[] {
  if (!words.length) return words;
  const first = words.reduce((a, b) => (b.box.x < a.box.x ? b : a));
  const last = words.reduce((a, b) => (b.box.x + b.box.w > a.box.x + a.box.w ? b : a));
  const space = lineWordSpace(words.map((w) => w.box));
  return words.map((w) => {
    if (w !== first && w !== last) return w;
    const own = rectOf(w.box, 0, img.width, img.height);
    const bound = { x0: w === first ? z.x0 : own.x0, y0: z.y0, x1: w === last ? z.x1 : own.x1, y1: z.y1 };
    const reached = reachLineEnds(img, own, own, w.box.h, bound, space);
    return { ...w, box: { ...w.box, x: reached.x0, w: reached.x1 - reached.x0 } };
  });
}

/** Whether most of a zone's ink is darker than the background estimated under it (`guide`): dark text. */
function darkInk(gray: GrayImage, ink: ZoneInk, guide: Uint8Array): boolean {
  let darker = 0;
  for (const i of ink.at) if (gray.data[i]! < guide[i]!) darker++;
  return darker * 2 > ink.at.length;
}

/** Share of a zone's width its words read so far span, side by side (overlaps counted once). */
function spanned(words: ReadWord[], z: Rect): number {
  const spans = words.map((w) => [Math.max(z.x0, w.box.x), Math.min(z.x1, w.box.x + w.box.w)] as const).sort((a, b) => a[0] - b[0]);
  let covered = 0,
    end = z.x0;
  for (const [a, b] of spans) {
    if (b > Math.max(a, end)) covered += b - Math.max(a, end);
    end = Math.max(end, b);
  }
  return z.x1 > z.x0 ? covered / (z.x1 - z.x0) : 1;
}

/** Whether a box's centre lies in a zone. */
const centredIn = (b: Box, z: Rect) => b.x + b.w / 2 >= z.x0 && b.x + b.w / 2 < z.x1 && b.y + b.h / 2 >= z.y0 && b.y + b.h / 2 < z.y1;

/** Adds a zone's words to its region's; a word read twice (zones overlap) is kept once. */
function keep(evidence: TextEvidence, i: number, words: ReadWord[]) {
  for (const w of words) if (!evidence.text.some((boxes) => boxes.some((b) => overlap(b, w.box) > 0.5))) evidence.text[i]!.push(w.box);
}

/** Overlap of two boxes over the smaller one's area (0..1). */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x),
    h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? (w * h) / Math.min(a.w * a.h, b.w * b.h) : 0;
}

/**
 * Grows each word's ink by colour (colour-grow.ts): from its own solid ink's colour, or, for a
 * word with too little ink to tell, from that of the nearest word of the region that has one.
 */
function growWords(img: RgbaImage, f: RegionInk, words: Box[], blocked: Rect[]): void {
  const colours = f.inks.map((k) => inkColour(img, k));
  const centre = (b: Box) => [b.x + b.w / 2, b.y + b.h / 2] as const;
  f.inks.forEach((ink, k) => {
    let colour = colours[k];
    if (!colour) {
      const [cx, cy] = centre(words[k]!);
      let best = Infinity;
      colours.forEach((c, j) => {
        const [x, y] = centre(words[j]!);
        if (c && Math.hypot(x - cx, y - cy) < best) {
          best = Math.hypot(x - cx, y - cy);
          colour = c;
        }
      });
    }
    if (colour) growByColour(img, f.zones[k]!, ink, colour, blocked);
  });
}
