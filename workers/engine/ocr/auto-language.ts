import { eld } from "eld/extrasmall";
import type { GrayImage } from "../image/gray";
import { textSample, trialRead, type TrialWord } from "./orientation";

/** ISO 639-1 (what eld reports) → tesseract model of the same language. */
const TESSERACT_OF: Record<string, string> = {
  en: "eng",
  fr: "fra",
  de: "deu",
  es: "spa",
  it: "ita",
  pt: "por",
  nl: "nld",
  sv: "swe",
  da: "dan",
  no: "nor",
  fi: "fin",
  pl: "pol",
  cs: "ces",
  sk: "slk",
  hu: "hun",
  ro: "ron",
  hr: "hrv",
  sl: "slv",
  et: "est",
  lv: "lav",
  lt: "lit",
  tr: "tur",
  vi: "vie",
  id: "ind",
  ca: "cat",
  eu: "eus",
  is: "isl",
  sq: "sqi",
  ru: "rus",
  uk: "ukr",
  bg: "bul",
  sr: "srp",
  el: "ell",
  he: "heb",
  ar: "ara",
  fa: "fas",
  hi: "hin",
  bn: "ben",
  ta: "tam",
  te: "tel",
  th: "tha",
  ja: "jpn",
  zh: "chi_sim",
  ko: "kor",
};

/** One trial model per writing system, with the characters its readings should be made of. */
const SCRIPTS: { models: string[]; own: RegExp }[] = [
  { models: ["eng", "fra", "deu", "spa", "ita", "por"], own: /\p{Script=Latin}/u },
  { models: ["chi_sim", "chi_tra"], own: /\p{Script=Han}/u },
  { models: ["jpn"], own: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u },
  { models: ["kor"], own: /\p{Script=Hangul}/u },
  { models: ["rus", "ukr", "bul"], own: /\p{Script=Cyrillic}/u },
  { models: ["ell"], own: /\p{Script=Greek}/u },
  { models: ["ara", "fas"], own: /\p{Script=Arabic}/u },
  { models: ["heb"], own: /\p{Script=Hebrew}/u },
  { models: ["hin"], own: /\p{Script=Devanagari}/u },
  { models: ["tha"], own: /\p{Script=Thai}/u },
];

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const OWN_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** How well a trial reading fits its model's script: confidence × share of characters in that script. */
function scriptFit(words: TrialWord[], own: RegExp): number {
  const chars = words.flatMap((w) => [...w.text.replace(/[\s\p{P}\p{N}]/gu, "")].map((c) => ({ c, conf: w.confidence })));
  if (chars.length < 4) return 0;
  const ownShare = chars.filter((x) => own.test(x.c)).length / chars.length;
  const conf = chars.reduce((n, x) => n + x.conf, 0) / chars.length;
  return conf * ownShare;
}

/**
 * Chooses the OCR language for `auto`: trial readings of a sample window with one model per
 * writing system seeded, the best fit of confidence and script wins; within Latin script, eld
 * names the language from the trial text; Han text with kana is Japanese.
 * Falls back to eng (or the first seeded model) on a page with no readable sample.
 */
export async function chooseLanguage(models: R2Bucket, page: GrayImage, seeded: string[]): Promise<string> {
  const sample = textSample(page);
  const fallback = seeded.includes("eng") ? "eng" : seeded[0]!;
  let best: { model: string; fit: number; words: TrialWord[] } | null = null;
  const readings = new Map<string, TrialWord[]>();
  for (const script of SCRIPTS) {
    const model = script.models.find((m) => seeded.includes(m));
    if (!model) continue;
    const words = await trialRead(models, model, sample);
    readings.set(model, words);
    const fit = scriptFit(words, script.own);
    if (!best || fit > best.fit) best = { model, fit, words };
  }
  if (!best || best.fit < 0.3) return fallback;
  const text = best.words.map((w) => w.text).join(" ");
  if (best.model === "jpn" || best.model.startsWith("chi_")) {
    const jpn = readings.get("jpn");
    // Japanese prose is a third to a half kana; a Chinese page misread by the jpn model has a few.
    const chars = jpn ? [...jpn.map((w) => w.text).join("")].filter((c) => OWN_CJK.test(c)) : [];
    const kana = chars.filter((c) => KANA.test(c)).length;
    if (jpn && kana >= 2 && kana >= 0.15 * chars.length) return "jpn";
    return seeded.find((m) => m.startsWith("chi_")) ?? best.model;
  }
  const detected = TESSERACT_OF[eld.detect(text).language];
  return detected && seeded.includes(detected) ? detected : best.model;
}
