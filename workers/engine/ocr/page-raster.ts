import { engineError } from "../errors";
import { decodeToGray } from "../image/decode";
import { downscaleGray, grayToRgba, type GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
import { MAX_OCR_PIXELS, MAX_OCR_SIDE } from "../memory";
import { sniffFormat } from "../image/sniff";
import { readBytes } from "../storage/r2";

/** A page (or a crop of one) ready for tesseract: RGBA at working resolution, plus the page's own size. */
export interface OcrRaster {
  /** Page size in pixels (the normalised page image's). */
  width: number;
  height: number;
  /** Working image = (page crop) × scale. */
  scale: number;
  /** Where the working image's origin lies on the page (crops); absent for whole pages. */
  offset?: { x: number; y: number };
  image: { data: Uint8ClampedArray; width: number; height: number };
}

/**
 * Prepares a gray image for OCR, downscaled to the working resolution. `page` describes where it
 * sits: by default the image is the whole page; for a crop, the page size, the crop's offset and
 * its pixels per page pixel.
 */
export function ocrRasterFromGray(
  img: GrayImage,
  page?: { width: number; height: number; offset: { x: number; y: number }; scale: number },
): OcrRaster {
  const fit = fitScale(img.width, img.height, MAX_OCR_SIDE, MAX_OCR_PIXELS);
  const work = downscaleGray(img, fit);
  // Report the scale actually applied (rounded dimensions), so boxes map back exactly.
  const applied = fit >= 1 ? 1 : work.width / img.width;
  return {
    width: page?.width ?? img.width,
    height: page?.height ?? img.height,
    scale: applied * (page?.scale ?? 1),
    ...(page ? { offset: page.offset } : {}),
    image: { data: grayToRgba(work), width: work.width, height: work.height },
  };
}

/**
 * The rows `band` (page pixels) of the page's working raster: the same pixels as those rows of
 * `ocrRasterFromGray(img)`, placed on the page by their offset, so a band reads as it would on the page.
 */
export function ocrRasterOfBand(img: GrayImage, band: { y: number; h: number }): OcrRaster {
  const work = downscaleGray(img, fitScale(img.width, img.height, MAX_OCR_SIDE, MAX_OCR_PIXELS));
  const scale = work.width / img.width;
  const top = Math.max(0, Math.min(work.height - 1, Math.round(band.y * scale)));
  const bottom = Math.max(top + 1, Math.min(work.height, Math.round((band.y + band.h) * scale)));
  const rows = { width: work.width, height: bottom - top, data: work.data.subarray(top * work.width, bottom * work.width) };
  return {
    width: img.width,
    height: img.height,
    scale,
    offset: { x: 0, y: top / scale },
    image: { data: grayToRgba(rows), width: rows.width, height: rows.height },
  };
}

/** Reads a normalised page image from R2 FILES as gray. */
export async function loadPageGray(files: R2Bucket, pageKey: string): Promise<GrayImage> {
  const bytes = await readBytes(files, pageKey, "page image");
  const format = sniffFormat(bytes);
  if (!format || format === "pdf")
    throw engineError("unsupported_media_type", `The page image at ${JSON.stringify(pageKey)} is not an image format the engine reads.`);
  return decodeToGray(bytes, format);
}
