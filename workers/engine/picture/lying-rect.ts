import type { Box, FlatPage, PageTransform, ReocrResult } from "../../shared/engine-contract";
import { boxOnFlat, boxOnPhoto, clampToPage, partOutline, warpGray } from "../image/perspective";
import type { SourcePage } from "../image/source-page";
import { engineError } from "../errors";
import { MAX_OCR_PIXELS } from "../memory";
import { normalisedSize, readCropAsBlock } from "../ocr/reocr";

/**
 * One rectangle of a photographed picture (`PageTransform.lying`) read as one block of text where
 * it lies on the page made flat, as the page was read: the part of the flat page around it is
 * sampled from the source at its own resolution (capped to `MAX_OCR_PIXELS`), and its lines are put
 * back where the photo shows them. Read as taken, the lines of a balloon seen at a slant run
 * across tesseract's, and came back as noise. Only the words whose centre lies in the rectangle
 * are kept: the part around a slanted rectangle holds text beside it.
 */
export async function reocrLyingRect(
  models: R2Bucket,
  source: SourcePage,
  transform: PageTransform & { lying: FlatPage },
  box: Box,
  languages: string[],
): Promise<ReocrResult> {
  const { width, height } = normalisedSize(transform);
  const s = transform.scale;
  const { quad, width: fw, height: fh } = transform.lying;
  const part = boxOnFlat(quad, fw, fh, { x: box.x / s, y: box.y / s, w: box.w / s, h: box.h / s });
  if (part.w < 2 || part.h < 2) throw engineError("validation_error", "box lies outside the page in the photo.");
  const k = Math.min(1, Math.sqrt(MAX_OCR_PIXELS / (part.w * part.h)));
  const crop = warpGray(
    source.image,
    partOutline(quad, fw, fh, part),
    Math.max(1, Math.round(part.w * k)),
    Math.max(1, Math.round(part.h * k)),
  );
  const toPage = (b: Box): Box => {
    const p = boxOnPhoto(quad, fw, fh, { x: part.x + b.x / k, y: part.y + b.y / k, w: b.w / k, h: b.h / k });
    return clampToPage({ x: p.x * s, y: p.y * s, w: p.w * s, h: p.h * s }, width, height);
  };
  return readCropAsBlock(models, crop, toPage, box, languages, "picture");
}
