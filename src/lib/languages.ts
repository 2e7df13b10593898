import { ocrModel } from "../../workers/shared/ocr-models";

/** Resolves an API language code (ISO 639-1 like `ar`, or a tesseract code like `ara`, `jpn_vert`) to its tesseract code. */
export function ocrCodeFor(code: string): string | undefined {
  return ocrModel(code)?.code;
}

/** The `source_language` that asks the engine to find the script and language of each page. */
export const AUTO_LANGUAGE = "auto";

/**
 * The OCR languages a `source_language` names: `auto`, one code, or several joined by `+`
 * (`en+ar`, a page in two languages). Returns the codes that name no catalogued model in `unknown`.
 */
export function ocrLanguagesFor(source: string): { languages: string[]; unknown: string[] } {
  if (source === AUTO_LANGUAGE) return { languages: [AUTO_LANGUAGE], unknown: [] };
  const codes = source.split("+");
  const languages = [...new Set(codes.map(ocrCodeFor).filter((c): c is string => !!c))];
  return { languages, unknown: codes.filter((c) => !ocrCodeFor(c)) };
}
