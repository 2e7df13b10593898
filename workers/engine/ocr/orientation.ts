import { cropGray, rotateQuarter, rotateSmall, type QuarterTurn } from "../image/geometry";
import { inkSample, lineAxisRatio, otsuThreshold, type InkSample } from "../image/enhance";
import { downscaleGray, type GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
import { lineProfile, type LineProfile } from "../image/upright-lines";
import { ocrRasterFromGray } from "./page-raster";
import { setInversion, withEngine } from "./recognize";
import { ocrModel } from "../../shared/ocr-models";

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

/**
 * Height of the band of whole lines an orientation reading looks at (~150 dpi): five or six lines
 * of body text, some 60–80 words. A reading costs in proportion to its words, and a few dozen
 * settle the question (an A4 window of 900x640 held ~260 words: 6 s of a 19 s page under load).
 */
const BAND_H = 160;

/**
 * Height of the short band read first (~150 dpi): two or three lines of body text, some 15–40
 * words. Most pages arrive upright, and such a band settles them at a third of the full band's
 * cost (the full band was 8–15 % of a real scan's recognition time); a page it leaves
 * undecided is read with the full bands as before.
 */
export const FIRST_BAND_H = 64;

/**
 * A band of whole text lines across the page's ink, at about 150 dpi, centred on the ink: lines
 * are not cut at the sides (a word cut in half reads as a low-confidence fragment and keeps a
 * trial reading from being conclusive), and edges are moved to the emptiest rows nearby so
 * that no line is cut across. `vertical`: the lines run down the page; the band is a column.
 */
export function lineBand(img: GrayImage, vertical: boolean, bandHeight = BAND_H): GrayImage {
  const page = downscaleGray(img, fitScale(img.width, img.height, SAMPLE_PAGE_SIDE));
  const small = vertical ? rotateQuarter(page, 90) : page;
  const { width, height, data } = small;
  const t = Math.min(otsuThreshold(small), 199);
  const rows = new Int32Array(height);
  const cols = new Int32Array(width);
  let total = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[y * width + x]! <= t) {
        rows[y]!++;
        cols[x]!++;
        total++;
      }
    }
  }
  // Ink extent across (1st to 99th percentile of the ink's columns) and the ink's median row.
  const at = (profile: Int32Array, share: number) => {
    let n = 0;
    for (let i = 0; i < profile.length; i++) if ((n += profile[i]!) > share * total) return i;
    return profile.length - 1;
  };
  const x0 = Math.max(0, at(cols, 0.01) - 8);
  const x1 = Math.min(width, at(cols, 0.99) + 8);
  const h = Math.min(bandHeight, height);
  // Edges move at most a quarter of the band (20 px for the full band) to the emptiest row.
  const reach = Math.min(20, h >> 2);
  const emptiest = (around: number) => {
    let best = Math.max(0, Math.min(height - 1, around));
    for (let y = Math.max(0, around - reach); y <= Math.min(height - 1, around + reach); y++) if (rows[y]! < rows[best]!) best = y;
    return best;
  };
  const top = emptiest(Math.max(0, Math.min(height - h, at(rows, 0.5) - (h >> 1))));
  const bottom = Math.max(top + 1, emptiest(top + h));
  const band = cropGray(small, { x: x0, y: top, w: Math.max(1, x1 - x0), h: bottom - top });
  return vertical ? rotateQuarter(band, 270) : band;
}

const CJK_LANGUAGES = /^(jpn|chi_sim|chi_tra|kor)/;

/**
 * Lines of Latin text upright beyond doubt, from their ink profile alone: at least this many
 * lines, with at least this many times more ink above their x-height band than below it. On the
 * real-scans corpus at ~150 dpi, upright text pages measure 1.5–14 and the same pages turned over
 * 0.07–0.68 (a graph's scattered labels 1.0–1.7 either way; OCRmyPDF's cardinal.pdf page set
 * upside down, 0.43): a page measuring less is tried by reading, as before.
 */
const UPRIGHT_LINES = 8;
const UPRIGHT_RATIO = 2;

function clearlyUpright(p: LineProfile): boolean {
  return p.lines >= UPRIGHT_LINES && p.above > 0 && p.above >= UPRIGHT_RATIO * p.below;
}

