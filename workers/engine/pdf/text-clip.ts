import { OPS } from "pdfjs-dist";
import { apply, clipPath, insideClip, type ClipPath } from "./clip-mask";
import type { PdfTextItem } from "./document";
import { mul, type Matrix } from "./matrix";

/** A text run (one show-text operation) drawn while a clip was in force: its device box and whether the clip shows it. */
interface ClippedRun {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  visible: boolean;
}

type Ops = { fnArray: number[]; argsArray: unknown[] };
type Glyph = { width?: number; isSpace?: boolean } | number;

const SHOWS = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);
/** Where in a line of text its middle lies, in ems above the baseline. */
const MID_EM = 0.35;

/**
 * Every text run the page shows under a clipping path, in the device space of `viewport` (the
 * transform the page's text items are placed with), and whether the clip leaves its middle
 * visible. pdf.js's text content ignores clipping: a run a viewer hides is still listed there.
 * Glyph advances assume the common 1/1000 font matrix: the runs only serve to find the items.
 */
function clippedRuns(ops: Ops, viewport: Matrix): ClippedRun[] {
  const runs: ClippedRun[] = [];
  let ctm = viewport;
  let clips: readonly ClipPath[] = [];
  let pending: boolean | null = null;
  let tm: Matrix = [1, 0, 0, 1, 0, 0];
  let tlm: Matrix = tm;
  let size = 1,
    leading = 0,
    charSpacing = 0,
    wordSpacing = 0,
    hScale = 1,
    rise = 0;
  const stack: { ctm: Matrix; clips: readonly ClipPath[] }[] = [];
  const nextLine = (tx: number, ty: number) => {
    tlm = mul(tlm, [1, 0, 0, 1, tx, ty]);
    tm = tlm;
  };
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i]!;
    const args = (ops.argsArray[i] ?? []) as unknown[];
    if (fn === OPS.save || fn === OPS.paintFormXObjectBegin) {
      stack.push({ ctm, clips });
      if (fn === OPS.paintFormXObjectBegin && (Array.isArray(args[0]) || ArrayBuffer.isView(args[0])))
        ctm = mul(ctm, Array.from(args[0] as ArrayLike<number>));
    } else if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd) ({ ctm, clips } = stack.pop() ?? { ctm, clips });
    else if (fn === OPS.transform) ctm = mul(ctm, args as number[]);
    else if (fn === OPS.clip) pending = false;
    else if (fn === OPS.eoClip) pending = true;
    else if (fn === OPS.constructPath) {
      const data = (args[1] as ArrayLike<number>[] | undefined)?.[0];
      if (pending !== null && data) clips = [...clips, clipPath(data, ctm, pending)];
      pending = null;
    } else if (fn === OPS.beginText) tm = tlm = [1, 0, 0, 1, 0, 0];
    else if (fn === OPS.setFont) size = Number(args[1]) || 1;
    else if (fn === OPS.setTextMatrix) {
      // pdf.js passes the matrix as one argument (older versions: six).
      const m = Array.isArray(args[0]) || ArrayBuffer.isView(args[0]) ? (args[0] as ArrayLike<number>) : (args as ArrayLike<number>);
      tm = tlm = Array.from(m).slice(0, 6);
    } else if (fn === OPS.moveText) nextLine(Number(args[0]), Number(args[1]));
    else if (fn === OPS.setLeadingMoveText) {
      leading = -Number(args[1]);
      nextLine(Number(args[0]), Number(args[1]));
    } else if (fn === OPS.nextLine) nextLine(0, -leading);
    else if (fn === OPS.setLeading) leading = Number(args[0]);
    else if (fn === OPS.setCharSpacing) charSpacing = Number(args[0]);
    else if (fn === OPS.setWordSpacing) wordSpacing = Number(args[0]);
    else if (fn === OPS.setHScale) hScale = Number(args[0]) / 100;
    else if (fn === OPS.setTextRise) rise = Number(args[0]);
    else if (SHOWS.has(fn)) {
      let advance = 0;
      for (const g of (args[0] ?? []) as Glyph[])
        advance +=
          typeof g === "number"
            ? (-g / 1000) * size * hScale
            : (((g.width ?? 0) / 1000) * size + charSpacing + (g.isSpace ? wordSpacing : 0)) * hScale;
      if (clips.length > 0) {
        const m = mul(ctm, tm);
        const corners = [apply(m, 0, rise), apply(m, advance, rise), apply(m, 0, rise + size), apply(m, advance, rise + size)];
        // A run is hidden only when both its start and its middle are: a wrong advance (fonts with
        // another matrix) then keeps text rather than dropping it.
        const probes = [apply(m, 0, rise + MID_EM * size), apply(m, advance / 2, rise + MID_EM * size)];
        runs.push({
          x0: Math.min(...corners.map((p) => p.x)),
          x1: Math.max(...corners.map((p) => p.x)),
          y0: Math.min(...corners.map((p) => p.y)),
          y1: Math.max(...corners.map((p) => p.y)),
          visible: probes.some((p) => clips.every((c) => insideClip(c, p))),
        });
      }
      tm = mul(tm, [1, 0, 0, 1, advance, 0]);
    }
  }
  return runs;
}

/**
 * The text items a viewer shows: those whose middle lies in a run that a clipping path hides
 * (and in no run it shows) are left out. Items outside any clipped run are kept as they are.
 */
export function visibleTextItems(items: PdfTextItem[], ops: Ops, viewport: Matrix): PdfTextItem[] {
  const runs = clippedRuns(ops, viewport);
  if (!runs.some((r) => !r.visible)) return items;
  return items.filter((item) => {
    const t = mul(viewport, item.transform);
    const em = Math.hypot(item.transform[0]!, item.transform[1]!) || 1;
    const mid = apply(t, item.width / em / 2, MID_EM);
    const holding = runs.filter((r) => mid.x >= r.x0 - 1 && mid.x <= r.x1 + 1 && mid.y >= r.y0 - 1 && mid.y <= r.y1 + 1);
    return holding.length === 0 || holding.some((r) => r.visible);
  });
}
