import { downscaleGray, type GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
import { ruledShare } from "./ruling-lines";
import { findTextBlocks, GROUND, pageInk, type PageInk, type TextBlock } from "./text-blocks";

/** Long side a page is judged at: body text of an A4 scan still has letters of 8 px or more. */
const JUDGE_SIDE = 1000;
/** A picture's ink is mostly drawing (or its text is set over a drawing): at least this share is no mark of a text block… */
const ART = 0.6;
/**
 * …and lies in shapes larger than any letter (panel borders, figures, filled areas). A page of
 * text whose letters are not found in blocks (joined scripts seen small) has its ink in letter-sized
 * shapes all the same: at most a few percent on text pages, 0.48–0.64 on pages of ruled tables
 * (their rules are taken out where a page is mostly paper), 0.6–0.9 on comic and manga pages.
 */
const DRAWN = 0.55;
/** Letters a picture's text blocks hold at least: enough text to read block by block. */
const MIN_GLYPHS = 20;
/** Letters a single panel's text blocks hold at least: a two-word balloon ("DID IT!"). */
const FEW_GLYPHS = 4;
/**
 * A page of at most this many letter-sized marks may be balloons alone (`balloonsAlone`): a
 * balloon of sixty characters has about 120, a page of text thousands.
 */
const FEW_MARKS = 600;
/** Share of a page's letter-sized marks that balloons alone hold as letters at least. */
const HELD = 0.5;
/**
 * A page of which less than this share is paper (as light as text blocks' grounds) is covered by
 * drawing, tone or colour. Documents at hand, maps, charts and table pages among them, are 0.87–1.0
 * paper; single comic panels 0.31–0.49, manga panels 0.68–0.82.
 */
const PAPER = 0.85;
/** A run of text blocks (`PictureText.runs`) of more letters than this is a column or paragraph of prose, never a balloon or caption. */
const PROSE_BLOCK = 200;
/**
 * A page whose largest text block, or whose blocks of prose together, hold this share of its
 * letters is a document's body of text (a magazine page's two columns beside a large photo).
 */
const BODY = 0.5;

/**
 * Whether an image reads as a picture (a comic or manga page, an illustration with lettering)
 * rather than a document: most of its ink is drawing in shapes larger than letters (or most of it is
 * not paper), and its text is in many small blocks on grounds of their own (balloons, captions), not
 * in a body of prose (one block, or columns of it). A single panel is judged by its text being set
 * over a drawing instead, since its one balloon may hold most of its letters. Photos with a line or
 * two of text on a textured ground find too few letters in blocks and stay documents, as scans and
 * screenshots do.
 */
export function looksLikePicture(page: GrayImage): boolean {
  // A page of text on paper has its ink in letters: it is a document before its letters are grouped.
  const inked = pageInk(page, JUDGE_SIDE);
  const paper = paperShare(inked.img);
  const marks = letterSized(inked);
  const sparse = marks <= FEW_MARKS;
  // Rules count only on a page that is mostly paper: elsewhere they are not measured.
  const ruled = paper >= PAPER ? ruledShare(inked) : 0;
  if (inked.drawn - ruled < DRAWN && paper >= PAPER && !sparse) return false;
  const found = findTextBlocks(page, JUDGE_SIDE, inked);
  if (sparse && balloonsAlone(found.blocks, marks)) return true;
  return pictureByMeasure({
    paper,
    drawn: inked.drawn,
    ruled,
    art: found.art,
    glyphs: found.blocks.map((b) => b.glyphs),
    runs: found.runs,
    letterSized: marks,
  });
}

/** What `looksLikePicture` measures of a page (shares of its analysis raster, counts of marks). */
export interface PageMeasure {
  /** Share of the page as light as text blocks' grounds. */
  paper: number;
  /** Share of its ink in shapes larger than any letter. */
  drawn: number;
  /** Share of its ink in ruling lines (`ruledShare`: a table's or a form's grid), where it is mostly paper (`PAPER`); 0 elsewhere. */
  ruled: number;
  /** Share of its ink that is no mark of a text block. */
  art: number;
  /** Letters each text block holds. */
  glyphs: number[];
  /** Letters each run of blocks set as lines of one text holds (`PictureText.runs`). */
  runs: number[];
  /** Ink components no larger than a big letter, anywhere on the page. */
  letterSized: number;
}

/** `looksLikePicture`'s judgement of a page from its measure. */
export function pictureByMeasure(m: PageMeasure): boolean {
  // A page that is mostly paper is drawn on only where more than its rules are: a table's grid is
  // most of its large shapes (ruled table pages: 0.57–0.69 of their ink, 0.01–0.39 left without it).
  if (m.drawn - m.ruled < DRAWN && m.paper >= PAPER) return false;
  const glyphs = m.glyphs.reduce((n, g) => n + g, 0);
  const largest = Math.max(0, ...m.glyphs);
  const prose = m.runs.reduce((n, g) => n + (g > PROSE_BLOCK ? g : 0), 0);
  if (prose >= BODY * glyphs) return false;
  // Text over a drawing: most of the page is not paper, and the art holds more letter-sized detail
  // (strokes, hatching, tone dots) than the text has letters. A flat or graded fill (a poster's
  // coloured half) holds none.
  const drawnOver = m.paper < PAPER && m.letterSized - glyphs >= glyphs;
  // Such a page is a picture even where its text holds much of its ink: a manga page of many
  // balloons whose screen tone was whitened as a photo's uneven light was evened out.
  if (m.art < ART && !drawnOver) return false;
  if (m.drawn < DRAWN && !drawnOver) return false;
  if (glyphs >= MIN_GLYPHS && largest < BODY * glyphs) return true;
  // A single panel, or a few, may hold one balloon (its largest block is most of its letters) or a
  // two-word one: it is still a picture when its text is set over a drawing, as a map's, a chart's
  // or a poster's is not.
  return glyphs >= FEW_GLYPHS && drawnOver;
}

/**
 * Whether a page's text is one or a few balloons on their own (cut out of a comic page, on white):
 * text blocks all on balloons' interiors (`TextBlock.balloon`), holding at least `FEW_GLYPHS`
 * letters and half (`HELD`) of the page's letter-sized marks (art in the corners of a balloon cut
 * out as a rectangle holds the rest). Its ink is mostly letters on paper,
 * as a document's is, but it is read and set as a balloon.
 */
function balloonsAlone(blocks: TextBlock[], marks: number): boolean {
  const glyphs = blocks.reduce((n, b) => n + b.glyphs, 0);
  return blocks.length > 0 && blocks.every((b) => b.balloon) && glyphs >= FEW_GLYPHS && glyphs >= HELD * marks;
}

/**
 * Whether a page found lying in a photo is a picture: `flat` is the page cut out and made flat,
 * `evened` the same with its uneven light evened out (null when its light is even). It is judged
 * as `looksLikePicture` judges the evened page, and only when less than `PAPER` of it is paper as
 * taken: a photo's blur joins a document's small letters into shapes as large as drawing's, while
 * its paper stays paper (a shadow's is judged on the evened page).
 */
export function photographedPicture(flat: GrayImage, evened: GrayImage | null): boolean {
  const judged = downscaleGray(flat, fitScale(flat.width, flat.height, JUDGE_SIDE));
  return paperShare(judged) < PAPER && looksLikePicture(evened ?? flat);
}

/** Ink components no larger than a big letter, anywhere on the page. */
function letterSized({ candidate }: PageInk): number {
  let n = 0;
  for (let k = 1; k < candidate.length; k++) n += candidate[k]!;
  return n;
}

function paperShare({ data }: GrayImage): number {
  let paper = 0;
  for (let i = 0; i < data.length; i++) if (data[i]! >= GROUND) paper++;
  return data.length ? paper / data.length : 1;
}
