import type { Box, LineText, PagePath, PageText, PageTransform, ReocrResult } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { normaliseContrast } from "../image/enhance";
import { cropFromSource, unscaledSize } from "../image/geometry";
import type { GrayImage } from "../image/gray";
import { clampToPage } from "../image/perspective";
import { MAX_OCR_PIXELS } from "../memory";
import type { SourcePage } from "../image/source-page";
import { ocrRasterFromGray } from "./page-raster";
import { joinWords } from "./page-text";
import { recognizeWith } from "./recognize";
import { resolveLanguages } from "./languages";

const cx = (b: Box) => b.x + b.w / 2;
const cy = (b: Box) => b.y + b.h / 2;
/** Whether `b`'s centre lies in `outer`. */
const centreWithin = (outer: Box, b: Box) =>
  cx(b) >= outer.x && cx(b) <= outer.x + outer.w && cy(b) >= outer.y && cy(b) <= outer.y + outer.h;

/** Size of the normalised page a transform produces. */
export function normalisedSize(t: PageTransform): { width: number; height: number } {
  const turned = t.rotation === 90 || t.rotation === 270;
  const { width, height } = unscaledSize(t);
  return {
    width: Math.round((turned ? height : width) * t.scale),
    height: Math.round((turned ? width : height) * t.scale),
  };
}

/** Checks the rectangle and clamps it to the page. */
export function clampBox(box: unknown, width: number, height: number): Box {
  const b = box as Partial<Box> | null;
  const ok = b && [b.x, b.y, b.w, b.h].every((v) => typeof v === "number" && Number.isFinite(v));
  if (!ok || b.w! <= 0 || b.h! <= 0) throw engineError("validation_error", "box must have finite x, y and positive w, h.");
  const x = Math.max(0, Math.min(width, b.x!));
  const y = Math.max(0, Math.min(height, b.y!));
  const w = Math.min(width, b.x! + b.w!) - x;
  const h = Math.min(height, b.y! + b.h!) - y;
  if (w < 2 || h < 2) throw engineError("validation_error", `box lies outside the ${width}x${height} page.`);
  return { x, y, w, h };
}

/** Of some lines, those with words whose centres fall in `box`, keeping only those words. */
export function linesIn(lines: LineText[], box: Box): LineText[] {
  const kept: LineText[] = [];
  for (const l of lines) {
    const words = l.words.filter((w) => centreWithin(box, w.box));
    if (words.length) kept.push({ ...l, words, text: joinWords(words.map((w) => w.text)) });
  }
  return kept;
}

/** The answer of a re-reading of `lines`: their text, and the mean confidence of their words. */
export function reocrAnswer(lines: LineText[], languages: string[], path: PagePath): ReocrResult {
  const words = lines.flatMap((l) => l.words);
  const confidence = words.length ? Math.round((words.reduce((n, w) => n + w.confidence, 0) / words.length) * 1000) / 1000 : 0;
  return { text: lines.map((l) => l.text).join("\n"), confidence, lines, languages, path };
}

/** The lines of a text layer whose words fall in `box`, keeping only those words. */
export function textLayerIn(page: PageText, box: Box): ReocrResult {
  const lines = linesIn(
    page.regions.flatMap((r) => r.lines),
    box,
  );
  return { ...reocrAnswer(lines, page.languages, "text_layer"), confidence: 1 };
}

/**
 * A crop read as one block of text, contrast-normalised. Its lines come back on the page
 * (`toPage` takes a box of the crop there), with the words whose centres lie in `box`.
 */
export async function readCropAsBlock(
  models: R2Bucket,
  crop: GrayImage,
  toPage: (b: Box) => Box,
  box: Box,
  languages: string[],
  path: PagePath,
): Promise<ReocrResult> {
  const image = normaliseContrast(crop);
  const langs = await resolveLanguages(models, languages, image);
  const read = await recognizeWith(models, ocrRasterFromGray(image), langs, "block");
  const lines = read.regions
    .flatMap((r) => r.lines)
    .map((l) => ({ ...l, box: toPage(l.box), words: l.words.map((w) => ({ ...w, box: toPage(w.box) })) }));
  return reocrAnswer(linesIn(lines, box), langs, path);
}

/**
 * Re-reads one rectangle of a page from the original upload at its own resolution: the crop is
 * sampled through the page's transform (upright, deskewed) and read as one block of text. Boxes
 * come back in normalised page coordinates.
 */
export async function reocrRect(
  models: R2Bucket,
  source: SourcePage,
  transform: PageTransform,
  box: Box,
  languages: string[],
): Promise<ReocrResult> {
  const { width, height } = normalisedSize(transform);
  const crop = cropFromSource(source.image, transform, box, MAX_OCR_PIXELS);
  const k = crop.scale;
  const toPage = (b: Box) => clampToPage({ x: box.x + b.x / k, y: box.y + b.y / k, w: b.w / k, h: b.h / k }, width, height);
  return readCropAsBlock(models, crop.image, toPage, box, languages, source.path);
}
