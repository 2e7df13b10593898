import type { DrawPageResult, OcrMode, PageKind, PageTransform, PreprocessInput, PreprocessResult } from "../../shared/engine-contract";
import { engineError } from "../errors";
import type { EngineEnv } from "../env";
import { rotateQuarter } from "../image/geometry";
import { downscaleGray } from "../image/gray";
import { probeRaster } from "../image/headers";
import { decodePngToGray, encodeGrayPng } from "../image/png";
import { drawPdfPagePng } from "../pdf/source-page";
import { autoOrTrialLanguage } from "../ocr/languages";
import { languageList, seededLanguages } from "../ocr/models";
import { pageMetadata, textLayerKeyFor } from "../storage/page-meta";
import { readBytes, writeJson, writeObject } from "../storage/r2";
import { normalisePage } from "./normalise";
import { readSource } from "./source";
import { writeTextLayerReading } from "./read";

export interface PreprocessRequest {
  sourceKey: string;
  outKey: string;
  page: number;
  languages?: string[];
  ocrMode: OcrMode;
  pageKind?: PageKind;
  pageImage?: PreprocessInput["pageImage"];
  readOutKeys?: PreprocessInput["readOutKeys"];
}

/**
 * Reads one page (raster decode, PDF text layer / scan / rendering), turns it upright, deskews
 * it, normalises contrast, fits it within 3508 px and stores it as PNG at outKey; a picture is only
 * fitted, and stored in its own colours. The page's
 * path and transform travel with the image (R2 metadata); a text layer is stored beside it.
 * A text-layer page drawn later (`pageImage: "background"`) is left as a blank canvas of its size,
 * which `drawPendingPage` replaces with the drawing once the job no longer waits for it.
 */
export async function preprocessPage(env: EngineEnv, req: PreprocessRequest): Promise<PreprocessResult> {
  const { bytes, format } = await readSource(env, req.sourceKey);
  const drawLater = req.pageImage === "background";
  const out = await normalisePage(bytes, format, req.page, {
    models: env.MODELS,
    browser: env.BROWSER,
    language: async () => autoOrTrialLanguage(req.languages, await seededLanguages(env.MODELS)),
    pdf: { languages: req.languages, ocrMode: req.ocrMode, drawLater },
    kind: req.pageKind ?? "auto",
  });
  const textLayerKey = out.textLayer ? textLayerKeyFor(req.outKey) : null;
  if (out.textLayer && textLayerKey) await writeJson(env.FILES, textLayerKey, out.textLayer);
  // A canvas left for later says at what scale the page is to be drawn over it (`drawPage`).
  const metadata = {
    ...pageMetadata(out.path, out.transform, textLayerKey, out.pageLanguage),
    ...(out.drawScale ? { [DRAW_SCALE]: String(out.drawScale) } : {}),
  };
  await writeObject(env.FILES, req.outKey, out.png, "image/png", metadata);
  // A text-layer page's layout and text are known now: written for the job at once.
  const read =
    out.textLayer && out.path === "text_layer" && req.readOutKeys && req.languages
      ? { read: await writeTextLayerReading(env.FILES, out.textLayer, out.transform, languageList(req.languages), req.readOutKeys) }
      : {};
  return {
    key: req.outKey,
    width: out.image.width,
    height: out.image.height,
    rotation: out.transform.rotation,
    path: out.path,
    skew: out.transform.skew,
    transform: out.transform,
    ...read,
    ...(out.warnings ? { warnings: out.warnings } : {}),
  };
}

/** R2 metadata of a page image that is a blank canvas to draw over: pixels per PDF point. */
const DRAW_SCALE = "drawScale";

/**
 * Draws a text-layer page that `preprocess` left as a blank canvas (`pageImage: "background"`)
 * and stores the drawing in its place, at the canvas's size with the same metadata (less the
 * pending scale). A page with nothing left to draw, or a drawing of another size, answers
 * `drawn: false` and keeps its canvas; a browser failure is an engine error (the canvas stays).
 */
export async function drawPendingPage(env: EngineEnv, sourceKey: string, page: number, pageKey: string): Promise<DrawPageResult> {
  const head = await env.FILES.head(pageKey);
  if (!head) throw engineError("not_found", `No page image at key ${JSON.stringify(pageKey)}.`);
  const { [DRAW_SCALE]: pending, ...metadata } = head.customMetadata ?? {};
  const scale = Number(pending);
  if (!(scale > 0)) return { key: pageKey, drawn: false };
  const canvas = probeRaster(await readBytes(env.FILES, pageKey), "png");
  const { bytes } = await readSource(env, sourceKey);
  const transform = JSON.parse(metadata.transform ?? "{}") as Partial<PageTransform>;
  const fit = transform.scale ?? 1;
  const turn = transform.rotation ?? 0;
  // The browser's gray PNG is stored as it is; text-layer pages keep their geometry, so a page
  // fitted smaller than its drawing is only scaled like its canvas was, and a layer set sideways
  // turned like it.
  let png = await drawPdfPagePng(env.BROWSER, bytes, page, scale);
  if (fit < 1 || turn !== 0) {
    const gray = await decodePngToGray(png);
    if (!gray) return { key: pageKey, drawn: false };
    png = await encodeGrayPng(downscaleGray(rotateQuarter(gray, turn), fit));
  }
  const drawn = probeRaster(png, "png");
  if (drawn.width !== canvas.width || drawn.height !== canvas.height) return { key: pageKey, drawn: false };
  await writeObject(env.FILES, pageKey, png, "image/png", metadata);
  return { key: pageKey, drawn: true };
}