/**
 * Lines found down the page (the page turned by 90°) rival the lines found across when there are
 * enough of them (`UPRIGHT_LINES`), they hold at least half as much ink and they are lopsided, as
 * the lines of a page turned by 90° are (upright or upside down).
 */
const RIVAL_INK = 0.5;
const RIVAL_LOPSIDED = 1.5;

/**
 * The lines across a page whose projection profiles leave the axis open: a page of left-aligned
 * lines repeating a few sentences lines its characters up in columns and sharpens the column
 * profile (the speed benchmark's A4 pages: axis ratio 0.5–1.3), yet its text lines measured strip
 * by strip are as many and as clearly upright as any. "across" when there are enough of them
 * (`UPRIGHT_LINES`) and the lines measured down the page are no rival: too few, too little ink
 * (the columns of a left margin's initials), or symmetric, as characters lined up in columns are
 * (a monospaced page: 1.2); "upright" when they are also clearly upright.
 */
function linesAcrossOpenAxis(page: GrayImage, skew: number): "upright" | "across" | undefined {
  const across = lineProfile(skew === 0 ? page : rotateSmall(page, skew));
  if (across.lines < UPRIGHT_LINES) return undefined;
  const down = lineProfile(rotateQuarter(page, 90));
  const lopsided = Math.max(down.above, down.below) >= RIVAL_LOPSIDED * Math.max(1, Math.min(down.above, down.below));
  if (down.lines >= UPRIGHT_LINES && down.ink >= RIVAL_INK * across.ink && lopsided) return undefined;
  return clearlyUpright(across) ? "upright" : "across";
}

/** A trial reading's words with their confidences (0..1). */
export interface TrialWord {
  text: string;
  confidence: number;
}

/** A reading of a band or sample, as a page is read (Otsu), without inverted re-readings (`ReadingOptions`). */
export async function trialRead(models: R2Bucket, language: string, img: GrayImage): Promise<TrialWord[]> {
  return withEngine(models, language, ocrRasterFromGray(img), (engine) => {
    engine.setVariable("thresholding_method", "0");
    setInversion(engine, false);
    return engine.getTextBoxes("word").map((w) => ({ text: w.text.trim(), confidence: Math.max(0, Math.min(1, w.confidence)) }));
  });
}

/**
 * Words of two or more characters read with at least `min` confidence, each text once with its
 * best confidence. A table column read sideways repeats one confident fragment (every
 * "Percentage" cell of ICDAR 2013 eu-021 p. 7 read as "ab"); upright text rarely repeats a word
 * within a few lines.
 */
function distinctWords(words: TrialWord[], min: number): Map<string, number> {
  const best = new Map<string, number>();
  for (const w of words) {
    if (w.confidence < min || [...w.text].length < 2) continue;
    const key = w.text.toLowerCase();
    best.set(key, Math.max(best.get(key) ?? 0, w.confidence));
  }
  return best;
}

/** Evidence of upright text: distinct confident words of two or more characters, weighted by confidence. */
function uprightScore(words: TrialWord[]): number {
  return [...distinctWords(words, 0.6).values()].reduce((n, c) => n + c, 0);
}

/**
 * A reading that settles the question on its own: most of its words read confidently, and at
 * least eight of them, six different.
 */
function conclusive(words: TrialWord[]): boolean {
  const confident = words.filter((w) => w.confidence >= 0.8).length;
  return confident >= 8 && confident >= 0.7 * words.length && distinctWords(words, 0.8).size >= 6;
}

/**
 * Mean height (pixels) of the text lines the trial bands are cut for: body text at about 150 dpi
 * (11 pt measures 20–25 px from ascender to descender). A page whose lines measure more than
 * `LARGE_TEXT` times this (a small page at 300 dpi, a slide, a poster) is read at a scale that
 * brings them to it: a band then holds as many lines as on a page of body text, so a reading
 * settles the question as often, and costs a fraction of the pixels.
 */
const TRIAL_LINE_H = 24;
const LARGE_TEXT = 1.6;

/**
 * The copy of the page trial bands are cut from: `small` itself, or scaled down where the lines
 * running across it (`across`: their profile, null where lines clearly run down the page) are
 * large (`TRIAL_LINE_H`).
 */
