import { OPS } from "pdfjs-dist";
import type { Box } from "../../shared/engine-contract";
import { unionBox } from "../ocr/group-lines";
import type { PdfPageProxy } from "./document";
import { apply, CLOSE, CURVE, LINE, MOVE, QUAD } from "./clip-mask";
import { mul, type Matrix } from "./matrix";

/** Filled rectangles thinner than this (points) are rules; thicker ones are shading. */
const RULE_MAX_PT = 3;

/** What a page draws with vector paths, in raster coordinates. */
export interface DrawnMarks {
  /** Straight horizontal and vertical lines: strokes, rectangle outlines, thin filled rectangles. */
  rules: Box[];
  /**
   * Areas drawn as pictures (charts, diagrams): clusters of slanted strokes, curves and filled
   * shapes other than rectangles, large enough to hold a few lines of text.
   */
  figures: Box[];
}

/** Figure marks closer than this (points) belong to one figure. */
const FIGURE_GAP_PT = 10;
/**
 * A figure is at least this long (points) on both sides, or on one side when drawn with several
 * marks (a chart's nearly flat series); smaller ones are ornaments: rounded corners, arrow heads,
 * bullets.
 */
const FIGURE_MIN_PT = 36;
const SERIES_MARKS = 3;

const near = (a: Box, b: Box, gap: number) =>
  a.x - gap <= b.x + b.w && b.x - gap <= a.x + a.w && a.y - gap <= b.y + b.h && b.y - gap <= a.y + a.h;

/** Connected groups of boxes (two are connected when within `gap` of each other), each as its union and its number of boxes. */
function clusters(boxes: Box[], gap: number): { box: Box; n: number }[] {
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]!.x - boxes[b]!.x);
  const parent = boxes.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (let a = 0; a < order.length; a++) {
    const p = boxes[order[a]!]!;
    for (let b = a + 1; b < order.length && boxes[order[b]!]!.x - gap <= p.x + p.w; b++) {
      if (near(p, boxes[order[b]!]!, gap)) parent[root(order[b]!)] = root(order[a]!);
    }
  }
  const groups = new Map<number, { box: Box; n: number }>();
  boxes.forEach((b, i) => {
    const r = root(i);
    const u = groups.get(r);
    groups.set(r, u ? { box: unionBox(u.box, b), n: u.n + 1 } : { box: b, n: 1 });
  });
  return [...groups.values()];
}

/**
 * The lines and pictures a PDF page draws, in raster coordinates (`viewport` maps user space to
 * the raster). Rules: stroked segments and rectangle outlines (as thick as the line width) and
 * thin filled rectangles (rules drawn as fills); larger rectangular fills are shading, often
 * behind single lines of text, so they separate nothing. Figures: what no table draws — slanted
 * strokes (chart lines, arrows), curves (pies, smoothed series) and filled polygons (areas,
 * slices) — grouped by proximity.
 */
