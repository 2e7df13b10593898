import type { Box, LineText, PageText, WordText } from "../../shared/engine-contract";
import { groupLines, unionBox } from "../ocr/group-lines";
import { joinWords } from "../ocr/page-text";
import { xyCut } from "../layout/xy-cut";
import type { PdfTextItem } from "./document";
import type { QuarterTurn } from "../image/geometry";
import { type Matrix, mul } from "./matrix";

interface Run {
  x: number;
  baseline: number;
  size: number;
  width: number;
  str: string;
}

const runBox = (r: Run): Box => ({ x: r.x, y: r.baseline - r.size * 0.85, w: r.width, h: r.size * 1.1 });

const round1 = (v: number) => Math.round(v * 10) / 10;

function clampBox(b: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.min(width - 1, b.x));
  const y = Math.max(0, Math.min(height - 1, b.y));
  return {
    x: round1(x),
    y: round1(y),
    w: round1(Math.max(1, Math.min(width - x, b.w + (b.x - x)))),
    h: round1(Math.max(1, Math.min(height - y, b.h + (b.y - y)))),
  };
}

/**
 * Advance widths of printable ASCII (code 32–126) in a typical proportional text face
 * (Helvetica's metrics, 1/1000 em). The text layer gives a run's width but no glyph boxes; shares
 * of these widths place words inside a run far closer than shares by character count ("ill" is
 * narrower than "mww"). Other characters count as an average letter, wide (CJK) ones as 1 em.
 */
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278,
  278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722,
  667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556,
  556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

function advance(ch: string): number {
  const c = ch.codePointAt(0)!;
  if (c >= 32 && c <= 126) return ASCII_WIDTHS[c - 32]!;
  // East Asian wide characters (CJK, kana, Hangul, full-width forms) take a full em.
  return c >= 0x1100 &&
    /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]/u.test(ch)
    ? 1000
    : 556;
}

/** Splits a run into words, sharing its width by the characters' usual advance widths. */
function runWords(run: Run): { box: Box; text: string }[] {
  const words: { box: Box; text: string }[] = [];
  const chars = [...run.str];
  // Offsets of each character's left edge, in the run's width.
  const edges = [0];
  for (const ch of chars) edges.push(edges[edges.length - 1]! + advance(ch));
  const per = run.width / Math.max(1, edges[chars.length]!);
  const { y: top, h } = runBox(run);
  for (const m of run.str.matchAll(/\S+/gu)) {
    const start = [...run.str.slice(0, m.index)].length;
    const end = start + [...m[0]].length;
    words.push({ box: { x: run.x + edges[start]! * per, y: top, w: (edges[end]! - edges[start]!) * per, h }, text: m[0] });
  }
  return words;
}

/**
 * The quarter turn (clockwise, as `rotateQuarter` turns an image) that sets the layer's text
 * upright: the direction most of its characters run in on the raster (`viewport` maps user space
 * to it). A table set sideways on its page runs down or up; its lines are read in that frame.
 */
export function uprightTurn(items: PdfTextItem[], viewport: Matrix): QuarterTurn {
  const chars = new Map<QuarterTurn, number>();
  let total = 0;
  for (const item of items) {
    const n = item.str.replace(/\s+/gu, "").length;
    if (n === 0) continue;
    const t = mul(viewport, item.transform);
    // The run's direction on the raster (y down): 90 runs downward, 270 upward.
    const angle = (((Math.round((Math.atan2(t[1]!, t[0]!) * 2) / Math.PI) * 90) % 360) + 360) % 360;
    const turn = ((360 - angle) % 360) as QuarterTurn;
    chars.set(turn, (chars.get(turn) ?? 0) + n);
    total += n;
  }
  const [turn, n] = [...chars].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  return n > total / 2 ? turn : 0;
}

/** The map of `rotateQuarter(turn)` from a width × height raster to the turned one. */
export function turnMatrix(turn: QuarterTurn, width: number, height: number): Matrix {
  if (turn === 90) return [0, 1, -1, 0, height, 0];
  if (turn === 180) return [-1, 0, 0, -1, width, height];
  if (turn === 270) return [0, -1, 1, 0, 0, width];
  return [1, 0, 0, 1, 0, 0];
}

/**
 * The page's text layer as `PageText` in raster coordinates (`viewport` maps PDF user space to
 * the page raster): runs grouped into lines by baseline, lines into regions as OCR lines are.
 * Text is exact (confidence 1).
 */
export function textLayerPage(items: PdfTextItem[], viewport: number[], width: number, height: number): PageText {
  const runs: Run[] = items.map((item) => {
    const t = mul(viewport, item.transform);
    const size = Math.hypot(t[2]!, t[3]!) || Math.hypot(t[0]!, t[1]!) || 1;
    const scale = Math.hypot(viewport[0]!, viewport[1]!);
    return { x: t[4]!, baseline: t[5]!, size, width: item.width * scale, str: item.str };
  });
  // Reading order: columns and blocks by XY-cut (a gutter is at least 0.8 of the usual text
  // size), then within each block lines of runs whose baselines agree within 40% of the text size.
  const sizes = runs.map((r) => r.size).sort((a, b) => a - b);
  // Space runs take part in the cut (a measured word gap is no gutter), not in the lines.
  const leaves = xyCut(runs, runBox, 0.8 * (sizes[sizes.length >> 1] ?? 1)).map((leaf) => leaf.filter((r) => r.str.trim().length > 0));
  const lines: Run[][] = leaves.flatMap((leaf) => {
    leaf.sort((a, b) => a.baseline - b.baseline || a.x - b.x);
    const ls: Run[][] = [];
    for (const r of leaf) {
      const line = ls.find(
        (l) =>
          Math.abs(l[0]!.baseline - r.baseline) < 0.4 * Math.min(l[0]!.size, r.size) &&
          !l.some((o) => r.x < o.x + o.width - 0.5 * r.size && o.x < r.x + r.width - 0.5 * r.size),
      );
      if (line) line.push(r);
      else ls.push([r]);
    }
    return ls;
  });
  const lineTexts: LineText[] = lines.map((l) => {
    l.sort((a, b) => a.x - b.x);
    const words: WordText[] = [];
    let prev: Run | null = null;
    for (const r of l) {
      const ws = runWords(r);
      // A word split across two runs (kerning, font change) is joined back when they touch.
      const touching = prev && !/\s$/u.test(prev.str) && !/^\s/u.test(r.str) && r.x - (prev.x + prev.width) < 0.15 * r.size;
      if (touching && ws.length && words.length) {
        const last = words[words.length - 1]!;
        const first = ws.shift()!;
        last.text += first.text;
        last.box = unionBox(last.box, first.box);
      }
      words.push(...ws.map((w) => ({ ...w, confidence: 1 })));
      prev = r;
    }
    const clamped = words.map((w) => ({ ...w, box: clampBox(w.box, width, height) }));
    return {
      box: clamped.slice(1).reduce((u, w) => unionBox(u, w.box), clamped[0]!.box),
      text: joinWords(clamped.map((w) => w.text)),
      confidence: 1,
      words: clamped,
    };
  });
  const ordered = lineTexts.filter((l) => l.words.length > 0);
  const regions = groupLines(ordered, (l) => l.box).map((ls) => ({
    box: ls.slice(1).reduce((u, l) => unionBox(u, l.box), ls[0]!.box),
    text: ls.map((l) => l.text).join("\n"),
    confidence: 1,
    lines: ls,
  }));
  return { width, height, languages: [], text: regions.map((r) => r.text).join("\n\n"), confidence: 1, regions, path: "text_layer" };
}
