import { styleFrame, type Box, type TypesetInput, type TypesetRegion, type TypesetResult } from "../../shared/engine-contract";
import { encodeRgba, loadRgba } from "../inpaint/rgba";
import { writeObject } from "../storage/r2";
import { rowEdges } from "./background-edges";
import { balloonShape, turnedBalloonShape } from "./balloon-shape";
import { clearOf } from "./clear-frames";
import { drawSvg, regionSvg, turnedSvg } from "./draw";
import { fontChain, type Face } from "./fonts";
import { fitText, LINE_GAP, SHRINK } from "./layout";
import { engineError } from "../errors";
import { unshapedScript } from "../../shared/shaping";
import { asLettered, hasCase } from "../../shared/lettering";

const COLOR = /^#[0-9a-f]{6}$/i;

/** Share of a frame's smaller side kept clear inside it: text set to its very edge touches the balloon's outline. */
const FRAME_MARGIN = 0.06;

/**
 * A frame given in a region's style (when it is a box of positive size), cleared of the other
 * regions' frames (`clearOf`), and its margin.
 */
function frameOf(r: TypesetRegion, others: Box[]): { frame: Box; margin: number } | null {
  const given = styleFrame(r.style);
  if (!given) return null;
  const frame = clearOf(given, others);
  return { frame, margin: Math.floor(Math.min(frame.w, frame.h) * FRAME_MARGIN) };
}

/** Turns (degrees) below this are set upright: a line turned by it rises less than a pixel in 100. */
const LEAST_TURN = 0.5;

/** The turn a region's style asks its text to be set at (degrees clockwise), 0 for upright. */
function turnOf(r: TypesetRegion): number {
  const a = Number(r.style?.angle ?? 0);
  if (!Number.isFinite(a)) return 0;
  const turn = (((a % 360) + 540) % 360) - 180;
  return Math.abs(turn) < LEAST_TURN ? 0 : turn;
}

/**
 * The largest rectangle turned by `angle` that `box` holds, centred in it, as the box it is
 * laid out in before it is turned. In the box around a turned rectangle (a slanted balloon's
 * interior seen in a photo), that is the rectangle itself.
 */
export function turnedWithin(box: Box, angle: number): Box {
  const t = (angle * Math.PI) / 180;
  const [c, s] = [Math.abs(Math.cos(t)), Math.abs(Math.sin(t))];
  const long = Math.max(box.w, box.h);
  const short = Math.min(box.w, box.h);
  let w: number;
  let h: number;
  if (short <= 2 * s * c * long || Math.abs(s - c) < 1e-9) {
    // A thin box (or a turn of 45°): the rectangle's corners touch both long sides.
    const x = short / 2;
    [w, h] = box.w >= box.h ? [x / s, x / c] : [x / c, x / s];
  } else {
    const c2 = c * c - s * s;
    [w, h] = [(box.w * c - box.h * s) / c2, (box.h * c - box.w * s) / c2];
  }
  return { x: box.x + (box.w - w) / 2, y: box.y + (box.h - h) / 2, w, h };
}

/** Lines a region needs before its width is set by most of them rather than by all. */
const BODY_LINES = 4;
/** Share of a region's lines that may stick out on either side of the width its text is set in. */
const BODY_QUANTILE = 0.25;

/**
 * The box a region's translation is set in: for horizontal text of several lines, as wide as most
 * of its lines (a speck or a scan's dark page edge read into one line's first word would otherwise
 * move the whole translation out to it); else the region's box.
 */
function bodyBox(r: TypesetRegion): Box {
  const lines = r.lines ?? [];
  if (r.vertical || lines.length < BODY_LINES) return r.box;
  const k = Math.floor(BODY_QUANTILE * (lines.length - 1));
  const x0 = Math.max(r.box.x, lines.map((l) => l.x).sort((a, b) => a - b)[k]!);
  const x1 = Math.min(r.box.x + r.box.w, lines.map((l) => l.x + l.w).sort((a, b) => b - a)[k]!);
  return x1 - x0 >= r.box.w / 2 ? { ...r.box, x: x0, w: x1 - x0 } : r.box;
}

/** Capitals' height over the em where a face does not give it: DejaVu Sans's 0.729. */
const CAP_SHARE = 0.729;

/**
 * Starting size: the user's or original's font size, else from the recognised lines, else from the
 * box; and, for lettering in capitals, the least it may shrink to.
 */
