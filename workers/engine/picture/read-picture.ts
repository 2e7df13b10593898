import type { Box, LineText, PageText, RegionText, WordText } from "../../shared/engine-contract";
import { balloonsInCapitals, hasCase, letteredInCapitals } from "../../shared/lettering";
import { ocrModel, readsLatin } from "../../shared/ocr-models";
import type { GrayImage } from "../image/gray";
import { boxesMeet, unionBox } from "../ocr/group-lines";
import { lexiconOf, type Lexicon } from "../ocr/lexicon";
import { joinWords, letterCount, mapRegionBoxes } from "../ocr/page-text";
import { recognizeWith, type ReadingOptions } from "../ocr/recognize";
import type { OcrRaster } from "../ocr/page-raster";
import { LINE_ALONE, WORD_ALONE, latinScrap, mostlyLetters, scraps, withoutScraps } from "./art-readings";
import { blockRaster, lineRaster } from "./block-raster";
import { unshear, upright } from "./deslant";
import { levelled, turnedBack, turnedBackAlike } from "./level-block";
import { correctLettering } from "./lettering-words";
import { lineBands, readByBands } from "./line-bands";
import { lightLettering } from "./light-lettering";
import { boxBack, findLettering } from "./small-lettering";
import type { PictureText, TextBlock } from "./text-blocks";

/** A block read with less confidence than this, or with fewer letters, is art taken for text. */
const MIN_CONFIDENCE = 0.55;
const MIN_LETTERS = 2;
/**
 * A block of light lettering (`lightLettering`) is kept when read at least this surely: in the
 * page's negative, highlights and halftone in dark areas are marks on a ground too, and read as
 * scraps; type laid over a photograph reads at 0.8 and above.
 */
const LIGHT_CONFIDENCE = 0.75;
/**
 * A block of light lettering is also kept only when its reading holds at least this share of its
 * marks as letters: a word read in a negative of art is a few letters out of many marks (a comic
 * panel's highlights, 38 marks, read "SAA" at 0.82), while Latin type reads about one letter a
 * mark. Kana and ideographs are drawn in several marks each (white Japanese on a black box: 0.5–0.7
 * characters a mark), so the share is lower in scripts without case.
 */
const LIGHT_LETTERS = 0.4;
const LIGHT_LETTERS_UNCASED = 0.25;
const lightShare = (text: string) => (hasCase(text) ? LIGHT_LETTERS : LIGHT_LETTERS_UNCASED);
/** Blocks of more letters than this are read with tesseract's own layout (columns of prose). */
const PROSE = 400;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The models a block is read with, each once: a vertical block in a language with a vertical model
 * installed reads with it. A page's languages naming a script both ways (`jpn` and `jpn_vert`) give
 * one model a block: each is a whole reading of the block.
 */
export function modelsFor(block: Pick<TextBlock, "vertical">, languages: string[], installed: Set<string>): string[] {
  const models = languages.map((code) => {
    const base = code.replace(/_vert$/, "");
    const vertical = `${base}_vert`;
    if (block.vertical && ocrModel(vertical)?.vertical && installed.has(vertical)) return vertical;
    return installed.has(base) ? base : code;
  });
  return [...new Set(models)];
}

/** Whether a block is read with a model of vertical text (else its columns, if any, are read as rows). */
const readsColumns = (readers: string[]) => readers.some((m) => ocrModel(m)?.vertical);

/** Below these confidences a word of lower case, or of symbols only, at a line's end is no word of capitals lettering. */
const STRAY_LOWER = 0.75;
const STRAY_SYMBOLS = 0.5;

/** A word with no capital or digit, read unsurely: in a balloon lettered in capitals, a piece of its tail or of art at its edge. */
const stray = (w: WordText) => !/[\p{Lu}\p{N}]/u.test(w.text) && w.confidence < (/\p{Ll}/u.test(w.text) ? STRAY_LOWER : STRAY_SYMBOLS);

