import type {
  Band,
  Box,
  DetectResult,
  PageLayout,
  PageText,
  PageTransform,
  RecognizeResult,
  ReocrResult,
} from "../../shared/engine-contract";
import type { EngineEnv } from "../env";
import { engineError } from "../errors";
import { canHoldText, inkFraction, TEXT_INK_FROM } from "../image/ink";
import { boxOnFlat } from "../image/perspective";
import { detectLayout, layoutOfText } from "../layout/detect";
import { resolveLanguages, trialLanguage } from "../ocr/languages";
import type { GrayImage } from "../image/gray";
import { readLayoutGaps, readWithGaps } from "../ocr/layout-gaps";
import { linesIn, reocrAnswer } from "../ocr/reocr";
import { mergeTextLayer } from "../ocr/merge-layer";
import { seededLanguages } from "../ocr/models";
import { loadPageForReading, loadPageGray, ocrRasterFromGray, ocrRasterOfBand } from "../ocr/page-raster";
import { countChars, countWords } from "../ocr/page-text";
import { recognizeWith } from "../ocr/recognize";
import { largestHeap } from "../ocr/tesseract";
import { readPicture } from "../picture/read-picture";
import { flattenLying, textOnPhoto } from "../picture/lying-page";
import { pictureGray } from "../picture/reading-light";
import { keptReading, readingKeyFor, readTextLayer, type KeptReading, type PageMeta } from "../storage/page-meta";
import { writeJson } from "../storage/r2";
import { joinBands, readOrSplit } from "./split";
import { readingPage } from "../picture/scan-skew";

/** The page image as gray, and the languages to read it in (`auto` resolved on the page). */
async function grayIn(env: EngineEnv, pageKey: string, meta: PageMeta, languages: string[]) {
  const gray = await loadPageForReading(env.FILES, pageKey, meta);
  return { gray, langs: await resolveLanguages(env.MODELS, languages, gray, meta.pageLanguage) };
}

/** A reading of the page image, kept for `recognize` in the languages asked for. */
const keep = (meta: PageMeta, requested: string[], page: PageText): KeptReading => ({
  etag: meta.etag,
  requested,
  languages: page.languages,
  page: { ...page, path: meta.path },
});

/**
 * A picture's text: its blocks read one by one (`readPicture`) on its reading gray (`pictureGray`).
 * Should none read as text, the page is read as a document is, as it stands (not turned), so that
 * nothing is lost to the choice. A photographed picture is read on the page lying in it made flat,
 * a picture scanned askew on its page turned level (`readingPage`), and what is read there is put
 * back on the picture (`textOnPhoto`).
 */
async function readPicturePage(
  env: EngineEnv,
  gray: GrayImage,
  transform: PageTransform | null,
  langs: string[],
  within?: Box,
): Promise<PageText> {
  const read = async (image: GrayImage, part?: Box): Promise<PageText> => {
    const reading = pictureGray(image, transform);
    const page = await readPicture(env.MODELS, reading, langs, await seededLanguages(env.MODELS), part);
    if (countChars(page) > 0 || part) return page;
    return { ...(await readWithGaps(env.MODELS, reading, langs)), path: "picture" };
  };
  const flat = readingPage(transform);
  if (!flat) return read(gray, within);
  const lying = flattenLying(gray, flat, transform!.scale);
  const { width, height } = lying.image;
  return textOnPhoto(await read(lying.image, within && boxOnFlat(lying.quad, width, height, within)), lying, gray.width, gray.height);
}

/**
 * The blocks of a picture page that reach into `box` (page image coordinates), read as the page
 * was read: found on the whole page, so a balloon's outline and the art around it tell its
 * lettering apart as they did. Only the words whose centre lies in `box` are kept.
 */
export async function readPictureBlocksIn(
  env: EngineEnv,
  pageKey: string,
  meta: PageMeta,
  box: Box,
  languages: string[],
): Promise<ReocrResult> {
  const { gray, langs } = await grayIn(env, pageKey, meta, languages);
  const page = await readPicturePage(env, gray, meta.transform, langs, box);
  const lines = linesIn(
    page.regions.flatMap((r) => r.lines),
    box,
  );
  return reocrAnswer(lines, langs, "picture");
}

