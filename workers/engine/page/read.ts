import type { DetectResult, PageLayout, PageText, PageTransform, RecognizeResult } from "../contract";
import type { EngineEnv } from "../env";
import { engineError } from "../errors";
import { canHoldText, inkFraction, TEXT_INK_FROM } from "../image/ink";
import { detectLayout, layoutOfText } from "../layout/detect";
import { resolveLanguages, trialLanguage } from "../ocr/languages";
import { readLayoutGaps } from "../ocr/layout-gaps";
import { mergeTextLayer } from "../ocr/merge-layer";
import { seededLanguages } from "../ocr/models";
import { loadPageGray, ocrRasterFromGray } from "../ocr/page-raster";
import { countChars, countWords } from "../ocr/page-text";
import { recognizeWith } from "../ocr/recognize";
import { largestHeap } from "../ocr/tesseract";
import { keptReading, readingKeyFor, readTextLayer, type KeptReading, type PageMeta } from "../storage/page-meta";
import { writeJson } from "../storage/r2";

/** OCR of a normalised page image in `languages` (`auto` resolved on the page). */
async function readPage(env: EngineEnv, pageKey: string, meta: PageMeta, languages: string[]): Promise<KeptReading> {
  const gray = await loadPageGray(env.FILES, pageKey);
  const langs = await resolveLanguages(env.MODELS, languages, gray, meta.autoLanguage);
  const read = await recognizeWith(env.MODELS, ocrRasterFromGray(gray), langs);
  const page = { ...(await readLayoutGaps(env.MODELS, gray, read, langs)), path: meta.path };
  return { etag: meta.etag, requested: languages, languages: langs, page };
}

/** `detect`'s answer for a layout written at `key`. */
function detectResult(key: string, layout: PageLayout): DetectResult {
  const lines = layout.blocks.flatMap((b) => b.items);
  return {
    key,
    regions: layout.blocks.length,
    lines: lines.length,
    words: lines.reduce((n, l) => n + l.words.length, 0),
    path: layout.path,
  };
}

/** `recognize`'s answer for a page text written at `key`. */
function recognizeResult(key: string, page: PageText, heapBytes: number, transform: PageTransform | null): RecognizeResult {
  return {
    key,
    regions: page.regions.length,
    words: countWords(page),
    chars: countChars(page),
    confidence: page.confidence,
    path: page.path ?? "ocr",
    languages: page.languages,
    heapBytes,
    rotation: (((transform?.sourceRotation ?? 0) + (transform?.rotation ?? 0)) % 360) as RecognizeResult["rotation"],
  };
}

/** A text-layer page's text as `recognize` writes it: the layer, in the languages asked for. */
const layerText = (layer: PageText, languages: string[]): PageText => ({ ...layer, languages });

/**
 * A text-layer page's layout and text written where `detect` and `recognize` write them, with
 * their answers: the same files those calls make from the page image, without reading it back.
 */
export async function writeTextLayerReading(
  files: R2Bucket,
  layer: PageText,
  transform: PageTransform,
  languages: string[],
  keys: { layout: string; text: string },
): Promise<{ detect: DetectResult; recognize: RecognizeResult }> {
  const layout = layoutOfText(layer);
  const page = layerText(layer, languages);
  await Promise.all([writeJson(files, keys.layout, layout), writeJson(files, keys.text, page)]);
  return { detect: detectResult(keys.layout, layout), recognize: recognizeResult(keys.text, page, 0, transform) };
}

/**
 * Layout analysis: blocks → lines → words in reading order, written as `PageLayout` JSON. With
 * `languages` (recognition follows), the page is read once and the reading kept for `recognize`.
 */
export async function detectPage(
  env: EngineEnv,
  pageKey: string,
  meta: PageMeta,
  outKey: string,
  languages: string[] | undefined,
): Promise<DetectResult> {
  let layout;
  if (meta.path === "text_layer") layout = layoutOfText(await readTextLayer(env.FILES, meta));
  else if (languages) {
    const reading = await readPage(env, pageKey, meta, languages);
    await writeJson(env.FILES, readingKeyFor(pageKey), reading);
    layout = { ...layoutOfText(reading.page), path: meta.path };
  } else {
    const seeded = await seededLanguages(env.MODELS);
    if (seeded.length === 0) throw engineError("unsupported_language", "No OCR model is installed.");
    const raster = ocrRasterFromGray(await loadPageGray(env.FILES, pageKey));
    layout = { ...(await detectLayout(env.MODELS, raster, trialLanguage(undefined, seeded))), path: meta.path };
  }
  await writeJson(env.FILES, outKey, layout);
  return detectResult(outKey, layout);
}

/**
 * Recognises a page's text (or takes its text layer), written as `PageText` JSON. A page with
 * ink on it where recognition finds nothing fails as `[no_text_found]` rather than passing empty.
 */
export async function recognizePage(
  env: EngineEnv,
  pageKey: string,
  meta: PageMeta,
  outKey: string,
  languages: string[],
): Promise<RecognizeResult> {
  let page: PageText;
  if (meta.path === "text_layer") page = layerText(await readTextLayer(env.FILES, meta), languages);
  else {
    const reading = (await keptReading(env.FILES, pageKey, meta, languages)) ?? (await readPage(env, pageKey, meta, languages));
    page = reading.page;
    // A scan with visible text on it: the layer's exact words join what OCR read.
    if (meta.textLayerKey) page = mergeTextLayer(page, await readTextLayer(env.FILES, meta));
    // An icon-sized source cannot hold legible text: nothing read there is an empty page.
    const legible = !meta.transform || canHoldText(meta.transform.sourceWidth, meta.transform.sourceHeight);
    if (countChars(page) === 0 && legible && inkFraction(await loadPageGray(env.FILES, pageKey)) >= TEXT_INK_FROM) {
      throw engineError(
        "no_text_found",
        `No text was recognised on the page, though it holds ink (a picture, handwriting, or text in a language other than ${reading.languages.join("+")}). The page is not charged.`,
      );
    }
  }
  await writeJson(env.FILES, outKey, page);
  return recognizeResult(outKey, page, meta.path === "text_layer" ? 0 : largestHeap(), meta.transform);
}
