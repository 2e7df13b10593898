import type { Box, ReocrResult } from "../../shared/engine-contract";
import type { EngineEnv } from "../env";
import { trialLanguage } from "../ocr/languages";
import { seededLanguages } from "../ocr/models";
import { clampBox, normalisedSize, reocrRect, textLayerIn } from "../ocr/reocr";
import { reocrLyingRect } from "../picture/lying-rect";
import { readTextLayer, type PageMeta } from "../storage/page-meta";
import { normaliseUploaded } from "./normalise";
import { readPictureBlocksIn } from "./read";
import { loadSourcePage, readSource } from "./source";
import { readingPage } from "../picture/scan-skew";

/**
 * Recognises one rectangle (normalised page coordinates) from the original upload at full
 * resolution. Pages read from a text layer answer with the layer's words in the rectangle; pages
 * read as pictures have the text blocks that reach into the rectangle read again as the page read
 * them (`readPictureBlocksIn`); failing that, the rectangle is read as one block, on a photographed
 * picture's page made flat (`reocrLyingRect`).
 */
export async function reocrPage(
  env: EngineEnv,
  sourceKey: string,
  page: number,
  meta: PageMeta | null,
  pageKey: string | undefined,
  box: Box,
  languages: string[],
): Promise<ReocrResult> {
  if (meta?.path === "text_layer" && meta.transform) {
    const size = normalisedSize(meta.transform);
    return textLayerIn(await readTextLayer(env.FILES, meta), clampBox(box, size.width, size.height));
  }
  if (meta?.path === "picture" && meta.transform && pageKey) {
    // The page's blocks in the rectangle, read as the page was; else the rectangle alone, as below.
    const size = normalisedSize(meta.transform);
    const blocks = await readPictureBlocksIn(env, pageKey, meta, clampBox(box, size.width, size.height), languages);
    if (blocks.lines.length) return blocks;
  }
  const { bytes, format } = await readSource(env, sourceKey);
  const source = await loadSourcePage(bytes, format, page, env.BROWSER);
  const language = async () => trialLanguage(languages, await seededLanguages(env.MODELS));
  // Without the page image's record, the page is judged again as its upload was, with the page kind
  // `auto` (same result, more work).
  const fresh = meta?.transform
    ? null
    : await normaliseUploaded(source, format, { models: env.MODELS, browser: env.BROWSER, language, kind: "auto" });
  const transform = meta?.transform ?? fresh!.transform;
  const size = normalisedSize(transform);
  const clamped = clampBox(box, size.width, size.height);
  if (fresh?.textLayer && fresh.path === "text_layer") return textLayerIn(fresh.textLayer, clamped);
  const flat = readingPage(transform);
  if (flat) return reocrLyingRect(env.MODELS, source, { ...transform, lying: flat }, clamped, languages);
  return reocrRect(env.MODELS, source, transform, clamped, languages);
}
