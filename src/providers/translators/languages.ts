/**
 * Language codes at the provider boundary. The API speaks ISO 639-1 (`en`, `es`, …); Apertium
 * names languages with ISO 639-3 codes (`eng`, `spa`, …) and tesseract with its own model names
 * (`eng`, `chi_sim`, …).
 */
import { OCR_MODELS } from "../../../workers/shared/ocr-models";

/** ISO 639-1 → Apertium (ISO 639-3) for the languages Debian's Apertium pairs cover. */
export const ISO1_TO_APERTIUM: Readonly<Record<string, string>> = {
  en: "eng",
  es: "spa",
  ca: "cat",
  gl: "glg",
  fr: "fra",
  pt: "por",
  it: "ita",
  ro: "ron",
  oc: "oci",
  an: "arg",
  eu: "eus",
  eo: "epo",
  br: "bre",
  sc: "srd",
  is: "isl",
  mk: "mkd",
  af: "afr",
  nl: "nld",
  id: "ind",
  ms: "zlm",
  pl: "pol",
  de: "deu",
};

const APERTIUM_TO_ISO1: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ISO1_TO_APERTIUM).map(([iso1, apertium]) => [apertium, iso1]),
);

export function toApertiumCode(iso1: string): string | undefined {
  return ISO1_TO_APERTIUM[iso1.toLowerCase()];
}

/**
 * Apertium code → ISO 639-1. Variant modes (`cat_valencia`, `por_BR`, `eng_US`) and languages
 * without an ISO 639-1 code (`ast`, `hbs`, `szl`, …) map to undefined: they are not offered.
 */
export function fromApertiumCode(code: string): string | undefined {
  return APERTIUM_TO_ISO1[code];
}

/**
 * Maps a tesseract model name (`eng`, `chi_sim`, `deu_frak`…) to ISO 639-1. Returns undefined for
 * models that are not one language (`osd`, `equ`, `script/Latin`) or have no ISO 639-1 code
 * (`ceb`, `syr`, historic variants such as `enm`, `frm`, `grc`). An ISO 639-1 code passes through.
 */
export function tesseractToIso1(code: string): string | undefined {
  const c = code.trim().toLowerCase();
  if (/^[a-z]{2}$/.test(c)) return c;
  const direct = OCR_MODELS.find((m) => m.code === c)?.iso;
  if (direct) return direct;
  // Script and orthography variants outside the catalogue (legacy models such as deu_frak).
  const base = /^([a-z]{3})_(?:old|frak|latn|cyrl|vert)$/.exec(c)?.[1];
  return base ? OCR_MODELS.find((m) => m.code === base)?.iso : undefined;
}
