import { engineError } from "../errors";
import { decodeToGray } from "../image/decode";
import { downscaleGray, grayToRgba } from "../image/gray";
import { fitScale, MAX_OCR_PIXELS, MAX_OCR_SIDE } from "../image/limits";
import { sniffFormat } from "../image/sniff";
import { readBytes } from "../storage/r2";

/** A page ready for tesseract: RGBA at working resolution, plus the page's own size. */
export interface OcrRaster {
  /** Page size in pixels (the normalised page image's). */
  width: number;
  height: number;
  /** Working image = page × scale (scale ≤ 1). */
  scale: number;
  image: { data: Uint8ClampedArray; width: number; height: number };
}

/** Reads a normalised page image from R2 FILES and prepares it for OCR at working resolution. */
export async function loadOcrRaster(files: R2Bucket, pageKey: string): Promise<OcrRaster> {
  const bytes = await readBytes(files, pageKey, "page image");
  const format = sniffFormat(bytes);
  if (!format) throw engineError("unsupported_media_type", `The page image at ${JSON.stringify(pageKey)} is not an image format the engine reads.`);
  const page = await decodeToGray(bytes, format);
  const scale = fitScale(page.width, page.height, MAX_OCR_SIDE, MAX_OCR_PIXELS);
  const work = downscaleGray(page, scale);
  // Report the scale actually applied (rounded dimensions), so boxes map back exactly.
  const applied = scale >= 1 ? 1 : work.width / page.width;
  return {
    width: page.width,
    height: page.height,
    scale: applied,
    image: { data: grayToRgba(work), width: work.width, height: work.height },
  };
}