/** OCR of a normalised page image in `languages` (`auto` resolved on the page). */
async function readPage(env: EngineEnv, pageKey: string, meta: PageMeta, languages: string[]): Promise<KeptReading> {
  const { gray, langs } = await grayIn(env, pageKey, meta, languages);
  const page =
    meta.path === "picture" ? await readPicturePage(env, gray, meta.transform, langs) : await readWithGaps(env.MODELS, gray, langs);
  return keep(meta, languages, page);
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
 * `languages` (recognition follows), the page is read once and the reading kept for `recognize`;
 * with `split` > 1 a page with enough lines is divided into bands instead (nothing written: the
 * answer's `bands`), whose readings a later call joins (`bandTexts`). A picture is read whole (its
 * text blocks, one by one), in `languages` or, without them, in `pictureLanguages`: its layout is
 * the blocks that read as text.
 */
export async function detectPage(
  env: EngineEnv,
  pageKey: string,
  meta: PageMeta,
  outKey: string,
  languages: string[] | undefined,
  split: { most?: number; bandTexts?: string[] } = {},
  pictureLanguages?: string[],
): Promise<DetectResult> {
  let layout;
  if (meta.path === "text_layer") layout = layoutOfText(await readTextLayer(env.FILES, meta));
  else if (meta.path === "picture") {
    const reading = await readPage(
      env,
      pageKey,
      meta,
      languages ?? pictureLanguages ?? [trialLanguage(undefined, await seededLanguages(env.MODELS))],
    );
    if (languages) await writeJson(env.FILES, readingKeyFor(pageKey), reading);
    layout = { ...layoutOfText(reading.page), path: meta.path };
  } else if (languages) {
    let reading: KeptReading;
    if (split.bandTexts) {
      const joined = await joinBands(env.FILES, split.bandTexts);
      const gray = await loadPageGray(env.FILES, pageKey, meta.etag);
      reading = keep(meta, languages, await readLayoutGaps(env.MODELS, gray, joined, joined.languages));
    } else {
      const { gray, langs } = await grayIn(env, pageKey, meta, languages);
      const out = await readOrSplit(env, gray, langs, split.most ?? 1);
      if ("bands" in out) return { key: outKey, regions: 0, lines: 0, words: 0, path: meta.path, bands: out.bands, languages: langs };
      reading = keep(meta, languages, out.page);
    }
    await writeJson(env.FILES, readingKeyFor(pageKey), reading);
    layout = { ...layoutOfText(reading.page), path: meta.path };
  } else {
    const seeded = await seededLanguages(env.MODELS);
    if (seeded.length === 0) throw engineError("unsupported_language", "No OCR model is installed.");
    const raster = ocrRasterFromGray(await loadPageForReading(env.FILES, pageKey, meta));
    layout = { ...(await detectLayout(env.MODELS, raster, trialLanguage(undefined, seeded))), path: meta.path };
  }
  await writeJson(env.FILES, outKey, layout);
  return detectResult(outKey, layout);
}

/** One band of a page image read as the page would be (`detect`'s `bands`), written as `PageText` JSON. */
export async function recognizeBand(
  env: EngineEnv,
  pageKey: string,
  meta: PageMeta,
  outKey: string,
  languages: string[],
  band: Band,
): Promise<RecognizeResult> {
  if (meta.path === "text_layer") throw engineError("validation_error", "A page read from its text layer has no bands to read.");
  const { gray, langs } = await grayIn(env, pageKey, meta, languages);
  const page: PageText = { ...(await recognizeWith(env.MODELS, ocrRasterOfBand(gray, band), langs)), path: meta.path };
  await writeJson(env.FILES, outKey, page);
  return recognizeResult(outKey, page, largestHeap(), meta.transform);
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
    if (countChars(page) === 0 && legible && inkFraction(await loadPageGray(env.FILES, pageKey, meta.etag)) >= TEXT_INK_FROM) {
      throw engineError(
        "no_text_found",
        `No text was recognised on the page, though it holds ink (a picture, handwriting, or text in a language other than ${reading.languages.join("+")}). The page is not charged.`,
      );
    }
  }
  await writeJson(env.FILES, outKey, page);
  return recognizeResult(outKey, page, meta.path === "text_layer" ? 0 : largestHeap(), meta.transform);
}
