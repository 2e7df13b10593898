import type { Box, LineText, PageText, PageTransform, ReocrResult } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { normaliseContrast } from "../image/enhance";
import { cropFromSource, unscaledSize } from "../image/geometry";
import { MAX_OCR_PIXELS } from "../memory";
import type { SourcePage } from "../image/source-page";
import { ocrRasterFromGray } from "./page-raster";
import { joinWords } from "./page-text";
import { recognizeWith } from "./recognize";
import { resolveLanguages } from "./languages";

const cx = (b: Box) => b.x + b.w / 2;
const cy = (b: Box) => b.y + b.h / 2;
const within = (outer: Box, b: Box) => cx(b) >= outer.x && cx(b) <= outer.x + outer.w && cy(b) >= outer.y && cy(b) <= outer.y + outer.h;

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

/** The lines of a text layer whose words fall in `box`, keeping only those words. */
export function textLayerIn(page: PageText, box: Box): ReocrResult {
  const lines: LineText[] = [];
  for (const r of page.regions) {
    for (const l of r.lines) {
      const words = l.words.filter((w) => within(box, w.box));
      if (words.length) lines.push({ ...l, words, text: joinWords(words.map((w) => w.text)) });
    }
  }
  return { text: lines.map((l) => l.text).join("\n"), confidence: 1, lines, languages: page.languages, path: "text_layer" };
}

/**
 * Re-reads one rectangle of a page from the original upload at its own resolution: the crop is
 * sampled through the page's transform (upright, deskewed), contrast-normalised and read as one
 * block of text. Boxes come back in normalised page coordinates.
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
  const image = normaliseContrast(crop.image);
  const langs = await resolveLanguages(models, languages, image);
  const raster = ocrRasterFromGray(image, { width, height, offset: { x: box.x, y: box.y }, scale: crop.scale });
  const page = await recognizeWith(models, raster, langs, "block");
  const lines = page.regions.flatMap((r) => r.lines);
  return { text: lines.map((l) => l.text).join("\n"), confidence: page.confidence, lines, languages: langs, path: source.path };
}
