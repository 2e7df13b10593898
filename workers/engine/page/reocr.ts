import type { Box, ReocrResult } from "../../shared/engine-contract";
import type { EngineEnv } from "../env";
import { trialLanguage } from "../ocr/languages";
import { seededLanguages } from "../ocr/models";
import { clampBox, normalisedSize, reocrRect, textLayerIn } from "../ocr/reocr";
import { readTextLayer, type PageMeta } from "../storage/page-meta";
import { normaliseSource } from "./normalise";
import { loadSourcePage, readSource } from "./source";

/**
 * Recognises one rectangle (normalised page coordinates) from the original upload at full
 * resolution. Pages read from a text layer answer with the layer's words in the rectangle.
 */
export async function reocrPage(
  env: EngineEnv,
  sourceKey: string,
  page: number,
  meta: PageMeta | null,
  box: Box,
  languages: string[],
): Promise<ReocrResult> {
  if (meta?.path === "text_layer" && meta.transform) {
    const size = normalisedSize(meta.transform);
    return textLayerIn(await readTextLayer(env.FILES, meta), clampBox(box, size.width, size.height));
  }
  const { bytes, format } = await readSource(env, sourceKey);
  const source = await loadSourcePage(bytes, format, page, env.BROWSER);
  const language = async () => trialLanguage(languages, await seededLanguages(env.MODELS));
  // Without the page image's record, orientation and skew are found again (same result, more work).
  const fresh = meta?.transform ? null : await normaliseSource(source, { models: env.MODELS, browser: env.BROWSER, language });
  const transform = meta?.transform ?? fresh!.transform;
  const size = normalisedSize(transform);
  const clamped = clampBox(box, size.width, size.height);
  if (fresh?.textLayer && fresh.path === "text_layer") return textLayerIn(fresh.textLayer, clamped);
  return reocrRect(env.MODELS, source, transform, clamped, languages);
}
