import { PhotonImage, SamplingFilter, resize } from "@cf-wasm/photon";
import { engineError } from "../errors";
import { probeRaster } from "../image/headers";
import { MAX_PHOTON_PIXELS } from "../memory";
import { rotateQuarter, rotateSmall, unscaledSize } from "../image/geometry";
import { warpGray } from "../image/perspective";
import { applyLineWarp } from "../image/dewarp";
import { luma, type GrayImage, type RgbaImage } from "../image/gray";
import { applyOrientationRgba, jpegOrientation } from "../image/orientation";
import { decodeLargeJpeg } from "../image/jpeg-scaled";
import { sniffFormat } from "../image/sniff";
import { decodeTiffPageRgba } from "../image/tiff";
import { readBytes } from "../storage/r2";
import { readPageMeta } from "../storage/page-meta";

export type { RgbaImage } from "../image/gray";

/** Runs `fn` on a photon image and frees it whatever happens (wasm memory is not collected). */
function withPhoton<T>(img: PhotonImage, fn: (img: PhotonImage) => T): T {
  try {
    return fn(img);
  } finally {
    try {
      img.free();
    } catch {
      // already freed
    }
  }
}

/** Decodes PNG, JPEG, WebP, GIF or BMP bytes to RGBA with photon; a JPEG above its limit at a smaller size (`decodedJpegSize`). */
export function decodeRgba(bytes: Uint8Array, what: string): RgbaImage {
  const format = sniffFormat(bytes);
  if (!format || format === "pdf" || format === "tiff" || format === "pnm")
    throw engineError("unsupported_media_type", `The ${what} is not an image photon decodes.`);
  const probe = probeRaster(bytes, format);
  if (probe.width * probe.height > MAX_PHOTON_PIXELS) {
    if (format === "jpeg") return decodeLargeJpeg(bytes, probe.width, probe.height);
    throw engineError("image_too_large", `The ${what} (${probe.width}x${probe.height}) is too large to edit.`);
  }
  let img: PhotonImage;
  try {
    img = PhotonImage.new_from_byteslice(bytes);
  } catch (err) {
    throw engineError("corrupt_file", `The ${what} could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  }
  return withPhoton(img, (i) => ({ width: i.get_width(), height: i.get_height(), data: i.get_raw_pixels() }));
}

/** Reads an image from R2 FILES as RGBA. */
export async function loadRgba(files: R2Bucket, key: string, what: string): Promise<RgbaImage> {
  return decodeRgba(await readBytes(files, key, what), what);
}

/** Resamples to the given size (photon, Catmull-Rom). */
export function resizeRgba(img: RgbaImage, width: number, height: number): RgbaImage {
  if (img.width === width && img.height === height) return img;
  return withPhoton(new PhotonImage(img.data, img.width, img.height), (p) =>
    withPhoton(resize(p, width, height, SamplingFilter.CatmullRom), (r) => ({ width, height, data: r.get_raw_pixels() })),
  );
}

export type ImageEncoding = "png" | "jpg" | "webp";

export const IMAGE_CONTENT_TYPES: Record<ImageEncoding, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" };

/** Quality of every JPEG the engine writes. */
export const JPEG_QUALITY = 90;

/** Encodes RGBA pixels; JPEG at `JPEG_QUALITY` (photon composites nothing: pages are opaque). */
export function encodeRgba(img: RgbaImage, as: ImageEncoding): Uint8Array {
  return withPhoton(new PhotonImage(img.data, img.width, img.height), (p) =>
    as === "png" ? p.get_bytes() : as === "jpg" ? p.get_bytes_jpeg(JPEG_QUALITY) : p.get_bytes_webp(),
  );
}

/** Re-encodes stored image bytes to another encoding (PNG bytes stay as they are). */
export function transcode(bytes: Uint8Array, as: ImageEncoding, what: string): Uint8Array {
  if (as === "png" && sniffFormat(bytes) === "png") return bytes;
  return encodeRgba(decodeRgba(bytes, what), as);
}

/** Luma (Rec. 601) of an RGBA raster. */
export function lumaOf(img: RgbaImage): Uint8Array {
  const n = img.width * img.height;
  const out = new Uint8Array(n);
  const d = img.data;
  for (let i = 0, j = 0; i < n; i++, j += 4) out[i] = luma(d[j]!, d[j + 1]!, d[j + 2]!);
  return out;
}

/** An RGBA raster's three colour channels as gray images, and back (alpha opaque). */
function channels(img: RgbaImage): GrayImage[] {
  return [0, 1, 2].map((c) => {
    const data = new Uint8Array(img.width * img.height);
    for (let i = 0, j = c; i < data.length; i++, j += 4) data[i] = img.data[j]!;
    return { width: img.width, height: img.height, data };
  });
}

function merged(planes: GrayImage[]): RgbaImage {
  const { width, height } = planes[0]!;
  const data = new Uint8Array(width * height * 4).fill(255);
  planes.forEach((p, c) => {
    for (let i = 0, j = c; i < p.data.length; i++, j += 4) data[j] = p.data[i]!;
  });
  return { width, height, data };
}

/**
 * The colour base for a page: a document's page image is gray (contrast-stretched for OCR), so when
 * the upload is a colour raster, the original's colours are used instead, put through the page's own
 * transform (fitted to its size, turned and deskewed as it was); a TIFF's colour pages too. A
 * picture's page image keeps its colours already. Otherwise (PDF, gray uploads) the page image itself.
 */
export async function loadPageBase(
  files: R2Bucket,
  pageKey: string,
  sourceKey: string | undefined,
  page: number | undefined,
): Promise<RgbaImage> {
  const pageImage = await loadRgba(files, pageKey, "page image");
  if (!sourceKey) return pageImage;
  const meta = await readPageMeta(files, pageKey);
  const t = meta.transform;
  if (!t || meta.path !== "ocr") return pageImage;
  const bytes = await readBytes(files, sourceKey, "upload");
  const format = sniffFormat(bytes);
  // PDF and Netpbm pages keep the page image; so do a TIFF's gray pages and the pages past the first of a single-page format.
  if (!format || format === "pdf" || format === "pnm" || (format !== "tiff" && (page ?? 0) !== 0)) return pageImage;
  let source = format === "tiff" ? await decodeTiffPageRgba(bytes, page ?? 0) : decodeRgba(bytes, "upload");
  if (!source) return pageImage;
  if (format === "jpeg") source = applyOrientationRgba(source, jpegOrientation(bytes));
  if (source.width !== t.sourceWidth || source.height !== t.sourceHeight) return pageImage;
  // A photographed page is made flat channel by channel; any other is fitted to the page's size.
  const { width, height } = unscaledSize(t);
  const fitted = t.flat ? source : resizeRgba(source, Math.round(width * t.scale), Math.round(height * t.scale));
  if (!t.flat && !t.dewarp && t.rotation === 0 && t.skew === 0)
    return fitted.width === pageImage.width && fitted.height === pageImage.height ? fitted : pageImage;
  const flat = (p: GrayImage) => (t.flat ? warpGray(p, t.flat.quad, width, height) : p);
  // Turned and deskewed channel by channel, exactly as the gray page was.
  const straight = (p: GrayImage) => (t.dewarp ? applyLineWarp(p, t.dewarp) : p);
  const base = merged(channels(fitted).map((p) => straight(rotateSmall(rotateQuarter(flat(p), t.rotation), t.skew))));
  return base.width === pageImage.width && base.height === pageImage.height ? base : pageImage;
}
