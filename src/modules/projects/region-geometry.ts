import type { RegionLine } from "../../db/schema/types";

/** Axis-aligned box in page pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A half-open character range [start, end) of a region's text. */
export interface Span {
  start: number;
  end: number;
}

export function unionBox(boxes: Box[]): Box {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.w));
  const y1 = Math.max(...boxes.map((b) => b.y + b.h));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

function center(b: Box) {
  return { cx: b.x + b.w / 2, cy: b.y + b.h / 2 };
}

function contains(b: Box, x: number, y: number): boolean {
  return x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
}

/** The text's lines as character ranges (without the newline). */
export function lineSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  for (const line of text.split("\n")) {
    spans.push({ start, end: start + line.length });
    start += line.length + 1;
  }
  return spans;
}

/**
 * One box per text line: the recognised line boxes when they match the text's lines one to one,
 * otherwise the region divided into equal bands (rows for horizontal text, columns right to left
 * for vertical text).
 */
export function lineBoxes(box: Box, lines: RegionLine[] | null, count: number, vertical: boolean): Box[] {
  if (lines && lines.length === count) return lines.map((l) => ({ x: l.x, y: l.y, w: l.w, h: l.h }));
  return Array.from({ length: count }, (_, i) => {
    if (vertical) {
      const right = box.x + box.w - (box.w * i) / count;
      const left = box.x + box.w - (box.w * (i + 1)) / count;
      return { x: left, y: box.y, w: right - left, h: box.h };
    }
    const top = box.y + (box.h * i) / count;
    return { x: box.x, y: top, w: box.w, h: (box.h * (i + 1)) / count - (box.h * i) / count };
  });
}

/** Rounds a box to whole pixels, at least 1×1. */
function pixelBox(b: Box): Box {
  const x = Math.floor(b.x);
  const y = Math.floor(b.y);
  return { x, y, w: Math.max(1, Math.ceil(b.x + b.w) - x), h: Math.max(1, Math.ceil(b.y + b.h) - y) };
}

/**
 * The box covering a character range: on each line it touches, the part of the line box
 * proportional to the characters covered (along x, or along y for vertical text).
 */
export function spanBox(span: Span, spans: Span[], boxes: Box[], vertical: boolean): Box {
  const parts: Box[] = [];
  spans.forEach((ls, i) => {
    const a = Math.max(span.start, ls.start);
    const b = Math.min(span.end, ls.end);
    const len = ls.end - ls.start;
    if (b <= a || len === 0) return;
    const lb = boxes[i]!;
    const f0 = (a - ls.start) / len;
    const f1 = (b - ls.start) / len;
    parts.push(
      vertical
        ? { x: lb.x, y: lb.y + lb.h * f0, w: lb.w, h: lb.h * (f1 - f0) }
        : { x: lb.x + lb.w * f0, y: lb.y, w: lb.w * (f1 - f0), h: lb.h },
    );
  });
  return pixelBox(parts.length ? unionBox(parts) : boxes[0]!);
}

/** Narrows a range to exclude surrounding whitespace; null when nothing is left. */
export function trimSpan(text: string, s: Span): Span | null {
  let { start, end } = s;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return end > start ? { start, end } : null;
}

/** The character offset nearest to a point: the line under (or nearest to) it, then the position along it. */
export function offsetAtPoint(px: number, py: number, spans: Span[], boxes: Box[], vertical: boolean): number {
  let best = 0;
  let bestDist = Infinity;
  boxes.forEach((b, i) => {
    const { cx, cy } = center(b);
    const dist = contains(b, px, py) ? -1 : vertical ? Math.abs(px - cx) : Math.abs(py - cy);
    if (dist < bestDist) {
      bestDist = dist;
      best = i;
    }
  });
  const ls = spans[best]!;
  const lb = boxes[best]!;
  const f = vertical ? (py - lb.y) / lb.h : (px - lb.x) / lb.w;
  return ls.start + Math.round(Math.min(1, Math.max(0, f)) * (ls.end - ls.start));
}

/** The recognised lines (and words) whose centres fall inside a box; a line cut in two keeps its words on each side. */
export function linesWithin(lines: RegionLine[], box: Box): RegionLine[] {
  const out: RegionLine[] = [];
  for (const line of lines) {
    if (line.words?.length) {
      const words = line.words.filter((w) => {
        const { cx, cy } = center(w);
        return contains(box, cx, cy);
      });
      if (words.length) out.push({ ...unionBox(words), text: words.map((w) => w.text).join(" "), confidence: line.confidence, words });
    } else {
      const { cx, cy } = center(line);
      if (contains(box, cx, cy)) out.push(line);
    }
  }
  return out;
}
