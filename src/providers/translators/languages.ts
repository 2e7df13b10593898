/**
 * Language codes at the provider boundary. The API speaks ISO 639-1 (`en`, `es`, …); Apertium
 * names languages with ISO 639-3 codes (`eng`, `spa`, …) and tesseract with its own model names
 * (`eng`, `chi_sim`, …).
 */

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

/** Tesseract model name → ISO 639-1, for the models whose language has one. */
const TESSERACT_TO_ISO1: Readonly<Record<string, string>> = {
  afr: "af", amh: "am", ara: "ar", asm: "as", aze: "az", aze_cyrl: "az", bel: "be", ben: "bn",
  bod: "bo", bos: "bs", bre: "br", bul: "bg", cat: "ca", ces: "cs", chi_sim: "zh", chi_sim_vert: "zh",
  chi_tra: "zh", chi_tra_vert: "zh", cos: "co", cym: "cy", dan: "da", deu: "de", div: "dv", dzo: "dz",
  ell: "el", eng: "en", epo: "eo", est: "et", eus: "eu", fao: "fo", fas: "fa", fin: "fi", fra: "fr",
  frk: "de", fry: "fy", gla: "gd", gle: "ga", glg: "gl", guj: "gu", hat: "ht", heb: "he", hin: "hi",
  hrv: "hr", hun: "hu", hye: "hy", iku: "iu", ind: "id", isl: "is", ita: "it", jav: "jv", jpn: "ja",
  jpn_vert: "ja", kan: "kn", kat: "ka", kaz: "kk", khm: "km", kir: "ky", kor: "ko", kor_vert: "ko",
  lao: "lo", lat: "la", lav: "lv", lit: "lt", ltz: "lb", mal: "ml", mar: "mr", mkd: "mk", mlt: "mt",
  mon: "mn", mri: "mi", msa: "ms", mya: "my", nep: "ne", nld: "nl", nor: "no", oci: "oc", ori: "or",
  pan: "pa", pol: "pl", por: "pt", pus: "ps", que: "qu", ron: "ro", rus: "ru", san: "sa", sin: "si",
  slk: "sk", slv: "sl", snd: "sd", spa: "es", sqi: "sq", srp: "sr", srp_latn: "sr", sun: "su",
  swa: "sw", swe: "sv", tam: "ta", tat: "tt", tel: "te", tgk: "tg", tgl: "tl", tha: "th", tir: "ti",
  ton: "to", tur: "tr", uig: "ug", ukr: "uk", urd: "ur", uzb: "uz", uzb_cyrl: "uz", vie: "vi",
  yid: "yi", yor: "yo",
};

/**
 * Maps a tesseract model name (`eng`, `chi_sim`, `deu_frak`…) to ISO 639-1. Returns undefined for
 * models that are not one language (`osd`, `equ`, `script/Latin`) or have no ISO 639-1 code
 * (`ceb`, `syr`, historic variants such as `enm`, `frm`, `grc`). An ISO 639-1 code passes through.
 */
export function tesseractToIso1(code: string): string | undefined {
  const c = code.trim().toLowerCase();
  if (/^[a-z]{2}$/.test(c)) return c;
  const direct = TESSERACT_TO_ISO1[c];
  if (direct) return direct;
  // Script and orthography variants of one language: deu_frak, spa_old, ita_old, kat_old, …
  const base = /^([a-z]{3})_(?:old|frak|latn|cyrl|vert)$/.exec(c)?.[1];
  return base ? TESSERACT_TO_ISO1[base] : undefined;
}
