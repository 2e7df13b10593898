import { ocrModel } from "../../shared/ocr-models";
import { engineError } from "../errors";
import { listKeys } from "../storage/r2";

const MODEL_PREFIX = "tessdata/";
const MODEL_SUFFIX = ".traineddata.gz";
/** A catalogued tesseract model name (eng, chi_sim_vert, …), not an ISO code. */
const isModelCode = (code: string) => ocrModel(code)?.code === code;

export function modelKey(language: string): string {
  return `${MODEL_PREFIX}${language}${MODEL_SUFFIX}`;
}

/** OCR languages seeded in R2 MODELS. */
export async function seededLanguages(models: R2Bucket): Promise<string[]> {
  const keys = await listKeys(models, MODEL_PREFIX);
  return keys
    .filter((k) => k.endsWith(MODEL_SUFFIX))
    .map((k) => k.slice(MODEL_PREFIX.length, -MODEL_SUFFIX.length))
    .filter(isModelCode)
    .sort();
}

/** Font files seeded in R2 MODELS (names without the prefix). */
export async function seededFonts(models: R2Bucket): Promise<string[]> {
  const keys = await listKeys(models, "fonts/");
  return keys
    .map((k) => k.slice("fonts/".length))
    .filter((n) => n.length > 0 && !n.includes("/"))
    .sort();
}

/** The language list that asks the engine to choose (script trials + language detection). */
export const AUTO = "auto";

/**
 * Checks the requested languages are catalogued model names; returns them de-duplicated.
 * `["auto"]` is passed through (alone: it cannot be combined with named languages). Enough where
 * no model is loaded (a page read from its text layer); `requireLanguages` also checks they are seeded.
 */
export function languageList(languages: unknown): string[] {
  if (!Array.isArray(languages) || languages.length === 0) {
    throw engineError("validation_error", "At least one OCR language is required.");
  }
  const unique = [...new Set(languages.map((l) => String(l)))];
  if (unique.includes(AUTO)) {
    if (unique.length > 1) throw engineError("validation_error", '"auto" cannot be combined with named languages.');
    return unique;
  }
  for (const lang of unique) {
    if (!isModelCode(lang))
      throw engineError(
        "unsupported_language",
        `${JSON.stringify(lang)} is not an OCR model name (tesseract codes such as eng, ara, jpn_vert).`,
      );
  }
  return unique;
}

/** The requested languages (`languageList`), each with its OCR model seeded in R2 MODELS. */
export async function requireLanguages(models: R2Bucket, languages: unknown): Promise<string[]> {
  const unique = languageList(languages);
  if (unique[0] === AUTO) return unique;
  for (const lang of unique) {
    if (!(await models.head(modelKey(lang))))
      throw engineError("unsupported_language", `The OCR model for ${JSON.stringify(lang)} is not installed.`);
  }
  return unique;
}