function targetSize(r: TypesetRegion, lead: Face): { size: number; least?: number } {
  const given = Number(r.style?.font_size);
  if (Number.isFinite(given) && given >= 4) return { size: given };
  // The original's lines run its way, which may not be the translation's (an English balloon set
  // in Japanese columns): their thickness is across their own direction.
  const lines = r.lines ?? [];
  const columns = lines.filter((l) => l.h > l.w).length > lines.length / 2;
  const hs = lines.map((l) => (columns ? l.w : l.h)).sort((a, b) => a - b);
  if (!hs.length) return { size: Math.min(r.vertical ? r.box.w : r.box.h, 48) / LINE_GAP };
  // Recognised line boxes run from ascender to descender: about one em. Lines lettered in capitals
  // run only as high as the capitals: the em starts where the lead face's capitals are that high, and
  // may shrink as far as lines of mixed case would (a face wider than the lettering needs it). A
  // translation without capitals (Japanese) is set at the line's em.
  const line = hs[hs.length >> 1]!;
  if (r.style?.lettering !== "caps" || !hasCase(r.text)) return { size: line };
  const caps = (lead.metrics.capHeight ?? CAP_SHARE * lead.metrics.unitsPerEm) / lead.metrics.unitsPerEm;
  return { size: line / caps, least: line * SHRINK };
}

/**
 * Draws each region's text into its box on the background (the clean plate): the font chain for
 * the weight and the style's family, the largest size up to the original's that fits, lines broken
 * for the script (in a balloon, to its shape), aligned and coloured as the original, none across an
 * edge of the background under the box. Reports per region whether it fitted, shrank, or still
 * overflows. Writes the rendered page as PNG.
 */
export async function typesetPage(env: { FILES: R2Bucket; MODELS: R2Bucket }, input: TypesetInput): Promise<TypesetResult> {
  const started = Date.now();
  for (const r of input.regions) {
    const script = unshapedScript(r.text);
    if (script) {
      throw engineError(
        "unsupported_language",
        `Typesetting cannot draw ${script} text: the renderer does not shape that script correctly. Export the text (txt, docx) instead of rendered pages.`,
      );
    }
  }
  const page = await loadRgba(env.FILES, input.backgroundKey, "background");
  const results: TypesetResult["regions"] = [];
  const frames = input.regions.map((r) => styleFrame(r.style));
  for (const [k, r] of input.regions.entries()) {
    // A picture's translation is set in its balloon's interior, centred; lettered in capitals as the original was.
    const framed = frameOf(
      r,
      frames.filter((f, j): f is Box => !!f && j !== k),
    );
    const m = framed?.margin ?? 0;
    const frame = framed && { x: framed.frame.x + m, y: framed.frame.y + m, w: framed.frame.w - 2 * m, h: framed.frame.h - 2 * m };
    // Text set at a turn (a balloon seen at a slant in a photo) is laid out upright in the largest
    // rectangle so turned that the frame or box holds, then turned about its centre.
    const turn = turnOf(r);
    const box = turn ? turnedWithin(frame ?? bodyBox(r), turn) : (frame ?? bodyBox(r));
    const text = asLettered(r.text.trim(), r.style?.lettering);
    if (!text) {
      results.push({ overflow: "fitted", fontSize: 0, lines: 0, fonts: [] });
      continue;
    }
    const w = r.style?.font_weight;
    const weight = w === "bold" || Number(w) >= 600 ? 700 : 400;
    const family = typeof r.style?.font_family === "string" ? r.style.font_family : undefined;
    const chain = await fontChain(env.MODELS, weight >= 600, family);
    const first = !frame && !turn && r.lines?.length ? Math.min(...r.lines.map((l) => l.y)) - r.box.y : null;
    // No line is drawn across a background edge under the box (horizontal text); a balloon is one ground.
    const edges = r.vertical || frame || turn ? [] : rowEdges(page, box);
    // Rows of a balloon are as wide as its interior there (an oval narrows to its top and bottom),
    // its columns as long; a turned balloon's rows are those of its turned interior.
    const shape = framed ? (turn ? turnedBalloonShape(page, box, m, turn) : balloonShape(page, framed.frame, m)) : undefined;
    const { size, least } = targetSize(r, chain[0]!);
    const { layout, overflow } = fitText(chain, text, box, size, !!r.vertical, { edges, start: first ?? 0, shape, least });
    const color = typeof r.style?.color === "string" && COLOR.test(r.style.color) ? r.style.color : "#000000";
    const align = frame ? "center" : r.style?.align === "center" || r.style?.align === "right" ? r.style.align : "left";
    const upright = regionSvg(chain, layout, box, { color, align, weight }, first);
    const { svg, x, y } = turn ? turnedSvg(upright.svg, upright.width, upright.height, turn) : { ...upright, x: 0, y: 0 };
    const used = chain.filter((f) => svg.includes(`font-family="${f.metrics.family}"`));
    await drawSvg(page, svg, used.length ? used : chain.slice(0, 1), box.x + x, box.y + y);
    results.push({ overflow, fontSize: layout.size, lines: layout.lines.length, fonts: used.map((f) => f.metrics.family) });
  }
  await writeObject(env.FILES, input.outKey, encodeRgba(page, "png"), "image/png");
  return { key: input.outKey, width: page.width, height: page.height, regions: results, ms: Date.now() - started };
}
