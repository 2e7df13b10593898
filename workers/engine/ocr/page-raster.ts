import type { Band } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { decodeToGray } from "../image/decode";
import { downscaleGray, grayToRgba, type GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
import { MAX_OCR_PIXELS, MAX_OCR_SIDE } from "../memory";
import { sniffFormat } from "../image/sniff";
import { pageResolution, type PageMeta } from "../storage/page-meta";

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
  /** Pixels per inch of `image`, where the page's are known: given to tesseract, which otherwise estimates them. */
  dpi?: number;
}

/** `dpi` of a raster `scale` times the size of `img`, when `img`'s is known. */
const scaledDpi = (img: GrayImage, scale: number) => (img.dpi ? { dpi: img.dpi * scale } : {});

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
    ...scaledDpi(img, applied),
  };
}

/**
 * The part `band` (page pixels) of the page's working raster: the same pixels as those of
 * `ocrRasterFromGray(img)`, placed on the page by their offset, so a part reads as it would on the
 * page: a band across the page keeps its rows, a part with `w` its rectangle.
 */
export function ocrRasterOfBand(img: GrayImage, band: Band): OcrRaster {
  const work = downscaleGray(img, fitScale(img.width, img.height, MAX_OCR_SIDE, MAX_OCR_PIXELS));
  const scale = work.width / img.width;
  const span = (from: number, length: number, size: number) => {
    const a = Math.max(0, Math.min(size - 1, Math.round(from * scale)));
    return [a, Math.max(a + 1, Math.min(size, Math.round((from + length) * scale)))] as const;
  };
  const [top, bottom] = span(band.y, band.h, work.height);
  const [left, right] = band.w === undefined ? [0, work.width] : span(band.x ?? 0, band.w, work.width);
  const width = right - left;
  const height = bottom - top;
  let data = work.data.subarray(top * work.width, bottom * work.width);
  if (band.w !== undefined) {
    data = new Uint8Array(width * height);
    for (let y = top; y < bottom; y++) data.set(work.data.subarray(y * work.width + left, y * work.width + right), (y - top) * width);
  }
  return {
    width: img.width,
    height: img.height,
    scale,
    offset: { x: left / scale, y: top / scale },
    image: { data: grayToRgba({ width, height, data }), width, height },
    ...scaledDpi(img, scale),
  };
}

/**
 * The page image this isolate decoded last, by key and etag: a page's planning, band and join
 * calls that land on one isolate decode it once (a PNG decode of an A4 page at 300 dpi is
 * 40–60 ms of CPU, on the critical path of every call). One page is held at a time, released
 * before another is decoded. Readers never write into a page's pixels.
 */
let lastPage: { key: string; etag: string; gray: GrayImage } | null = null;

/**
 * Reads a normalised page image from R2 FILES as gray. `etag`: the image's etag as the caller
 * found it, when the decoded copy this isolate holds of that version may serve.
 */
export async function loadPageGray(files: R2Bucket, pageKey: string, etag?: string): Promise<GrayImage> {
  if (etag && lastPage?.key === pageKey && lastPage.etag === etag) return lastPage.gray;
  lastPage = null;
  const obj = await files.get(pageKey);
  if (!obj) throw engineError("not_found", `No page image at key ${JSON.stringify(pageKey)}.`);
  const bytes = new Uint8Array(await obj.arrayBuffer());
  const format = sniffFormat(bytes);
  if (!format || format === "pdf")
    throw engineError("unsupported_media_type", `The page image at ${JSON.stringify(pageKey)} is not an image format the engine reads.`);
  const gray = await decodeToGray(bytes, format);
  lastPage = { key: pageKey, etag: obj.etag, gray };
  return gray;
}

/** `loadPageGray` for reading the page: with its pixels per inch (`GrayImage.dpi`) where its source's are known. */
export async function loadPageForReading(files: R2Bucket, pageKey: string, meta: PageMeta): Promise<GrayImage> {
  const gray = await loadPageGray(files, pageKey, meta.etag);
  const dpi = pageResolution(meta.transform);
  return dpi ? { ...gray, dpi } : gray;
}