export async function drawnMarks(page: PdfPageProxy, viewport: Matrix, width: number, height: number): Promise<DrawnMarks> {
  const list = await page.getOperatorList();
  const scale = Math.hypot(viewport[0]!, viewport[1]!);
  const rules: Box[] = [];
  const marks: Box[] = [];
  const boxOf = (ps: { x: number; y: number }[]): Box => {
    const xs = ps.map((p) => p.x);
    const ys = ps.map((p) => p.y);
    return { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
  };
  const stack: { ctm: Matrix; lineWidth: number }[] = [];
  let ctm: Matrix = viewport;
  let lineWidth = 1;
  const push = (b: Box) => {
    if (b.x + b.w < 0 || b.y + b.h < 0 || b.x > width || b.y > height) return;
    rules.push({ x: Math.round(b.x * 10) / 10, y: Math.round(b.y * 10) / 10, w: Math.round(b.w * 10) / 10, h: Math.round(b.h * 10) / 10 });
  };
  const segment = (p: { x: number; y: number }, q: { x: number; y: number }, thick: number) => {
    const dx = Math.abs(p.x - q.x);
    const dy = Math.abs(p.y - q.y);
    if (dy <= 0.5 && dx > dy) push({ x: Math.min(p.x, q.x), y: (p.y + q.y) / 2 - thick / 2, w: dx, h: thick });
    else if (dx <= 0.5 && dy > dx) push({ x: (p.x + q.x) / 2 - thick / 2, y: Math.min(p.y, q.y), w: thick, h: dy });
    else if (dx > 0.5 && dy > 0.5) marks.push(boxOf([p, q]));
  };
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push({ ctm, lineWidth });
    else if (fn === OPS.restore) ({ ctm, lineWidth } = stack.pop() ?? { ctm, lineWidth });
    else if (fn === OPS.transform) ctm = mul(ctm, args as Matrix);
    else if (fn === OPS.setLineWidth) lineWidth = Number(args[0]) || 0;
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push({ ctm, lineWidth });
      if (Array.isArray(args[0]) || ArrayBuffer.isView(args[0])) ctm = mul(ctm, Array.from(args[0] as ArrayLike<number>));
    } else if (fn === OPS.paintFormXObjectEnd) ({ ctm, lineWidth } = stack.pop() ?? { ctm, lineWidth });
    else if (fn === OPS.constructPath) {
      const paint = args[0] as number;
      const stroke =
        paint === OPS.stroke ||
        paint === OPS.closeStroke ||
        paint === OPS.fillStroke ||
        paint === OPS.eoFillStroke ||
        paint === OPS.closeFillStroke ||
        paint === OPS.closeEOFillStroke;
      const fill =
        paint === OPS.fill ||
        paint === OPS.eoFill ||
        paint === OPS.fillStroke ||
        paint === OPS.eoFillStroke ||
        paint === OPS.closeFillStroke ||
        paint === OPS.closeEOFillStroke;
      if (!stroke && !fill) continue;
      const data = (args[1] as ArrayLike<number>[] | undefined)?.[0];
      if (!data) continue;
      // Scale of the current transform, for line widths.
      const unit = Math.sqrt(Math.abs(ctm[0]! * ctm[3]! - ctm[1]! * ctm[2]!)) || scale;
      const thick = Math.max(unit * lineWidth, 0.5);
      const subpaths: { x: number; y: number }[][] = [];
      // Curves: their end and control points (the curve lies within their hull).
      const curves: { x: number; y: number }[] = [];
      for (let k = 0; k < data.length;) {
        const op = data[k++]!;
        if (op === MOVE) (subpaths.push([apply(ctm, data[k]!, data[k + 1]!)]), (k += 2));
        else if (op === LINE) (subpaths[subpaths.length - 1]?.push(apply(ctm, data[k]!, data[k + 1]!)), (k += 2));
        else if (op === CURVE || op === QUAD) {
          const n = op === CURVE ? 6 : 4;
          const last = subpaths[subpaths.length - 1]?.at(-1);
          if (last) curves.push(last);
          for (let c = 0; c < n; c += 2) curves.push(apply(ctm, data[k + c]!, data[k + c + 1]!));
          k += n;
        } else if (op === CLOSE) {
          const sp = subpaths[subpaths.length - 1];
          if (sp?.length) sp.push({ ...sp[0]! });
        } else break;
      }
      if (curves.length) {
        marks.push(boxOf(curves));
        continue;
      }
      for (const sp of subpaths) {
        const box = boxOf(sp);
        const rectLike =
          sp.length >= 4 && sp.every((p, k) => k === 0 || Math.abs(p.x - sp[k - 1]!.x) <= 0.5 || Math.abs(p.y - sp[k - 1]!.y) <= 0.5);
        if (fill && rectLike && Math.min(box.w, box.h) <= RULE_MAX_PT * scale) push(box);
        else if (fill && !rectLike && sp.length >= 3) marks.push(box);
        if (stroke) for (let k = 1; k < sp.length; k++) segment(sp[k - 1]!, sp[k]!, thick);
      }
    }
  }
  const min = FIGURE_MIN_PT * scale;
  const figures = clusters(marks, FIGURE_GAP_PT * scale)
    .filter(({ box: b, n }) => Math.max(b.w, b.h) >= min && (Math.min(b.w, b.h) >= min || n >= SERIES_MARKS))
    .map((c) => c.box)
    .filter((b) => b.x < width && b.y < height && b.x + b.w > 0 && b.y + b.h > 0);
  return { rules, figures };
}
