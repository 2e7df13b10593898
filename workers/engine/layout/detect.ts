import type { Box, PageLayout } from "../contract";
import { asEngineError } from "../errors";
import type { OcrRaster } from "../ocr/page-raster";
import { toPageBox } from "../ocr/page-text";
import { anyCachedEngine, discardEngine, getEngine, loadRaster, type CachedEngine } from "../ocr/tesseract";
import { groupLinesIntoBlocks } from "./group-lines";

/**
 * Layout analysis only (no recognition): tesseract's line boxes, grouped into blocks.
 * Any engine will do, since layout analysis needs no model; if none is warm, the engine for
 * `fallbackLanguage` is created so that the following recognition finds it ready.
 */
export async function detectLayout(models: R2Bucket, raster: OcrRaster, fallbackLanguage: string): Promise<PageLayout> {
  const cached: CachedEngine = anyCachedEngine() ?? (await getEngine(models, fallbackLanguage));
  let lines: Box[];
  try {
    loadRaster(cached.engine, raster.image);
    lines = cached.engine
      .getBoundingBoxes("line")
      .map((item) => toPageBox(item.rect, raster.scale, raster.width, raster.height))
      .filter((b) => b.w > 0 && b.h > 0);
  } catch (err) {
    discardEngine(cached.language);
    throw asEngineError(err, "ocr_failed", "Layout analysis failed");
  } finally {
    try {
      cached.engine.clearImage();
    } catch {
      // see runOcr
    }
  }
  return { width: raster.width, height: raster.height, blocks: groupLinesIntoBlocks(lines) };
}
