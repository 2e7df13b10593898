import { cropGray, rotateQuarter, type QuarterTurn } from "../image/geometry";
import { inkSample, lineAxisRatio } from "../image/enhance";
import { downscaleGray, type GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
import { ocrRasterFromGray } from "./page-raster";
import { withEngine } from "./recognize";
import { ocrModel } from "../../../src/lib/ocr-models";

/** Longest side of the page copy a text sample is cut from (~150 dpi for A4), and the sample's size. */
const SAMPLE_PAGE_SIDE = 1750;
const SAMPLE_W = 900;
const SAMPLE_H = 640;

/**
 * A window of the page, at about 150 dpi, centred on the ink: enough lines for a trial reading
 * (orientation, script) at a fraction of a full page's cost.
 */
export function textSample(img: GrayImage): GrayImage {
  const small = downscaleGray(img, fitScale(img.width, img.height, SAMPLE_PAGE_SIDE));
  const ink = inkSample(small);
  let cx = small.width / 2;
  let cy = small.height / 2;
  if (ink.xs.length > 0) {
    // Median ink position (in the ink sample's own scale), mapped onto `small`.
    const f = small.width / ink.width;
    const xs = Array.from(ink.xs).sort((a, b) => a - b);
    const ys = Array.from(ink.ys).sort((a, b) => a - b);
    cx = xs[xs.length >> 1]! * f;
    cy = ys[ys.length >> 1]! * f;
  }
  const w = Math.min(SAMPLE_W, small.width);
  const h = Math.min(SAMPLE_H, small.height);
  const x = Math.max(0, Math.min(small.width - w, Math.round(cx - w / 2)));
  const y = Math.max(0, Math.min(small.height - h, Math.round(cy - h / 2)));
  return cropGray(small, { x, y, w, h });
}

const CJK_LANGUAGES = /^(jpn|chi_sim|chi_tra|kor)/;

/** A trial reading's words with their confidences (0..1). */
export interface TrialWord {
  text: string;
  confidence: number;
}

export async function trialRead(models: R2Bucket, language: string, img: GrayImage): Promise<TrialWord[]> {
  return withEngine(models, language, ocrRasterFromGray(img), (engine) =>
    engine.getTextBoxes("word").map((w) => ({ text: w.text.trim(), confidence: Math.max(0, Math.min(1, w.confidence)) })),
  );
}

/** Evidence of upright text: confident words of two or more characters, weighted by confidence. */
function uprightScore(words: TrialWord[]): number {
  return words.filter((w) => w.confidence >= 0.6 && [...w.text].length >= 2).reduce((n, w) => n + w.confidence, 0);
}

/**
 * Clockwise quarter turn that makes the page's text upright. The projection profiles tell
 * whether lines run across or down the page; trial readings of a sample window at the candidate
 * turns settle which way up (upside-down text reads as low-confidence fragments). A confident
 * upright reading stops the search early, so an upright page costs one small reading.
 */
export async function detectOrientation(models: R2Bucket, img: GrayImage, language: string): Promise<QuarterTurn> {
  // A vertical model (jpn_vert, …) says the text stands in columns: turning the page would lay
  // them on their side, and trial readings of a window cut across columns are not evidence.
  if (ocrModel(language)?.vertical) return 0;
  const ink = inkSample(img);
  if (ink.xs.length < 200) return 0;
  const ratio = lineAxisRatio(ink);
  // Lines clearly running down the page: turned by 90° (tesseract would read such lines as a
  // vertical block at 0°, leaving the page sideways). Otherwise the page as it is is tried first:
  // repeated or tabular lines can sharpen the column profile, so only a clearly better reading
  // turns it. CJK may be written in columns, so for CJK 0° is always a candidate.
  const cjk = CJK_LANGUAGES.test(language);
  const candidates: QuarterTurn[] =
    ratio <= 1 / 3 && !cjk ? [90, 270] : ratio <= 1 / 1.5 ? [0, 90, 270] : ratio >= 1.5 ? [0, 180] : [0, 180, 90, 270];
  const sample = textSample(img);
  let best: QuarterTurn = 0;
  let bestScore = -1;
  let uprightAsIs = 0;
  for (const turn of candidates) {
    const words = await trialRead(models, language, rotateQuarter(sample, turn));
    const score = uprightScore(words);
    if (turn === 0) uprightAsIs = score;
    if (score > bestScore) {
      best = turn;
      bestScore = score;
    }
    const confident = words.filter((w) => w.confidence >= 0.8).length;
    if (confident >= 8 && confident >= 0.7 * words.length) return turn;
  }
  // Turn the page only on clear evidence: a blank-ish or non-text page stays as it is.
  return best !== 0 && bestScore > Math.max(2, uprightAsIs * 1.5) ? best : 0;
}