/** A line of capitals without the stray words at its ends (null when nothing else is left). */
function withoutStrays(line: LineText): LineText | null {
  let a = 0,
    b = line.words.length;
  while (a < b && stray(line.words[a]!)) a++;
  while (b > a && stray(line.words[b - 1]!)) b--;
  if (a === 0 && b === line.words.length) return line;
  if (a >= b) return null;
  const words = line.words.slice(a, b);
  return {
    ...line,
    words,
    text: words.map((w) => w.text).join(" "),
    box: words.slice(1).reduce((u, w) => unionBox(u, w.box), words[0]!.box),
    confidence: round3(words.reduce((n, w) => n + w.confidence, 0) / words.length),
  };
}

/** A bar read for a word of lettering in capitals ("|", "|'LL"): a serifless I standing alone. */
const BAR_FOR_I = /^\|(?='\p{Lu}+$|$)/u;

/**
 * A line of capitals with the bars read for an I before another word made I again ("| THOUGHT",
 * "|'LL GO"); a bar ending a line is left: there it is as often a "!" read so.
 */
function barsAsI(line: LineText): LineText {
  const last = line.words.length - 1;
  const words = line.words.map((w, i) => (i < last && BAR_FOR_I.test(w.text) ? { ...w, text: w.text.replace(BAR_FOR_I, "I") } : w));
  return words.some((w, i) => w !== line.words[i]) ? { ...line, words, text: words.map((w) => w.text).join(" ") } : line;
}

/** Mean confidence of the words of some lines (0 without words). */
function meanConfidence(lines: LineText[]): number {
  const words = lines.flatMap((l) => l.words);
  return words.length ? words.reduce((n, w) => n + w.confidence, 0) / words.length : 0;
}

/** Whether lines read as text: letters enough, read with at least `confidence` on average. */
const plausible = (lines: LineText[], confidence: number) =>
  lines.reduce((n, l) => n + letterCount(l.text), 0) >= MIN_LETTERS && meanConfidence(lines) >= confidence;

const sureAlone = (line: LineText) => plausible([line], LINE_ALONE) && line.words.some((w) => letterCount(w.text) >= WORD_ALONE);

/**
 * A word of `WORD_ALONE` letters or more read at `LINE_ALONE`. A block read with `SURE_WORDS` of
 * them keeps every line that holds one however unsure its other words: tesseract gives heavy
 * lettering read right no confidence at times ("OUR NEXT ISSUE ANOTHER" with ANOTHER at 0, "TERROR
 * TWINS ADVENTURE!" with ADVENTURE at 0), while art read as text gives no such words ("FJ", "EE A",
 * "¥ ZN"); lines without one are the block's scraps (a newspaper's halftone read beside its headline).
 */
const surelyRead = (w: WordText) => letterCount(w.text) >= WORD_ALONE && w.confidence >= LINE_ALONE;
const SURE_WORDS = 3;
const holdsSureWords = (lines: LineText[]) => lines.reduce((n, l) => n + l.words.filter(surelyRead).length, 0) >= SURE_WORDS;

/** The reading of one block as one region (a balloon's lines together), or none when nothing plausible was read. */
function regionOf(reading: PageText, block: TextBlock): RegionText[] {
  const read: LineText[] = reading.regions.flatMap((r) => r.lines).filter((l) => l.text.trim());
  // Lettering in capitals: lower-case scraps at the ends of its lines are art read as text, and a
  // bar before a word is an I.
  const all = letteredInCapitals(read.map((l) => l.text).join(" ")) ? read.flatMap((l) => withoutStrays(l) ?? []).map(barsAsI) : read;
  // A block unsure as a whole keeps the lines read surely on their own ("WHAT" over an unread
  // "THE…?"), and, read with words enough read surely, the lines holding one (`holdsSureWords`).
  const lines = plausible(all, MIN_CONFIDENCE) ? all : all.filter((l) => sureAlone(l) || (holdsSureWords(all) && l.words.some(surelyRead)));
  if (!lines.length) return [];
  const confidence = meanConfidence(lines);
  const vertical = lines.some((l) => l.vertical);
  const box: Box = lines.slice(1).reduce((u, l) => unionBox(u, l.box), lines[0]!.box);
  // A block of prose keeps tesseract's paragraphs; a balloon or caption is one region.
  if (block.glyphs > PROSE) return reading.regions.map((r) => ({ ...r, frame: r.box }));
  return [
    {
      box,
      // A balloon's lines are one utterance broken to fit its shape: one paragraph, re-broken when set.
      text: joinWords(lines.map((l) => l.text)),
      confidence: round3(confidence),
      lines,
      frame: unionBox(block.frame, box),
      ...(vertical ? { vertical: true } : {}),
    },
  ];
}

/**
 * Reading order of a page of panels: blocks in rows (a block starts a new row when its top lies
 * below two thirds of the way down every block of the row), each row left to right — right to left for vertical CJK text, as
 * manga are read.
 */
function readingOrder(regions: RegionText[]): RegionText[] {
  const rightToLeft = regions.filter((r) => r.vertical).length > regions.length / 2;
  const sorted = [...regions].sort((a, b) => a.box.y - b.box.y);
  const rows: RegionText[][] = [];
  let rowBottom = -Infinity;
  for (const r of sorted) {
    if (r.box.y >= rowBottom) rows.push([]);
    rows[rows.length - 1]!.push(r);
    rowBottom = Math.max(rowBottom, r.box.y + r.box.h * 0.66);
  }
  return rows.flatMap((row) => row.sort((a, b) => (rightToLeft ? b.box.x + b.box.w - (a.box.x + a.box.w) : a.box.x - b.box.x)));
}

/**
 * A raster's reading set upright (`upright`), its boxes taken back to the raster's own frame; null
 * when it stands upright in light strokes already.
 */
async function readingUpright(models: R2Bucket, raster: OcrRaster, block: TextBlock, readers: string[]): Promise<PageText | null> {
  const set = upright(raster, block.glyph * raster.scale);
  if (!set) return null;
  const reading = await recognizeWith(models, set.raster, readers, "block", LETTERING);
  const middle = (raster.offset?.y ?? 0) + raster.image.height / 2 / raster.scale;
  return unshear(reading, set.slant, middle);
}

/** A block read set upright; none when that changes nothing or it still reads as mostly strokes (art). */
async function readUpright(models: R2Bucket, raster: OcrRaster, block: TextBlock, readers: string[]): Promise<RegionText[]> {
  const reading = await readingUpright(models, raster, block, readers);
  return reading ? regionOf(reading, block).filter(mostlyLetters) : [];
}

/**
 * How a picture's blocks are read: not inverted (their ground is light, or they were taken from the
 * negative), lettering without the signs never lettered (`ReadingOptions.lettering`); a block of
 * prose (a poster's or a book page's typeset text) may hold any sign.
 */
const LETTERING: ReadingOptions = { invert: false, lettering: true };
const PROSE_READING: ReadingOptions = { invert: false };

/**
 * A block of Latin lettering read less surely than this is read again with larger letters
 * (`LARGER_GLYPH`): over `006013`, five phone photos of it and two panels cut from it (899 words),
 * 12 words more (79.6 → 81.0 %); again at 26 px instead, 9. Balloons read as nothing are read
 * again too (`sureWord`).
 */
const SURE_READING = 0.8;
/** Letter height (px) a block is read at the second time: above the 34 px of `blockRaster`. */
const LARGER_GLYPH = 44;
/**
 * A reading with a word of two letters or more read at `SURE_READING`. A balloon read as nothing
 * and read again larger is kept only so: its lettering then reads as "DID IT!", "THE BATTLE", "THE
 * FOLLOWING DAY", while a drawing's light patches taken for balloons read as "FJ", "EE A", "¥ ZN"
 * with no such word.
 */
const sureWord = (rs: RegionText[]) =>
  rs.some((r) => r.lines.some((l) => l.words.some((w) => letterCount(w.text) >= 2 && w.confidence >= SURE_READING)));

/** Letters read, weighed by how surely: of two readings of a block, the better one. */
const weight = (rs: RegionText[]) => rs.reduce((n, r) => n + letterCount(r.text) * r.confidence, 0);
/** As `weight`, lower-case letters left out: of two readings of lettering in capitals, the better one. */
const capitalsWeight = (rs: RegionText[]) =>
  rs.reduce((n, r) => n + (letterCount(r.text) - (r.text.match(/\p{Ll}/gu)?.length ?? 0)) * r.confidence, 0);

/**
 * A block turned level is kept only when read at least this surely: the turn is a guess, and a
 * halftone newspaper in a panel, turned level, read as "LACK TER RQUGHT To USTICE" at 0.72
 * (balloons turned by 5–25° read at 0.79–0.88).
 */
const LEVELLED_CONFIDENCE = 0.75;
/** Letter heights of margin around a levelled region's text, in the frame its translation is set in. */
const LEVELLED_MARGIN = 0.5;
/** A reading turned level replaces one as drawn that passed when it weighs this much more (`weight`). */
const BETTER = 1.2;

/**
 * A block read turned level (`levelled`); when that reads unsurely, also set upright (a
 * newspaper's heavy italic headline held at an angle) and the better reading kept. Its boxes are
 * taken back onto the page and its regions carry the turn, so their translation is set turned as
 * the lettering was. None when its lines run level already, or it reads unsurely
 * (`LEVELLED_CONFIDENCE`) or as mostly strokes.
 */
async function readLevelled(models: R2Bucket, raster: OcrRaster, block: TextBlock, readers: string[]): Promise<RegionText[]> {
  const set = levelled(raster, block.glyph * raster.scale);
  if (!set) return [];
  const back = turnedBack(set.angle, set.centre, raster.width, raster.height);
  const alike = turnedBackAlike(set.angle, set.centre, raster.width, raster.height);
  const grow = LEVELLED_MARGIN * block.glyph;
  // Read level, each region is set where its lettering was: its box and frame are the boxes around
  // its text's rectangle (the frame grown by a margin) turned back, in which the typesetter finds
  // that rectangle again; its lines and words keep their size, centred where they were.
  const regions = (reading: PageText) =>
    regionOf(reading, block)
      .filter(mostlyLetters)
      .map((r) => ({
        ...mapRegionBoxes([r], alike)[0]!,
        box: back(r.box),
        frame: back({ x: r.box.x - grow, y: r.box.y - grow, w: r.box.w + 2 * grow, h: r.box.h + 2 * grow }),
        angle: set.angle,
      }));
  const sure = (rs: RegionText[]) => rs.filter((r) => r.confidence >= LEVELLED_CONFIDENCE);
  const read = regions(await recognizeWith(models, set.raster, readers, "block", LETTERING));
  if (!scraps(sure(read))) return sure(read);
  const again = await readingUpright(models, set.raster, block, readers);
  const other = again ? regions(again) : [];
  return sure(weight(other) > weight(read) ? other : read);
}

/** Whether a block is read in rows (not columns of a vertical model, nor prose in tesseract's own layout). */
const readsRows = (block: TextBlock, readers: string[]) => !(block.vertical && readsColumns(readers)) && block.glyphs <= PROSE;
/** Whether a block is lettering in rows read in Latin script: what is read again larger. */
const inLatinRows = (block: TextBlock, readers: string[]) => readsRows(block, readers) && readsLatin(readers);

/**
 * One block of a picture read alone on white, its letters brought to `glyph` pixels (rows in Latin
 * script; `blockRaster`): as drawn; unread or read as scraps, set upright; turned level where its
 * lines run turned; line by line where lines were run together. Art read as Latin scraps is dropped.
 */
async function readBlock(
  models: R2Bucket,
  page: GrayImage,
  found: PictureText,
  i: number,
  block: TextBlock,
  readers: string[],
  glyph?: number,
): Promise<RegionText[]> {
  const raster = blockRaster(page, found, i, block, !readsColumns(readers), glyph);
  const prose = block.glyphs > PROSE;
  const reading = await recognizeWith(models, raster, readers, prose ? "page" : "block", prose ? PROSE_READING : LETTERING);
  let read = regionOf(reading, block);
  // Unread, or read as scraps only, lettering in rows is read again set upright and thinned (a
  // heavy italic). Lettering whose lines run turned is read turned level too, kept when it reads
  // better than as drawn (tesseract reads a balloon turned by 10° as "NSawy... fou STILL, TIM !").
  // Still unread, or read in part, it is read line by line, cut where its lines touch: tesseract had
  // run them together (`readByBands`).
  const rows = readsRows(block, readers);
  if (rows && scraps(read)) {
    const again = await readUpright(models, raster, block, readers);
    if (!scraps(again)) read = again;
  }
  if (rows) {
    const again = await readLevelled(models, raster, block, readers);
    if (!scraps(again) && (scraps(read) || weight(again) > BETTER * weight(read))) read = again;
  }
  const bands = rows && readsLatin(readers) ? lineBands(found, i, block) : [];
  const linesRead = read.reduce((n, r) => n + r.lines.length, 0);
  if (readByBands(bands.length, linesRead)) {
    const lines: PageText[] = [];
    for (const [top, bottom] of bands) lines.push(await recognizeWith(models, lineRaster(raster, top, bottom), readers, "line", LETTERING));
    const again = regionOf({ ...reading, regions: lines.flatMap((l) => l.regions) }, block).filter(mostlyLetters);
    if (!read.length || weight(again) > weight(read)) read = again;
  }
  return read.filter((r) => !latinScrap(r, readers));
}

/** A box of the page on the page enlarged `factor` times. */
const scaled = (b: Box, factor: number): Box => ({ x: b.x * factor, y: b.y * factor, w: b.w * factor, h: b.h * factor });

/**
 * Reads a picture (comic or manga page, poster, photo): its text blocks (`findPictureText`), each
 * read alone on white in its direction, one region a block with the block's interior as its frame;
 * then its light lettering (`lightLettering`), kept where it reads surely. Small lettering in Latin
 * script is found and read on the page enlarged (`findLettering`), its boxes taken back.
 * With `within`, only the blocks that reach into that rectangle are read.
 */
export async function readPicture(
  models: R2Bucket,
  page: GrayImage,
  languages: string[],
  installed: string[],
  within?: Box,
): Promise<PageText> {
  const { page: read, found, factor } = findLettering(page, languages);
  const text = await readFound(models, read, found, languages, installed, within && scaled(within, factor));
  if (factor === 1) return text;
  const back = (b: Box) => boxBack(b, factor);
  const regions = mapRegionBoxes(text.regions, back).map((r) => (r.frame ? { ...r, frame: back(r.frame) } : r));
  return { ...text, width: page.width, height: page.height, regions };
}

/** `readPicture` on the text blocks found on the page (`found`). */
async function readFound(
  models: R2Bucket,
  page: GrayImage,
  found: PictureText,
  languages: string[],
  installed: string[],
  within?: Box,
): Promise<PageText> {
  const have = new Set(installed);
  const regions: RegionText[] = [];
  // Blocks read with the same models are read one after another: the isolate keeps few engines
  // cached, and a manga page's columns and rows read in turn reloaded a model at every switch.
  const queue = found.blocks
    .map((block, i) => ({ block, i, readers: modelsFor(block, languages, have) }))
    .filter(({ block }) => !within || boxesMeet(block.box, within));
  queue.sort((a, b) => a.readers.join("+").localeCompare(b.readers.join("+")));
  const readings: { block: TextBlock; i: number; readers: string[]; read: RegionText[]; larger?: RegionText[] }[] = [];
  for (const { block, i, readers } of queue) {
    let read = await readBlock(models, page, found, i, block, readers);
    let larger: RegionText[] | undefined;
    // Lettering in Latin rows read unsurely is read again larger: tesseract's reading of heavy
    // lettering turns on its size ("pio IT!" at 34 px letters, "DID IT!" at 44), and the reading
    // that weighs more is kept. A balloon read as nothing is read again too, and kept only with a
    // word read surely (`sureWord`); other blocks read as nothing are art.
    const unsure = read.length ? read.every((r) => r.confidence < SURE_READING) : block.balloon;
    if (inLatinRows(block, readers) && unsure) {
      larger = await readBlock(models, page, found, i, block, readers, LARGER_GLYPH);
      if (weight(larger) > weight(read) && (read.length || sureWord(larger))) [read, larger] = [larger, read];
    }
    readings.push({ block, i, readers, read, larger });
  }
  // On a page lettered in capitals, a balloon read with lower-case letters was misread in part
  // ("WieH 1 WAS", "Dio IT!"): it is read larger too (if it was not), and the reading that weighs
  // more with its lower-case letters left out is kept.
  const capitals = balloonsInCapitals(readings.map((r) => r.read.map((x) => x.text).join(" ")));
  for (const [k, r] of readings.entries()) {
    if (!capitals[k] || !inLatinRows(r.block, r.readers) || !r.read.some((x) => /\p{Ll}/u.test(x.text))) continue;
    const other = r.larger ?? (await readBlock(models, page, found, r.i, r.block, r.readers, LARGER_GLYPH));
    if (other.length && capitalsWeight(other) > capitalsWeight(r.read)) r.read = other;
  }
  // Lettering in capitals read in one language with a word list has its misread words corrected
  // where one word of the list fits likeliest (THIE → THIS, IT8 → ITS; `correctLettering`), once what
  // is art read as text has been dropped as read ("VR" read in a drawing is no "UR").
  const lexicons = new Map<RegionText, Lexicon>();
  for (const [k, r] of readings.entries()) {
    const lexicon =
      capitals[k] && inLatinRows(r.block, r.readers) && r.readers.length === 1 ? await lexiconOf(models, r.readers[0]!) : null;
    if (lexicon) for (const x of r.read) lexicons.set(x, lexicon);
  }
  for (const r of readings) regions.push(...r.read);
  // Light lettering, read from the page's negative: each block once, and only when read surely.
  const light = lightLettering(page, found.blocks);
  for (const i of light.candidates) {
    const block = light.found.blocks[i]!;
    if (within && !boxesMeet(block.box, within)) continue;
    const readers = modelsFor(block, languages, have);
    const raster = blockRaster(light.negative, light.found, i, block, !readsColumns(readers));
    const reading = await recognizeWith(models, raster, readers, "block", LETTERING);
    regions.push(
      ...regionOf(reading, block).filter(
        (r) =>
          r.confidence >= LIGHT_CONFIDENCE &&
          letterCount(r.text) >= lightShare(r.text) * block.glyphs &&
          mostlyLetters(r) &&
          !latinScrap(r, readers),
      ),
    );
  }
  const ordered = readingOrder(withoutScraps(regions).map((r) => (lexicons.has(r) ? correctLettering(r, lexicons.get(r)!) : r)));
  const words = ordered.flatMap((r) => r.lines.flatMap((l) => l.words));
  return {
    width: page.width,
    height: page.height,
    languages,
    text: ordered.map((r) => r.text).join("\n\n"),
    confidence: words.length ? round3(words.reduce((n, w) => n + w.confidence, 0) / words.length) : 0,
    regions: ordered,
    path: "picture",
  };
}
