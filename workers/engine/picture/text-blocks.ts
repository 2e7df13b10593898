import type { Box } from "../../shared/engine-contract";
import { downscaleGray, type GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
import { borderLetters } from "./border-letters";
import { chainedTexts, lineHeight, type LetterGroup } from "./chained-lines";
import { labelComponents, type Components } from "./components";

/**
 * Text in a picture (a comic or manga page, a poster, a photo of a sign) sits on grounds of its
 * own: a speech balloon, a caption box, the white outline of a sound effect, a plate. Such a
 * ground is a connected light area that encloses dark marks of letter size lying in rows or
 * columns; everything else (the art) is left alone. Each run of marks close together on one ground
 * is one text block: a balloon's lines stay together, two balloons never share a block (their grounds
 * are apart, or their texts are), and nothing drawn in the art is taken for text.
 */
export interface TextBlock {
  /** Its marks' box, page pixels. */
  box: Box;
  /**
   * The largest rectangle of its own ground around the text (a balloon's or caption's interior),
   * page pixels: where a translation may be set.
   */
  frame: Box;
  /** The marks run in columns (vertical CJK) rather than rows. */
  vertical: boolean;
  /** Median height of its letters, page pixels. */
  glyph: number;
  /** Letter-sized marks it holds. */
  glyphs: number;
  /**
   * Its ground is a balloon's interior: a shape within the page (along at most `CUT` of its edge: a
   * balloon cut out through its interior) and rounded, filling at most `ROUNDED` of its box with
   * the marks on it (an ellipse fills 0.79, a caption box, a page's frame or its paper nearly all of it).
   */
  balloon: boolean;
}

export interface PictureText {
  blocks: TextBlock[];
  /** The analysis raster's size and scale (its pixels per page pixel). */
  width: number;
  height: number;
  scale: number;
  /** Per analysis pixel: 1 + the index of the block it is a mark of, 0 for none. */
  owner: Uint16Array;
  /** Per analysis pixel: 1 where it is ink of a shape larger than any letter (a balloon's outline, a border, drawing). */
  shapes: Uint8Array;
  /** Share of the page's ink that is art: dark pixels that are no mark of a text block. */
  art: number;
  /** Share of the page's ink in shapes larger than any letter (panel borders, drawing, large areas). */
  drawn: number;
  /** Letter-sized marks on light grounds, in all. */
  glyphs: number;
  /** Letters of each run of text blocks set as lines of one text on one ground (`textRuns`). */
  runs: number[];
}

/** Gaps (in letter heights) across and down within which text blocks are one text (`textRuns`). */
const RUN_GAP = [4, 1.5] as const;
/** Ratio of letter heights within which text blocks may be one text. */
const RUN_ALIKE = 1.5;

/** Long side a page is analysed at for reading: letters of comics and manga stay 8 px or more. */
const ANALYSIS_SIDE = 1600;
/**
 * A tall strip (a webtoon's episode, panels stacked in one column) keeps at least this share of the
 * analysis side across, as a page of 1:2 does: fitted by its long side, its letters would shrink
 * away. Pages of 1:2 or squarer are analysed as before.
 */
export const STRIP_ACROSS = 0.5;
/**
 * A wide row of panels (a newspaper strip, a tier cut out of a page) longer than 2:1 keeps at least
 * this share of the analysis side down its height, as one tier of a page of three does (a comic
 * page's tiers are a third of it): fitted by its length, its letters shrank away. A row kept higher
 * than that by its fit is analysed as before (analysed higher, a 2 590 × 950 manga row found its
 * art as text).
 */
const ROW_ACROSS = 1 / 3;
/** Pixels an analysis raster holds at most: no more than a square page's (2.6 MP, within the isolate's memory). */
const MAX_ANALYSIS_PIXELS = ANALYSIS_SIDE * ANALYSIS_SIDE;
/** Luma at and above which a pixel is ground (white to yellow balloons and caption boxes). */
export const GROUND = 140;
/** Share of its box a balloon's interior fills at most, with the marks on it (see `TextBlock.balloon`). */
const ROUNDED = 0.85;
/**
 * Share of the image's edge a balloon's interior runs along at most: a balloon cut out as a
 * rectangle through its interior has it at 3–15 % of its edge; a piece cut out of a page's paper,
 * all round.
 */
const CUT = 0.25;
/** Luma below which a pixel is ink: lettering is dark. Pixels between ink and ground (anti-aliasing, print noise) are neither. */
const INK = 120;
/** Pixels between a mark and its ground that may be neither (an anti-aliased or noisy edge). */
const EDGE = 3;
/** A mark's contacts with its ground: at least this share with one ground (holes of letters aside). */
const ENCLOSED = 0.9;
/**
 * A block's letters are its marks at least SMALL of the height most of them stay under (the
 * TALL_SHARE quantile); smaller ones are dots, punctuation and ornaments.
 */
const TALL_SHARE = 0.8;
const SMALL = 0.3;

interface Mark {
  k: number;
  ground: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const STEPS: [number, number][] = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

/** The marks' groups by union-find over index pairs. */
function groupsOf(n: number, linked: (a: number, b: number) => boolean, order: number[], reach: (a: number, b: number) => boolean) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const root = (a: number): number => (parent[a] === a ? a : (parent[a] = root(parent[a]!)));
  for (let s = 0; s < order.length; s++) {
    const a = order[s]!;
    for (let t = s + 1; t < order.length; t++) {
      const b = order[t]!;
      if (!reach(a, b)) break;
      if (linked(a, b)) parent[root(a)] = root(b);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = root(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  }
  return [...groups.values()];
}

/** Items in lanes: runs of overlapping spans. */
function lanes<T>(items: T[], span: (t: T) => [number, number]): T[][] {
  const sorted = [...items].sort((a, b) => span(a)[0] - span(b)[0]);
  const out: T[][] = [];
  let end = -Infinity;
  for (const t of sorted) {
    const [s, e] = span(t);
    if (s >= end) out.push([]);
    out[out.length - 1]!.push(t);
    end = Math.max(end, e);
  }
  return out;
}

/** Median blank between consecutive lanes (pixels); lanes come sorted by their start. */
function laneGap<T>(ls: T[][], span: (t: T) => [number, number]): number {
  const gaps = ls.slice(1).map((l, i) => Math.min(...l.map((t) => span(t)[0])) - Math.max(...ls[i]!.map((t) => span(t)[1])));
  return median(gaps);
}

/** Whether no lane is much wider than the others (none holds two lines run together, as a slant makes them). */
function distinct<T>(ls: T[][], span: (t: T) => [number, number]): boolean {
  const widths = ls.map((l) => Math.max(...l.map((t) => span(t)[1])) - Math.min(...l.map((t) => span(t)[0])));
  return Math.max(...widths) <= DISTINCT * median(widths);
}

/** Blank between lines of text this many times that between the marks along them tells the direction. */
const SPACED = 1.5;
/** Lanes at most this many times as wide as their median one are lines each. */
const DISTINCT = 1.6;
/**
 * Share of a character's size (the median mark's longer side) that the blank between lines is at
 * least: on the manga pages at hand and their photos, columns stand 0.33–0.55 of a character apart,
 * the characters along them 0.1–0.25. A balloon's two columns photographed a little turned stood
 * 1 px apart, 4 px between their 24 px characters, and were taken for rows and read across.
 */
const LINE_GAP = 0.25;

/**
 * Rows or columns. Where the marks stand in several rows and several columns, each lane of them
 * one line (characters of Chinese or Japanese set on a grid), lines lie further apart than the
 * characters along them, by a line's spacing at least (`LINE_GAP`): the blank between columns of
 * vertical text (a balloon of eight columns of five characters at 32 px: 13–16 px) against the few
 * pixels between the characters of a column, and the other way for rows. Otherwise, or where the blanks do not tell, in rows of text
 * each row holds many marks side by side and in columns each column many marks one above the
 * other: counted both ways over the block's marks. Counts alone took a balloon of more columns
 * than characters to a column for rows, and read it across its columns.
 */
function runsVertically(marks: Mark[]): boolean {
  const rows = (m: Mark): [number, number] => [m.y0, m.y1];
  const columns = (m: Mark): [number, number] => [m.x0, m.x1];
  const [columnLanes, rowLanes] = [lanes(marks, columns), lanes(marks, rows)];
  // A blank narrower than a line's spacing tells nothing: of two such, the wider is no line gap.
  const apart = LINE_GAP * median(marks.map((m) => Math.max(m.x1 - m.x0, m.y1 - m.y0)));
  if (columnLanes.length > 1 && rowLanes.length > 1 && distinct(columnLanes, columns) && distinct(rowLanes, rows)) {
    const [betweenColumns, betweenRows] = [laneGap(columnLanes, columns), laneGap(rowLanes, rows)];
    if (betweenColumns > SPACED * Math.max(1, betweenRows) && betweenColumns >= apart) return true;
    if (betweenRows > SPACED * Math.max(1, betweenColumns) && betweenRows >= apart) return false;
  }
  const perLane = (ls: Mark[][], along: typeof rows) => ls.reduce((n, l) => n + lanes(l, along).length, 0) / ls.length;
  return perLane(columnLanes, rows) > perLane(rowLanes, columns);
}

/**
 * Letters are at most 7 % of a page's long side; on a small image (a balloon or panel cut out of a
 * page) lettering of the usual sizes, up to BIG_LETTER pixels, may stand taller than that, up to
 * this share of its long side, where it fills its box as letters do (BIG_LETTER_INK): a balloon cut
 * out at 372 px held 40 px characters, none of them taken for a letter.
 */
const SMALL_PAGE_LETTER = 0.2;
const BIG_LETTER = 48;
/**
 * Ink a letter taller than 7 % of the page fills of its box at least: characters of 30–40 px fill
 * 0.23–0.46, the open V of a balloon's tail 0.13.
 */
const BIG_LETTER_INK = 0.2;

/** A page's ink at the size it is analysed at: its dark components, those no larger than a big letter marked. */
export interface PageInk {
  img: GrayImage;
  /** The analysis raster's pixels per page pixel. */
  scale: number;
  /** Per analysis pixel: 1 where it is ink (darker than `INK`). */
  inkMask: Uint8Array;
  ink: Components;
  /** Per ink component: 1 when it is no larger than a big letter (a candidate mark). */
  candidate: Uint8Array;
  /** Height (analysis pixels) of the largest and the smallest letter. */
  maxH: number;
  minH: number;
  /** Share of the ink in shapes larger than any letter (panel borders, drawing, large areas). */
  drawn: number;
}

/** A page's ink (see `PageInk`), analysed at `side` pixels on its long side at most (a strip: a share of `side` across, `stripAcross`). */
export function pageInk(page: GrayImage, side = ANALYSIS_SIDE): PageInk {
  // A page larger than `side` is fitted by its long side, a strip by its short side.
  const fit = fitScale(page.width, page.height, side);
  const { across, share } = stripAcross(page.width, page.height, side);
  const scale = across ? Math.min(1, Math.max(fit, stripScale(across, share, page.width * page.height, side))) : fit;
  const img = downscaleGray(page, scale);
  const { width: W, height: H, data } = img;
  const n = W * H;
  const inkMask = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (data[i]! < INK) inkMask[i] = 1;
  const ink = labelComponents(inkMask, W, H, true);
  // Letters are sized against the page's long side, a strip's against the long side of the page its
  // short side is a share of: a strip's length says nothing of its lettering.
  const long = across ? Math.min(W, H) / share : Math.max(W, H);
  const usual = Math.max(12, Math.round(long * 0.07));
  const maxH = Math.max(usual, Math.min(Math.round(long * SMALL_PAGE_LETTER), BIG_LETTER));
  const minH = Math.max(5, Math.round(long * 0.004));
  // Candidates: dark components no larger than a big letter.
  const candidate = new Uint8Array(ink.count + 1);
  let dark = 0,
    drawn = 0;
  for (let k = 1; k <= ink.count; k++) {
    const h = ink.y1[k]! - ink.y0[k]!;
    const w = ink.x1[k]! - ink.x0[k]!;
    const letterSized = h <= usual && w <= Math.max(usual, W * 0.25);
    const bigLetter = h <= maxH && w <= maxH && ink.area[k]! >= BIG_LETTER_INK * w * h;
    if (letterSized || bigLetter) candidate[k] = 1;
    else drawn += ink.area[k]!;
    dark += ink.area[k]!;
  }
  return { img, scale, inkMask, ink, candidate, maxH, minH, drawn: dark ? drawn / dark : 0 };
}

/** Whether a page is a tall strip: larger than `side` and taller than 1:2 (`STRIP_ACROSS`). */
export function isTallStrip(width: number, height: number, side = ANALYSIS_SIDE): boolean {
  return fitScale(width, height, side) < 1 && height * STRIP_ACROSS > width;
}

/**
 * A strip's short side and the share of the analysis side it keeps: a tall strip's width
 * (`STRIP_ACROSS`), a wide row's height (`ROW_ACROSS`); `across` 0 for a page (no larger than
 * `side`, or of 1:2 or squarer).
 */
function stripAcross(width: number, height: number, side: number): { across: number; share: number } {
  if (isTallStrip(width, height, side)) return { across: width, share: STRIP_ACROSS };
  const row = fitScale(width, height, side) < 1 && width * STRIP_ACROSS > height;
  return row ? { across: height, share: ROW_ACROSS } : { across: 0, share: 1 };
}

/** The scale that keeps a strip's short side (`across`) to `share` of `side`, within `MAX_ANALYSIS_PIXELS`. */
function stripScale(across: number, share: number, pixels: number, side: number): number {
  return Math.min((share * side) / across, Math.sqrt(MAX_ANALYSIS_PIXELS / pixels));
}

/** Finds the text blocks of a picture (see `TextBlock`), from its gray image or its ink found already. */
export function findTextBlocks(page: GrayImage, side = ANALYSIS_SIDE, inked = pageInk(page, side)): PictureText {
  const { img, scale, inkMask, ink, candidate, maxH, minH } = inked;
  const { width: W, height: H, data } = img;
  const n = W * H;
  const groundMask = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (data[i]! >= GROUND) groundMask[i] = 1;
  const ground = labelComponents(groundMask, W, H, false);
  // Each candidate's contacts with grounds, holes inside its own box (a letter's counters) aside.
  const contacts = new Map<number, Map<number, number>>();
  for (let i = 0; i < n; i++) {
    const k = ink.labels[i]!;
    if (!k || !candidate[k]) continue;
    const x = i % W;
    const y = (i - x) / W;
    // Each way out of the mark, across at most EDGE pixels that are neither ink nor ground.
    for (const [dx, dy] of STEPS) {
      let g = 0;
      for (let s = 1; s <= EDGE; s++) {
        const xx = x + dx * s,
          yy = y + dy * s;
        if (xx < 0 || yy < 0 || xx >= W || yy >= H) break;
        const j = yy * W + xx;
        if (ink.labels[j]) break;
        g = ground.labels[j]!;
        if (g) break;
      }
      if (!g) continue;
      // A hole inside the mark's own box is a letter's counter, not its ground.
      if (ground.x0[g]! >= ink.x0[k]! && ground.x1[g]! <= ink.x1[k]! && ground.y0[g]! >= ink.y0[k]! && ground.y1[g]! <= ink.y1[k]!)
        continue;
      let m = contacts.get(k);
      if (!m) contacts.set(k, (m = new Map()));
      m.set(g, (m.get(g) ?? 0) + 1);
    }
  }
  // Marks: candidates enclosed by one ground much larger than themselves: its extent four times
  // theirs, its area twice (a caption box drawn snug around a word whose letters run together has
  // little more ground than the word's box).
  const marks: Mark[] = [];
  for (const [k, m] of contacts) {
    let total = 0,
      best = 0,
      g = 0;
    for (const [label, c] of m) {
      total += c;
      if (c > best) [best, g] = [c, label];
    }
    const box = { k, ground: g, x0: ink.x0[k]!, y0: ink.y0[k]!, x1: ink.x1[k]!, y1: ink.y1[k]! };
    const boxArea = (box.x1 - box.x0) * (box.y1 - box.y0);
    const encloses = ground.x0[g]! <= box.x0 && ground.x1[g]! >= box.x1 && ground.y0[g]! <= box.y0 && ground.y1[g]! >= box.y1;
    const extent = (ground.x1[g]! - ground.x0[g]!) * (ground.y1[g]! - ground.y0[g]!);
    if (best >= ENCLOSED * total && encloses && extent >= 4 * boxArea && ground.area[g]! >= 2 * boxArea) marks.push(box);
  }
  const isGlyph = (m: Mark) => m.y1 - m.y0 >= minH && ink.area[m.k]! >= 0.12 * (m.x1 - m.x0) * (m.y1 - m.y0);
  const glyphs = marks.filter(isGlyph);
  const h = (m: Mark) => m.y1 - m.y0;
  // Letters close together on one ground form a block (word gaps and line gaps within reach).
  const order = glyphs.map((_, i) => i).sort((a, b) => glyphs[a]!.x0 - glyphs[b]!.x0);
  const reachOf = (a: Mark, b: Mark) => Math.min(Math.max(h(a), h(b)), 2 * Math.min(h(a), h(b)));
  const groups = groupsOf(
    glyphs.length,
    (ia, ib) => {
      const a = glyphs[ia]!,
        b = glyphs[ib]!;
      if (a.ground !== b.ground) return false;
      const r = reachOf(a, b);
      const gapX = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
      const gapY = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
      return gapX <= 1.2 * r && gapY <= 0.9 * r;
    },
    order,
    (ia, ib) => glyphs[ib]!.x0 - glyphs[ia]!.x1 <= 1.2 * maxH,
  );
  const owner = new Uint16Array(n);
  const blocks: TextBlock[] = [];
  const placed: Placed[] = [];
  const taken = new Set<number>();
  const toPage = (x0: number, y0: number, x1: number, y1: number): Box => ({
    x: Math.round(x0 / scale),
    y: Math.round(y0 / scale),
    w: Math.round((x1 - x0) / scale),
    h: Math.round((y1 - y0) / scale),
  });
  // Groups of letters on either side of letters run together are one text (`chainedTexts`).
  const lettered = groups.filter((g) => g.length >= 2);
  const texts = chainedTexts(
    lettered.map((group) => {
      const members = group.map((i) => glyphs[i]!);
      return {
        ground: members[0]!.ground,
        x0: Math.min(...members.map((m) => m.x0)),
        y0: Math.min(...members.map((m) => m.y0)),
        x1: Math.max(...members.map((m) => m.x1)),
        y1: Math.max(...members.map((m) => m.y1)),
        glyph: lineHeight(members.map(h)),
      };
    }),
    inkMask,
    W,
    (g) => [ground.x0[g]!, ground.y0[g]!, ground.x1[g]!, ground.y1[g]!],
  );
  for (const text of texts) {
    const group = text.groups.flatMap((k) => lettered[k]!);
    const members = group.map((i) => glyphs[i]!);
    // Letters set the block's size: dots and small ornaments among them (a balloon's bubbles) do not.
    const heights = members.map(h).sort((a, b) => a - b);
    const tall = heights[Math.floor(TALL_SHARE * (heights.length - 1))]!;
    const sized = members.filter((m) => h(m) >= SMALL * tall);
    const mh = median(sized.map(h));
    const steady = sized.filter((m) => h(m) >= 0.4 * mh && h(m) <= 2.5 * mh).length;
    if (sized.length < 2 || steady < 0.6 * sized.length) continue;
    let x0 = Math.min(...members.map((m) => m.x0)),
      y0 = Math.min(...members.map((m) => m.y0)),
      x1 = Math.max(...members.map((m) => m.x1)),
      y1 = Math.max(...members.map((m) => m.y1));
    const g = members[0]!.ground;
    // Punctuation and accents too small to be letters join the block they sit in.
    const pad = 0.6 * mh;
    const own = marks.filter(
      (m) => !taken.has(m.k) && m.ground === g && m.x0 >= x0 - pad && m.x1 <= x1 + pad && m.y0 >= y0 - pad && m.y1 <= y1 + pad,
    );
    const id = blocks.length + 1;
    if (id > 65535) break;
    for (const m of own) {
      taken.add(m.k);
      x0 = Math.min(x0, m.x0);
      y0 = Math.min(y0, m.y0);
      x1 = Math.max(x1, m.x1);
      y1 = Math.max(y1, m.y1);
      for (let y = m.y0; y < m.y1; y++) for (let x = m.x0; x < m.x1; x++) if (ink.labels[y * W + x] === m.k) owner[y * W + x] = id;
    }
    // The letters run together between its groups are its letters too.
    for (const [rx0, ry0, rx1, ry1] of text.runs)
      for (let y = ry0; y < ry1; y++) for (let x = rx0; x < rx1; x++) if (inkMask[y * W + x] && !owner[y * W + x]) owner[y * W + x] = id;
    const inks = { mask: inkMask, labels: ink.labels, letterSized: candidate };
    [x0, y0, x1, y1] = borderLetters(ground, g, inks, owner, W, id, [x0, y0, x1, y1], mh);
    const frame = growFrame(ground.labels, owner, g, id, W, H, [x0, y0, x1, y1], Math.round(4 * mh));
    placed.push({ ground: g, x0, y0, x1, y1, glyph: mh, glyphs: members.length });
    blocks.push({
      box: toPage(x0, y0, x1, y1),
      frame: toPage(...frame),
      vertical: runsVertically(sized),
      glyph: Math.max(1, Math.round(mh / scale)),
      glyphs: members.length,
      balloon: inBalloon(
        ground,
        g,
        W,
        H,
        own.reduce((a, m) => a + ink.area[m.k]!, 0),
      ),
    });
  }
  let dark = 0,
    art = 0;
  const shapes = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!inkMask[i]) continue;
    dark++;
    if (!owner[i]) art++;
    if (!candidate[ink.labels[i]!]) shapes[i] = 1;
  }
  return {
    blocks,
    width: W,
    height: H,
    scale,
    owner,
    shapes,
    art: dark ? art / dark : 0,
    drawn: inked.drawn,
    glyphs: glyphs.length,
    runs: textRuns(placed),
  };
}

/** A text block as found on the analysis raster: its ground, its box, its median letter height and its letters. */
interface Placed extends LetterGroup {
  glyphs: number;
}

/**
 * Letters of each run of text blocks that are lines and words of one text: blocks on one ground,
 * of letters alike in size, side by side within four letters' height (a short word the blocks
 * missed between them) and one above the other within one and a half (a line gap). Prose seen
 * small splits into a block per word or line, since its letters' own reach stops at wide word and
 * line gaps (an illustrated book page: 183 blocks of at most 67 letters), and runs join it back
 * into its paragraphs; balloons stand on grounds of their own and captions apart from each other,
 * so a picture's runs stay its blocks.
 */
function textRuns(placed: Placed[]): number[] {
  const order = placed.map((_, i) => i).sort((a, b) => placed[a]!.x0 - placed[b]!.x0);
  const reach = RUN_GAP[0] * Math.max(0, ...placed.map((b) => b.glyph));
  const groups = groupsOf(
    placed.length,
    (ia, ib) => {
      const a = placed[ia]!,
        b = placed[ib]!;
      const m = Math.max(a.glyph, b.glyph);
      if (a.ground !== b.ground || m > RUN_ALIKE * Math.min(a.glyph, b.glyph)) return false;
      const gapX = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
      const gapY = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
      return gapX <= RUN_GAP[0] * m && gapY <= RUN_GAP[1] * m;
    },
    order,
    (ia, ib) => placed[ib]!.x0 - placed[ia]!.x1 <= reach,
  );
  return groups.map((g) => g.reduce((n, i) => n + placed[i]!.glyphs, 0));
}

/** Whether ground `g`, with `marked` pixels of marks on it, is a balloon's interior (`TextBlock.balloon`). */
function inBalloon(ground: Components, g: number, W: number, H: number, marked: number): boolean {
  const [x0, y0, x1, y1] = [ground.x0[g]!, ground.y0[g]!, ground.x1[g]!, ground.y1[g]!];
  if ((x0 <= 0 || y0 <= 0 || x1 >= W || y1 >= H) && edgeShare(ground.labels, g, W, H) > CUT) return false;
  return ground.area[g]! + marked <= ROUNDED * (x1 - x0) * (y1 - y0);
}

/** Share of the raster's edge pixels that lie on ground `g`. */
function edgeShare(labels: Int32Array, g: number, W: number, H: number): number {
  let on = 0;
  for (let x = 0; x < W; x++) on += +(labels[x] === g) + +(labels[(H - 1) * W + x] === g);
  for (let y = 0; y < H; y++) on += +(labels[y * W] === g) + +(labels[y * W + W - 1] === g);
  return on / (2 * (W + H));
}

/**
 * Grows the text's box side by side, a pixel at a time, while the new edge lies on the block's own
 * ground or marks (99.5 %: it stops at the balloon's outline), by at most `most` pixels a side: a
 * balloon's interior around its text.
 */
function growFrame(
  grounds: Int32Array,
  owner: Uint16Array,
  g: number,
  id: number,
  W: number,
  H: number,
  box: [number, number, number, number],
  most: number,
): [number, number, number, number] {
  let [x0, y0, x1, y1] = box;
  const inside = (i: number) => grounds[i] === g || owner[i] === id;
  const rowOk = (y: number) => {
    let ok = 0;
    for (let x = x0; x < x1; x++) if (inside(y * W + x)) ok++;
    return ok >= 0.995 * (x1 - x0);
  };
  const colOk = (x: number) => {
    let ok = 0;
    for (let y = y0; y < y1; y++) if (inside(y * W + x)) ok++;
    return ok >= 0.995 * (y1 - y0);
  };
  const limit = { x0: Math.max(0, x0 - most), y0: Math.max(0, y0 - most), x1: Math.min(W, x1 + most), y1: Math.min(H, y1 + most) };
  for (let grew = true; grew;) {
    grew = false;
    if (y0 > limit.y0 && rowOk(y0 - 1)) (y0--, (grew = true));
    if (y1 < limit.y1 && rowOk(y1)) (y1++, (grew = true));
    if (x0 > limit.x0 && colOk(x0 - 1)) (x0--, (grew = true));
    if (x1 < limit.x1 && colOk(x1)) (x1++, (grew = true));
  }
  return [x0, y0, x1, y1];
}
