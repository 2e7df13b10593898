import type { InputFormat, OcrMode } from "../../shared/engine-contract";
import type { EngineEnv } from "../env";
import { engineError } from "../errors";
import { decodePage } from "../image/decode";
import type { GrayImage } from "../image/gray";
import { probeRaster } from "../image/headers";
import { credibleResolution, declaredResolution } from "../image/resolution";
import { sniffFormat } from "../image/sniff";
import type { SourcePage } from "../image/source-page";
import { pdfSourcePage } from "../pdf/source-page";
import { readBytes } from "../storage/r2";

/** Reads an upload and sniffs it; unreadable formats are `[unsupported_media_type]`. */
export async function readSource(env: EngineEnv, sourceKey: string): Promise<{ bytes: Uint8Array; format: InputFormat }> {
  const bytes = await readBytes(env.FILES, sourceKey);
  const format = sniffFormat(bytes);
  if (!format) throw engineError("unsupported_media_type", "The file is not an image or PDF the engine reads.");
  return { bytes, format };
}

/**
 * Reads page `page` of an upload: raster formats are decoded (TIFF page by page); PDF pages use
 * their text layer, else their images composed, else a browser rendering (`pdf/source-page.ts`).
 */
export async function loadSourcePage(
  bytes: Uint8Array,
  format: InputFormat,
  page: number,
  browser: unknown,
  pdf: { languages?: string[]; ocrMode?: OcrMode; drawLater?: boolean } = {},
): Promise<SourcePage> {
  if (!Number.isInteger(page) || page < 0) throw engineError("validation_error", "page must be a zero-based page index.");
  if (format === "pdf") return pdfSourcePage(bytes, page, { browser, ...pdf });
  const { image, colourless } = await decodePage(bytes, format, page);
  const resolution = imageResolution(bytes, format, page, image);
  return { image, path: "ocr", rendered: true, ...(colourless ? { colourless } : {}), ...(resolution ? { resolution } : {}) };
}

/** The decoded image's pixels per inch, from what the file states (a large JPEG is decoded smaller than its pixels). */
function imageResolution(bytes: Uint8Array, format: Exclude<InputFormat, "pdf">, page: number, image: GrayImage): number | null {
  const stated = declaredResolution(bytes, format, page);
  if (!stated) return null;
  const file = format === "tiff" ? image : probeRaster(bytes, format);
  const ppi = stated * Math.sqrt((image.width * image.height) / (file.width * file.height));
  return credibleResolution(ppi, image.width, image.height);
}
