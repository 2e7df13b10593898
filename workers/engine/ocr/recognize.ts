import type { PageText } from "../contract";
import { asEngineError } from "../errors";
import { parseHocr } from "./hocr";
import type { OcrRaster } from "./page-raster";
import { buildPageText } from "./page-text";
import { afterPage, discardEngine, getEngine, loadRaster, type CachedEngine } from "./tesseract";

/**
 * Loads the image, runs recognition and clears the image, all synchronously: OCR calls into
 * the engine never interleave with another request's in this isolate.
 */
function runOcr(cached: CachedEngine, raster: OcrRaster): string {
  const { engine } = cached;
  try {
    loadRaster(engine, raster.image);
    return engine.getHOCR();
  } finally {
    try {
      engine.clearImage();
    } catch {
      // ignored: a failure here surfaces through the main error
    }
  }
}

/** Recognises the page in one language. */
async function recognizeIn(models: R2Bucket, raster: OcrRaster, language: string): Promise<PageText> {
  const cached = await getEngine(models, language);
  let hocr: string;
  try {
    hocr = runOcr(cached, raster);
  } catch (err) {
    discardEngine(language);
    throw asEngineError(err, "ocr_failed", `Recognition (${language}) failed`);
  } finally {
    afterPage(language);
  }
  return buildPageText(parseHocr(hocr), { width: raster.width, height: raster.height, scale: raster.scale, languages: [language] });
}

/**
 * Recognises a page. tesseract-wasm loads one model per engine, so with several languages
 * the page is read once per language and the reading with the highest mean word confidence
 * wins (the first language on ties).
 */
export async function recognizePage(models: R2Bucket, raster: OcrRaster, languages: string[]): Promise<PageText> {
  let best: PageText | null = null;
  for (const lang of languages) {
    const page = await recognizeIn(models, raster, lang);
    if (!best || page.confidence > best.confidence) best = page;
  }
  return { ...best!, languages };
}
