import type { DetectResult, PageText, RecognizeResult } from "../contract";
import type { EngineEnv } from "../env";
import { engineError } from "../errors";
import { canHoldText, inkFraction, TEXT_INK_FROM } from "../image/ink";
import { detectLayout, layoutOfText } from "../layout/detect";
import { resolveLanguages, trialLanguage } from "../ocr/languages";
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
  const page = { ...(await recognizeWith(env.MODELS, ocrRasterFromGray(gray), langs)), path: meta.path };
  return { etag: meta.etag, requested: languages, languages: langs, page };
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
  const lines = layout.blocks.flatMap((b) => b.items);
  return {
    key: outKey,
    regions: layout.blocks.length,
    lines: lines.length,
    words: lines.reduce((n, l) => n + l.words.length, 0),
    path: layout.path,
  };
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
  if (meta.path === "text_layer") page = { ...(await readTextLayer(env.FILES, meta)), languages };
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
  return {
    key: outKey,
    regions: page.regions.length,
    words: countWords(page),
    chars: countChars(page),
    confidence: page.confidence,
    path: page.path ?? "ocr",
    languages: page.languages,
    heapBytes: meta.path === "text_layer" ? 0 : largestHeap(),
    rotation: (((meta.transform?.sourceRotation ?? 0) + (meta.transform?.rotation ?? 0)) % 360) as RecognizeResult["rotation"],
  };
}
