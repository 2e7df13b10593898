import type { Box } from "../../shared/engine-contract";
import { cropGray } from "../image/geometry";
import type { GrayImage } from "../image/gray";
import { grayHistogram, medianLevel } from "../image/histogram";
import { seededLanguages } from "../ocr/models";
import { ocrRasterFromGray } from "../ocr/page-raster";
import { recognizeWith, type ReadingOptions, type SegmentationMode } from "../ocr/recognize";

/** Words read with at least this confidence count as source text left behind. */
const MIN_CONFIDENCE = 0.6;
/** A word counts when it has two letters or digits, or one CJK character (one Latin letter is often noise). */
const READABLE = /[\p{L}\p{N}].*[\p{L}\p{N}]|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The OCR models for the check: the named seeded ones; `auto` or none seeded falls back to one seeded model. */
export async function checkLanguages(models: R2Bucket, languages: string[] | undefined): Promise<string[]> {
  if (!languages || languages.length === 0) return [];
  const seeded = await seededLanguages(models);
  const named = languages.filter((l) => seeded.includes(l));
  if (named.length) return named;
  return seeded.includes("eng") ? ["eng"] : seeded.slice(0, 1);
}

/** A word read in a crop: text, confidence (0..1) and page box. */
export interface ReadWord {
  text: string;
  confidence: number;
  box: Box;
}

/**
 * Reads the words of a box of a gray page (tesseract, one uniform block unless told), in page
 * coordinates. `prepare` transforms the crop before it is read (e.g. a local binarisation).
 */
export async function wordsIn(
  models: R2Bucket,
  gray: GrayImage,
  box: Box,
  languages: string[],
  mode: SegmentationMode = "block",
  prepare?: (crop: GrayImage) => GrayImage,
  options: ReadingOptions = {},
): Promise<ReadWord[]> {
  const pad = Math.max(4, Math.round(Math.min(box.w, box.h) * 0.1));
  const rect = { x: Math.max(0, box.x - pad), y: Math.max(0, box.y - pad), w: box.w + 2 * pad, h: box.h + 2 * pad };
  const cropped = cropGray(gray, rect);
  const crop = prepare ? prepare(cropped) : cropped;
  if (crop.width < 4 || crop.height < 4) return [];
  const raster = ocrRasterFromGray(crop, {
    width: gray.width,
    height: gray.height,
    offset: { x: Math.floor(rect.x), y: Math.floor(rect.y) },
    scale: 1,
  });
  const page = await recognizeWith(models, raster, languages, mode, options);
  return page.regions.flatMap((r) => r.lines.flatMap((l) => l.words.map((w) => ({ text: w.text, confidence: w.confidence, box: w.box }))));
}

/** Whether a word read with this confidence is text (two letters or digits, or one CJK character). */
export const readable = (w: ReadWord, minConfidence = MIN_CONFIDENCE) => w.confidence >= minConfidence && READABLE.test(w.text);

/**
 * Robust standard deviations (1.4826 median absolute deviations, at least 2 levels) a pixel must
 * lie below its crop's ground (the median) to count as ink. Paper fibre, halftone and JPEG noise
 * within that reads as stray "words": on an aged comic page's cleaned column, 118–171 of them and
 * a second of reading each; leftover strokes of dark text lie far below it.
 */
const GRAIN_SPREAD = 3;
const MIN_DEVIATION = 2;

/**
 * The crop with everything within its ground's grain made white, for reading dark text on a
 * lighter ground: only ink that stands out of the ground is left. A crop whose median is dark
 * (no light ground) is left as it is.
 */
export function groundToWhite(crop: GrayImage): GrayImage {
  const n = crop.data.length;
  const count = grayHistogram(crop.data);
  const ground = medianLevel(count);
  if (ground < 128) return crop;
  const apart = new Uint32Array(256);
  for (let v = 0; v < 256; v++) apart[Math.abs(v - ground)]! += count[v]!;
  const below = ground - GRAIN_SPREAD * 1.4826 * Math.max(MIN_DEVIATION, medianLevel(apart));
  const data = new Uint8Array(n);
  for (let i = 0; i < n; i++) data[i] = crop.data[i]! < below ? crop.data[i]! : 255;
  return { width: crop.width, height: crop.height, data };
}

/**
 * Reads a cleaned region again (tesseract, one uniform block) and returns the confident words
 * found there: anything readable means source glyphs survived the inpainting. `sources`, when
 * given (textured pages, text-evidence.ts), are the boxes of the words taken for text before
 * removal: only a word read on one of them counts, since foliage or grain reads as stray
 * "words" on the true background too. Dark text (`darkText`) leaves dark strokes: its unsure lines
 * are not read inverted as well, which doubles a reading of a mostly blank region, and its ground's
 * grain is not read at all (`groundToWhite`).
 */
export async function leftoverWords(
  models: R2Bucket,
  clean: GrayImage,
  box: Box,
  languages: string[],
  sources?: Box[],
  darkText = false,
): Promise<ReadWord[]> {
  const on = (w: ReadWord) => {
    const cx = w.box.x + w.box.w / 2,
      cy = w.box.y + w.box.h / 2;
    return sources!.some((b) => cx >= b.x && cx <= b.x + b.w && cy >= b.y && cy <= b.y + b.h);
  };
  return (await wordsIn(models, clean, box, languages, "block", darkText ? groundToWhite : undefined, { invert: !darkText })).filter(
    (w) => readable(w) && (!sources || on(w)),
  );
}
