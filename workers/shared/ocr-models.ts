/**
 * Every OCR model tesseract publishes as an LSTM `best_int` traineddata (one per language, plus
 * the vertical CJK models): the single table the api and the engine Worker, the seeding script and
 * the benchmarks read. `script` is the Unicode script the model reads (a `\p{Script=…}` name;
 * `Japanese` stands for Han + Hiragana + Katakana); `iso` is the ISO 639-1 code of the
 * language, where one exists; it selects the language's main model (variants such as `chi_tra`,
 * `jpn_vert`, `srp_latn` are named by their tesseract code).
 * No imports: Node scripts load this file directly.
 */
export interface OcrModel {
  /** tesseract code, the model's file name (`ara`, `chi_sim_vert`). */
  code: string;
  iso?: string;
  name: string;
  script: string;
  direction: "ltr" | "rtl";
  /** Trained on top-to-bottom columns (read right to left). */
  vertical?: true;
  /** A script or orthography variant: the ISO code selects the language's main model instead. */
  variant?: true;
}

/** rtl: written right to left; vert: a vertical model; variant: another model is the language's main one. */
type Flag = "rtl" | "vert" | "variant";
type Row = [code: string, iso: string, name: string, script: string, ...flags: Flag[]];

const ROWS: Row[] = [
  ["afr", "af", "Afrikaans", "Latin"],
  ["amh", "am", "Amharic", "Ethiopic"],
  ["ara", "ar", "Arabic", "Arabic", "rtl"],
  ["asm", "as", "Assamese", "Bengali"],
  ["aze", "az", "Azerbaijani", "Latin"],
  ["aze_cyrl", "az", "Azerbaijani (Cyrillic)", "Cyrillic", "variant"],
  ["bel", "be", "Belarusian", "Cyrillic"],
  ["ben", "bn", "Bengali", "Bengali"],
  ["bod", "bo", "Tibetan", "Tibetan"],
  ["bos", "bs", "Bosnian", "Latin"],
  ["bre", "br", "Breton", "Latin"],
  ["bul", "bg", "Bulgarian", "Cyrillic"],
  ["cat", "ca", "Catalan", "Latin"],
  ["ceb", "", "Cebuano", "Latin"],
  ["ces", "cs", "Czech", "Latin"],
  ["chi_sim", "zh", "Chinese (Simplified)", "Han"],
  ["chi_sim_vert", "zh", "Chinese (Simplified, vertical)", "Han", "vert", "variant"],
  ["chi_tra", "zh", "Chinese (Traditional)", "Han", "variant"],
  ["chi_tra_vert", "zh", "Chinese (Traditional, vertical)", "Han", "vert", "variant"],
  ["chr", "", "Cherokee", "Cherokee"],
  ["cos", "co", "Corsican", "Latin"],
  ["cym", "cy", "Welsh", "Latin"],
  ["dan", "da", "Danish", "Latin"],
  ["deu", "de", "German", "Latin"],
  ["div", "dv", "Dhivehi", "Thaana", "rtl"],
  ["dzo", "dz", "Dzongkha", "Tibetan"],
  ["ell", "el", "Greek", "Greek"],
  ["eng", "en", "English", "Latin"],
  ["enm", "", "Middle English", "Latin"],
  ["epo", "eo", "Esperanto", "Latin"],
  ["est", "et", "Estonian", "Latin"],
  ["eus", "eu", "Basque", "Latin"],
  ["fao", "fo", "Faroese", "Latin"],
  ["fas", "fa", "Persian", "Arabic", "rtl"],
  ["fil", "", "Filipino", "Latin"],
  ["fin", "fi", "Finnish", "Latin"],
  ["fra", "fr", "French", "Latin"],
  ["frk", "de", "German (Fraktur)", "Latin", "variant"],
  ["frm", "", "Middle French", "Latin"],
  ["fry", "fy", "Western Frisian", "Latin"],
  ["gla", "gd", "Scottish Gaelic", "Latin"],
  ["gle", "ga", "Irish", "Latin"],
  ["glg", "gl", "Galician", "Latin"],
  ["grc", "", "Ancient Greek", "Greek"],
  ["guj", "gu", "Gujarati", "Gujarati"],
  ["hat", "ht", "Haitian Creole", "Latin"],
  ["heb", "he", "Hebrew", "Hebrew", "rtl"],
  ["hin", "hi", "Hindi", "Devanagari"],
  ["hrv", "hr", "Croatian", "Latin"],
  ["hun", "hu", "Hungarian", "Latin"],
  ["hye", "hy", "Armenian", "Armenian"],
  ["iku", "iu", "Inuktitut", "Canadian_Aboriginal"],
  ["ind", "id", "Indonesian", "Latin"],
  ["isl", "is", "Icelandic", "Latin"],
  ["ita", "it", "Italian", "Latin"],
  ["ita_old", "it", "Italian (Old)", "Latin", "variant"],
  ["jav", "jv", "Javanese", "Latin"],
  ["jpn", "ja", "Japanese", "Japanese"],
  ["jpn_vert", "ja", "Japanese (vertical)", "Japanese", "vert", "variant"],
  ["kan", "kn", "Kannada", "Kannada"],
  ["kat", "ka", "Georgian", "Georgian"],
  ["kat_old", "ka", "Georgian (Old)", "Georgian", "variant"],
  ["kaz", "kk", "Kazakh", "Cyrillic"],
  ["khm", "km", "Khmer", "Khmer"],
  ["kir", "ky", "Kyrgyz", "Cyrillic"],
  ["kmr", "ku", "Kurdish (Kurmanji)", "Latin"],
  ["kor", "ko", "Korean", "Hangul"],
  ["kor_vert", "ko", "Korean (vertical)", "Hangul", "vert", "variant"],
  ["lao", "lo", "Lao", "Lao"],
  ["lat", "la", "Latin", "Latin"],
  ["lav", "lv", "Latvian", "Latin"],
  ["lit", "lt", "Lithuanian", "Latin"],
  ["ltz", "lb", "Luxembourgish", "Latin"],
  ["mal", "ml", "Malayalam", "Malayalam"],
  ["mar", "mr", "Marathi", "Devanagari"],
  ["mkd", "mk", "Macedonian", "Cyrillic"],
  ["mlt", "mt", "Maltese", "Latin"],
  ["mon", "mn", "Mongolian", "Cyrillic"],
  ["mri", "mi", "Maori", "Latin"],
  ["msa", "ms", "Malay", "Latin"],
  ["mya", "my", "Burmese", "Myanmar"],
  ["nep", "ne", "Nepali", "Devanagari"],
  ["nld", "nl", "Dutch", "Latin"],
  ["nor", "no", "Norwegian", "Latin"],
  ["oci", "oc", "Occitan", "Latin"],
  ["ori", "or", "Odia", "Oriya"],
  ["pan", "pa", "Punjabi", "Gurmukhi"],
  ["pol", "pl", "Polish", "Latin"],
  ["por", "pt", "Portuguese", "Latin"],
  ["pus", "ps", "Pashto", "Arabic", "rtl"],
  ["que", "qu", "Quechua", "Latin"],
  ["ron", "ro", "Romanian", "Latin"],
  ["rus", "ru", "Russian", "Cyrillic"],
  ["san", "sa", "Sanskrit", "Devanagari"],
  ["sin", "si", "Sinhala", "Sinhala"],
  ["slk", "sk", "Slovak", "Latin"],
  ["slv", "sl", "Slovenian", "Latin"],
  ["snd", "sd", "Sindhi", "Arabic", "rtl"],
  ["spa", "es", "Spanish", "Latin"],
  ["spa_old", "es", "Spanish (Old)", "Latin", "variant"],
  ["sqi", "sq", "Albanian", "Latin"],
  ["srp", "sr", "Serbian (Cyrillic)", "Cyrillic"],
  ["srp_latn", "sr", "Serbian (Latin)", "Latin", "variant"],
  ["sun", "su", "Sundanese", "Latin"],
  ["swa", "sw", "Swahili", "Latin"],
  ["swe", "sv", "Swedish", "Latin"],
  ["syr", "", "Syriac", "Syriac", "rtl"],
  ["tam", "ta", "Tamil", "Tamil"],
  ["tat", "tt", "Tatar", "Cyrillic"],
  ["tel", "te", "Telugu", "Telugu"],
  ["tgk", "tg", "Tajik", "Cyrillic"],
  ["tha", "th", "Thai", "Thai"],
  ["tir", "ti", "Tigrinya", "Ethiopic"],
  ["ton", "to", "Tongan", "Latin"],
  ["tur", "tr", "Turkish", "Latin"],
  ["uig", "ug", "Uyghur", "Arabic", "rtl"],
  ["ukr", "uk", "Ukrainian", "Cyrillic"],
  ["urd", "ur", "Urdu", "Arabic", "rtl"],
  ["uzb", "uz", "Uzbek", "Latin"],
  ["uzb_cyrl", "uz", "Uzbek (Cyrillic)", "Cyrillic", "variant"],
  ["vie", "vi", "Vietnamese", "Latin"],
  ["yid", "yi", "Yiddish", "Hebrew", "rtl"],
  ["yor", "yo", "Yoruba", "Latin"],
];

export const OCR_MODELS: readonly OcrModel[] = ROWS.map(([code, iso, name, script, ...flags]) => ({
  code,
  ...(iso ? { iso } : {}),
  name,
  script,
  direction: flags.includes("rtl") ? "rtl" : "ltr",
  ...(flags.includes("vert") ? { vertical: true as const } : {}),
  ...(flags.includes("variant") ? { variant: true as const } : {}),
}));

const BY_CODE = new Map(OCR_MODELS.map((m) => [m.code, m]));
const BY_ISO = new Map(OCR_MODELS.filter((m) => m.iso && !m.variant).map((m) => [m.iso!, m]));

/** The model a code names: a tesseract code (`ara`, `jpn_vert`) or an ISO 639-1 code (`ar`). */
export function ocrModel(code: string): OcrModel | undefined {
  return BY_CODE.get(code) ?? BY_ISO.get(code);
}

/** Whether any of these models reads Latin letters. */
export function readsLatin(codes: string[]): boolean {
  return codes.some((c) => ocrModel(c)?.script === "Latin");
}

/** Scripts written right to left. */
export function isRtlLanguage(code: string): boolean {
  return ocrModel(code)?.direction === "rtl";
}
