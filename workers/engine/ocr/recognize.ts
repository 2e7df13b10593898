import type { Box, PageText } from "../../shared/engine-contract";
import { asEngineError } from "../errors";
import { credibleDpi } from "../image/resolution";
import { parseHocr } from "./hocr";
import { readColumns } from "./vertical";
import { mergeReadings } from "./merge-readings";
import { ocrModel } from "../../shared/ocr-models";
import type { HocrBlock } from "./hocr";
import type { OcrRaster } from "./page-raster";
import { buildPageText, toPageBox } from "./page-text";
import { applyWordSpacing } from "./word-spacing";
import { afterPage, discardEngine, getEngine, loadRaster, pageSegmentation, type CachedEngine } from "./tesseract";

/**
 * Runs `read` on the engine with the raster loaded, then clears the image, all synchronously:
 * OCR calls into the engine never interleave with another request's in this isolate.
 */
function withImage<T>(cached: CachedEngine, raster: OcrRaster, read: (engine: CachedEngine["engine"]) => T): T {
  const { engine } = cached;
  try {
    loadRaster(engine, raster.image);
    // Loading an image resets the segmentation mode: set the model's own for every reading.
    engine.setVariable("tessedit_pageseg_mode", pageSegmentation(cached.language));
    // The engine is shared: every reading gives its resolution, or 0 for tesseract to estimate it.
    engine.setVariable("user_defined_dpi", String(credibleDpi(raster.dpi)));
    // Every character may be read unless a reading says otherwise (`ReadingOptions.lettering`).
    engine.setVariable("tessedit_char_blacklist", "");
    return read(engine);
  } finally {
    try {
      engine.clearImage();
    } catch {
      // ignored: a failure here surfaces through the main error
    }
  }
}

/** Runs `read` against the isolate's engine for `language`, discarding the engine if it traps. */
export async function withEngine<T>(
  models: R2Bucket,
  language: string,
  raster: OcrRaster,
  read: (engine: CachedEngine["engine"]) => T,
): Promise<T> {
  const cached = await getEngine(models, language);
  try {
    return withImage(cached, raster, read);
  } catch (err) {
    discardEngine(language);
    throw asEngineError(err, "ocr_failed", `Recognition (${language}) failed`);
  } finally {
    afterPage(language);
  }
}

/**
 * Tesseract page segmentation modes used: the model's page mode (`pageSegmentation`) for pages,
 * one uniform block of text for crops (table cells, re-OCR rectangles; of vertical text with a
 * vertical model), where automatic layout tends to drop short text, one line (`line`: a line of
 * a picture's block cut out where tesseract ran its lines together), and `picture`: automatic
 * layout over a photograph that holds a few lines of text, binarised locally (Sauvola), since one
 * global threshold over a picture's lights and darks loses the text.
 */
export type SegmentationMode = "page" | "block" | "line" | "picture";

/**
 * How a reading treats lines it reads with low confidence. `invert` (tesseract's default,
 * `tessedit_do_invert`): it reads such a line's inverted image too, for white text on a dark
 * ground. Mostly light gap areas (`readLayoutGaps`) and trial readings (which judge orientation and
 * language by a page's ordinary text) skip it: on charts and pictures most lines read with low
 * confidence, upside-down trial bands all do, and inverting each doubles a reading's cost
 * (OCRmyPDF's graph.pdf: its one gap area 0.65 → 0.41 s).
 */
export interface ReadingOptions {
  invert?: boolean;
  /** A picture's lettering: in Latin script, signs never lettered are not read (`LETTERING_NEVER`). */
  lettering?: boolean;
}

/**
 * Signs that hand lettering in Latin script never holds (prices, trade marks, typography), which
 * tesseract read for heavy lettering's letters: "«WHAT", "|T¢" for IT'S, "A¢" for AS.
 * A grawlix's #@$%&* stay readable. French, Spanish and other lettering quotes with « », so those are
 * left out for English only.
 */
const LETTERING_NEVER = "¢©®°¬¦µ¶§€£¥™¤\\{}<>=~^_";
const LETTERING_NEVER_ENGLISH = "«»„";

/** The signs a reading of lettering in `language` leaves out; none outside Latin script. */
function letteringNever(language: string): string {
  if (ocrModel(language)?.script !== "Latin") return "";
  return language === "eng" ? LETTERING_NEVER + LETTERING_NEVER_ENGLISH : LETTERING_NEVER;
}

/** `tessedit_do_invert` for a reading: every reading sets it, since the engine is shared. */
export function setInversion(engine: CachedEngine["engine"], invert: boolean): void {
  engine.setVariable("tessedit_do_invert", invert ? "1" : "0");
}

/** Recognises the raster (a page or a crop of one) in one language. */
export async function recognizeIn(
  models: R2Bucket,
  raster: OcrRaster,
  language: string,
  mode: SegmentationMode = "page",
  { invert = true, lettering = false }: ReadingOptions = {},
): Promise<PageText> {
  const readBlocks = async (r: OcrRaster, turned = false): Promise<HocrBlock[]> => {
    const { hocr, text } = await withEngine(models, language, r, (engine) => {
      // A crop of columns stays one block of vertical text (the model's mode 5).
      const horizontal = !ocrModel(language)?.vertical;
      if (mode === "block" && horizontal) engine.setVariable("tessedit_pageseg_mode", "6");
      else if (mode === "line" && horizontal) engine.setVariable("tessedit_pageseg_mode", "7");
      else if (turned) engine.setVariable("tessedit_pageseg_mode", "4");
      // The engine is shared: every reading sets its binarisation (0 = Otsu, tesseract's default).
      engine.setVariable("thresholding_method", mode === "picture" ? "2" : "0");
      setInversion(engine, invert);
      if (lettering) engine.setVariable("tessedit_char_blacklist", letteringNever(language));
      // The text output of the same reading (no second recognition) carries tesseract's word spacing.
      return { hocr: engine.getHOCR(), text: engine.getText() };
    });
    return applyWordSpacing(parseHocr(hocr), text);
  };
  const { raster: read, blocks } = ocrModel(language)?.vertical
    ? await readColumns(raster, language, readBlocks, mode === "block")
    : { raster, blocks: await readBlocks(raster) };
  return {
    ...buildPageText(blocks, {
      width: raster.width,
      height: raster.height,
      scale: read.scale,
      languages: [language],
      offset: raster.offset,
    }),
    path: "ocr",
  };
}

/** Tesseract's text lines on the raster (layout analysis only, as a page reading binarises it), page pixels, reading order. */
export async function lineBoxes(models: R2Bucket, raster: OcrRaster, language: string): Promise<Box[]> {
  return withEngine(models, language, raster, (engine) => {
    engine.setVariable("thresholding_method", "0");
    return engine
      .getBoundingBoxes("line")
      .map((i) => toPageBox(i.rect, raster.scale, raster.width, raster.height, raster.offset))
      .filter((b) => b.w > 0 && b.h > 0);
  });
}

/**
 * Recognises with the given languages. tesseract-wasm loads one model per engine, so with several
 * languages the raster is read once per language and the readings are merged line by line
 * (`mergeReadings`): each line comes from the language that reads it most confidently.
 */
export async function recognizeWith(
  models: R2Bucket,
  raster: OcrRaster,
  languages: string[],
  mode: SegmentationMode = "page",
  options: ReadingOptions = {},
): Promise<PageText> {
  const readings: PageText[] = [];
  for (const lang of languages) readings.push(await recognizeIn(models, raster, lang, mode, options));
  return { ...mergeReadings(readings), languages };
}
