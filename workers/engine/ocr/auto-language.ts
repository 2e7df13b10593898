import { eld } from "eld/extrasmall";
import type { GrayImage } from "../image/gray";
import { downscaleGray } from "../image/gray";
import { inkSample, lineAxisRatio, type InkSample } from "../image/enhance";
import { textSample, trialRead, type TrialWord } from "./orientation";
import { seededLanguages } from "./models";
import { columnScale } from "./vertical";
import { ocrModel } from "../../shared/ocr-models";

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
 * names the language from the trial text; Han text with kana is Japanese; a Chinese, Japanese or
 * Korean page in columns gets the vertical model when it is seeded (`chooseVertical`). Falls back to eng (or the first seeded model) on a page with no readable sample.
 */
export async function chooseLanguage(models: R2Bucket, page: GrayImage, seeded: string[]): Promise<string> {
  const sample = textSample(page);
  const horizontal = await chooseHorizontal(models, sample, seeded);
  // Every vertical model is tried when no horizontal one read the page well, or its ink runs down the page.
  const open = horizontal.fit < CONVINCING_FIT || lineAxisRatio(inkSample(page)) < 1;
  return (await chooseVertical(models, sample, seeded, horizontal, open)) ?? horizontal.language;
}

/**
 * A horizontal reading that settles the page as lines. Columns read as lines are garbled in every
 * model: the best horizontal fit on the Natsume column page was 0.34 at 300 dpi and 0.33 at 200 dpi
 * (Arabic and Devanagari models), 0.26 on the Lu Xun page; upright lines 0.47 (Hindi) to 0.94. The
 * profiles' axis alone does not tell columns at 300 dpi (the Natsume page's ink ran 1.09 times
 * wider across), so a fit below this has the vertical models tried as well; they must still beat it.
 */
const CONVINCING_FIT = 0.4;

/**
 * Ink profiles this much sharper across than down the page are lines beyond doubt: pages of prose
 * in lines measured 3.7–22 (Korean, Russian, Hindi, Arabic, Persian, Hebrew, Japanese), a table
 * page 1.3; pages of columns 0.17–0.30, the 300 dpi Natsume page 1.09, a balloon of three short
 * columns on plain paper 1.5.
 */
const ACROSS = 2;

/** A trial reading fitting its script less than this read no text of it. */
const MIN_FIT = 0.3;

/** Vertical models and their horizontal counterparts' scripts (the characters their readings should be made of). */
const VERTICAL = [
  { model: "jpn_vert", own: OWN_CJK },
  { model: "chi_sim_vert", own: /\p{Script=Han}/u },
  { model: "chi_tra_vert", own: /\p{Script=Han}/u },
  { model: "kor_vert", own: /\p{Script=Hangul}/u },
];

/**
 * A vertical model for a page in columns: its own `_vert` model when the horizontal choice is
 * Chinese, Japanese or Korean; every seeded one when `open` (columns read as lines are often too
 * garbled for any horizontal model to fit: measured 0 and 0.26 on the Natsume and Lu Xun pages). Each reads the sample
 * as recognition reads a page (a block of vertical text at the model's column scale, not enlarged: the sample is
 * small already); the best fit wins if it beats the horizontal one, and kana among Han tell Japanese from Chinese as for horizontal text.
 */
async function chooseVertical(
  models: R2Bucket,
  sample: GrayImage,
  seeded: string[],
  horizontal: { language: string; fit: number },
  open: boolean,
): Promise<string | null> {
  const candidates = VERTICAL.filter((v) => seeded.includes(v.model) && (open || v.model.startsWith(`${horizontal.language}_`)));
  let best: { model: string; fit: number } | null = null;
  const readings = new Map<string, TrialWord[]>();
  for (const v of candidates) {
    const words = await trialRead(models, v.model, downscaleGray(sample, columnScale(sample, v.model)));
    readings.set(v.model, words);
    const fit = scriptFit(words, v.own);
    if (!best || fit > best.fit) best = { model: v.model, fit };
  }
  if (!best || best.fit < MIN_FIT || best.fit <= horizontal.fit) return null;
  if (best.model === "kor_vert") return best.model;
  const jpn = readings.get("jpn_vert");
  if (jpn && isJapanese(jpn)) return "jpn_vert";
  return candidates.find((v) => v.model.startsWith("chi_"))?.model ?? best.model;
}

/**
 * The model a page in a named language written both ways (Chinese, Japanese, Korean) is read with:
 * its vertical model when the page's text stands in columns and that model is seeded, else the
 * language as named. A page whose ink (`ink`, its sample) runs across beyond doubt is in lines;
 * otherwise it is decided as `auto` decides it: a horizontal trial reading that fits its script
 * convincingly, on a page whose ink runs across, settles it as lines; else its own vertical model
 * reads the sample too (`chooseVertical`, not open to the others) and wins if it fits better. A novel's page or a balloon on plain paper in columns read with `jpn` as
 * lines is garbage.
 */
export async function chooseDirection(models: R2Bucket, page: GrayImage, language: string, ink: InkSample): Promise<string> {
  const script = SCRIPTS.find((s) => s.models.includes(language));
  if (!script || !VERTICAL.some((v) => v.model === `${language}_vert`)) return language;
  const axis = lineAxisRatio(ink);
  if (axis >= ACROSS) return language;
  const seeded = await seededLanguages(models);
  if (!seeded.includes(`${language}_vert`)) return language;
  const sample = textSample(page);
  const fit = scriptFit(await trialRead(models, language, sample), script.own);
  if (fit >= CONVINCING_FIT && axis >= 1) return language;
  return (await chooseVertical(models, sample, seeded, { language, fit }, false)) ?? language;
}

/** Japanese prose is a third to a half kana; a Chinese page misread by a Japanese model has a few. */
function isJapanese(words: TrialWord[]): boolean {
  const chars = [...words.map((w) => w.text).join("")].filter((c) => OWN_CJK.test(c));
  const kana = chars.filter((c) => KANA.test(c)).length;
  return kana >= 2 && kana >= 0.15 * chars.length;
}

/** The horizontal model `auto` chooses, and the trial readings made on the way (by model). */
async function chooseHorizontal(models: R2Bucket, sample: GrayImage, seeded: string[]): Promise<{ language: string; fit: number }> {
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
  if (!best || best.fit < MIN_FIT) return { language: fallback, fit: best?.fit ?? 0 };
  const text = best.words.map((w) => w.text).join(" ");
  if (best.model === "jpn" || best.model.startsWith("chi_")) {
    const jpn = readings.get("jpn");
    if (jpn && isJapanese(jpn)) return { language: "jpn", fit: best.fit };
    return { language: seeded.find((m) => m.startsWith("chi_") && !ocrModel(m)?.vertical) ?? best.model, fit: best.fit };
  }
  const detected = TESSERACT_OF[eld.detect(text).language];
  return { language: detected && seeded.includes(detected) ? detected : best.model, fit: best.fit };
}