export function trialCopy(small: GrayImage, across: LineProfile | null): GrayImage {
  if (!across || across.lines < 2) return small;
  const mean = across.heights / across.lines;
  return mean > LARGE_TEXT * TRIAL_LINE_H ? downscaleGray(small, TRIAL_LINE_H / mean) : small;
}

/**
 * Clockwise quarter turn that makes the page's text upright. The projection profiles tell
 * whether lines run across or down the page; Latin text lines running across whose ink profile is
 * clearly upright (`clearlyUpright`) settle it without reading; otherwise trial readings of a
 * band of a few whole lines at the candidate turns settle which way up (upside-down text reads as low-confidence fragments). A
 * confident upright reading stops the search early, so an upright page costs one reading of a
 * short band. `ink`: the page's ink sample, when the caller has it already. `skew`: the skew of
 * lines running across the page (`estimateSkew`), which is taken out of the trial copy of a page
 * whose lines clearly run across: a band cut along skewed lines cuts them, and reads as fragments
 * that settle nothing (OCRmyPDF's skew.pdf, 1.9°: five trial readings instead of one).
 */
export async function detectOrientation(
  models: R2Bucket,
  img: GrayImage,
  language: string,
  ink: InkSample = inkSample(img),
  skew = 0,
): Promise<QuarterTurn> {
  // A vertical model (jpn_vert, …) says the text stands in columns: turning the page would lay
  // them on their side, and trial readings of a window cut across columns are not evidence.
  if (ocrModel(language)?.vertical) return 0;
  if (ink.xs.length < 200) return 0;
  const ratio = lineAxisRatio(ink);
  // Lines clearly running down the page: turned by 90° (tesseract would read such lines as a
  // vertical block at 0°, leaving the page sideways). Otherwise the page as it is is tried first:
  // repeated or tabular lines can sharpen the column profile, so only a clearly better reading
  // turns it. CJK may be written in columns, so for CJK 0° is always a candidate.
  const cjk = CJK_LANGUAGES.test(language);
  // Each candidate reads a band of whole lines in the direction it assumes they run, cut from
  // one ~150 dpi copy of the page.
  const across = downscaleGray(img, fitScale(img.width, img.height, SAMPLE_PAGE_SIDE));
  const small = ratio >= 1.5 ? rotateSmall(across, skew) : across;
  // Lines of Latin text running across whose profile says upright need no trial reading; where
  // the projection profiles leave the axis open, the lines' profile also settles the axis.
  const latin = ocrModel(language)?.script === "Latin";
  // The profile of the lines across the copy: it says "upright" here and sizes the trial copy below.
  const lines = ratio > 1 / 1.5 ? lineProfile(small) : null;
  if (latin && ratio >= 1.5 && clearlyUpright(lines!)) return 0;
  const open = latin && ratio > 1 / 3 && ratio < 1.5 ? linesAcrossOpenAxis(across, skew) : undefined;
  if (open === "upright") return 0;
  const candidates: QuarterTurn[] =
    open === "across"
      ? [0, 180]
      : ratio <= 1 / 3 && !cjk
        ? [90, 270]
        : ratio <= 1 / 1.5
          ? [0, 90, 270]
          : ratio >= 1.5
            ? [0, 180]
            : [0, 180, 90, 270];
  const trial = trialCopy(small, lines);
  const read = (turn: QuarterTurn, bandHeight?: number) =>
    trialRead(models, language, rotateQuarter(lineBand(trial, turn % 180 !== 0, bandHeight), turn));
  // Short bands first, the likeliest turn first: conclusive for most pages, and for most turned
  // ones at the turn that makes them upright (a short band at each costs less than full bands).
  for (const turn of candidates) if (conclusive(await read(turn, FIRST_BAND_H))) return turn;
  let best: QuarterTurn = 0;
  let bestScore = -1;
  let uprightAsIs = 0;
  for (const turn of candidates) {
    const words = await read(turn);
    const score = uprightScore(words);
    if (turn === 0) uprightAsIs = score;
    if (score > bestScore) {
      best = turn;
      bestScore = score;
    }
    if (conclusive(words)) return turn;
  }
  // Turn the page only on clear evidence: a blank-ish or non-text page stays as it is.
  return best !== 0 && bestScore > Math.max(2, uprightAsIs * 1.5) ? best : 0;
}
