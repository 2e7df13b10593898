import type { OcrMode, PreprocessInput, PreprocessResult } from "../contract";
import type { EngineEnv } from "../env";
import { encodeGrayPng } from "../image/png";
import { autoOrTrialLanguage } from "../ocr/languages";
import { seededLanguages } from "../ocr/models";
import { pageMetadata, textLayerKeyFor } from "../storage/page-meta";
import { writeJson, writeObject } from "../storage/r2";
import { normalisePage } from "./normalise";
import { readSource } from "./source";

export interface PreprocessRequest {
  sourceKey: string;
  outKey: string;
  page: number;
  languages?: string[];
  ocrMode: OcrMode;
  pageImage?: PreprocessInput["pageImage"];
}

/**
 * Reads one page (raster decode, PDF text layer / scan / rendering), turns it upright, deskews
 * it, normalises contrast, fits it within 3508 px and stores it as PNG at outKey. The page's
 * path and transform travel with the image (R2 metadata); a text layer is stored beside it.
 * A text-layer page drawn later (`pageImage: "background"`) is handed to `waitUntil`.
 */
export async function preprocessPage(
  env: EngineEnv,
  req: PreprocessRequest,
  waitUntil: (work: Promise<unknown>) => void,
): Promise<PreprocessResult> {
  const { bytes, format } = await readSource(env, req.sourceKey);
  const seeded = await seededLanguages(env.MODELS);
  const drawLater = req.pageImage === "background";
  const out = await normalisePage(bytes, format, req.page, {
    models: env.MODELS,
    browser: env.BROWSER,
    language: autoOrTrialLanguage(req.languages, seeded),
    pdf: { languages: req.languages, ocrMode: req.ocrMode, drawLater },
  });
  const textLayerKey = out.textLayer ? textLayerKeyFor(req.outKey) : null;
  if (out.textLayer && textLayerKey) await writeJson(env.FILES, textLayerKey, out.textLayer);
  const metadata = pageMetadata(out.path, out.transform, textLayerKey, out.autoLanguage);
  await writeObject(env.FILES, req.outKey, out.png, "image/png", metadata);
  // The page as drawn replaces its blank canvas when ready; the job does not wait for it (its
  // stages read the text layer). A drawing that fails leaves the canvas, as without a browser.
  const draw = out.draw;
  if (draw) {
    const { width, height } = out.image;
    const later = async () => {
      const image = await draw();
      if (image.width === width && image.height === height)
        await writeObject(env.FILES, req.outKey, await encodeGrayPng(image), "image/png", metadata);
    };
    waitUntil(later().catch(() => {}));
  }
  return {
    key: req.outKey,
    width: out.image.width,
    height: out.image.height,
    rotation: out.transform.rotation,
    path: out.path,
    skew: out.transform.skew,
    transform: out.transform,
  };
}
