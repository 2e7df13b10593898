import type { Box } from "../../shared/engine-contract";

export function unionBox(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/** Whether two boxes overlap (share some area). */
export const boxesMeet = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Area shared by two boxes (0 when they do not overlap). */
export function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/**
 * Groups lines (in tesseract's reading order, which runs block by block) into regions.
 * A line continues the current region when it sits just below the previous line, overlaps
 * the region horizontally and has a similar height. A jump upwards (next column), sideways,
 * a change of text size (heading), or a vertical gap clearly wider than the usual line gap
 * (a blank line between paragraphs) starts a new region.
 */
export function groupLines<T>(lines: T[], boxOf: (line: T) => Box): T[][] {
  const boxes = lines.map(boxOf);
  const lineHeight = median(boxes.map((b) => b.h)) || 1;
  const gaps: number[] = [];
  for (let i = 1; i < boxes.length; i++) {
    const gap = boxes[i]!.y - (boxes[i - 1]!.y + boxes[i - 1]!.h);
    if (gap >= 0 && gap < 3 * lineHeight) gaps.push(gap);
  }
  const maxGap = Math.max(0.8 * lineHeight, 1.6 * median(gaps));
  const groups: T[][] = [];
  let cur: T[] | null = null;
  let curBox: Box | null = null;
  boxes.forEach((box, i) => {
    const line = lines[i]!;
    if (cur && curBox) {
      const prev = boxes[i - 1]!;
      const gap = box.y - (prev.y + prev.h);
      const overlap = Math.min(box.x + box.w, curBox.x + curBox.w) - Math.max(box.x, curBox.x);
      const narrower = Math.min(box.w, curBox.w) || 1;
      const similarSize = box.h <= 1.6 * prev.h && prev.h <= 1.6 * box.h; // a heading starts its own region
      if (gap >= -0.5 * lineHeight && gap <= maxGap && overlap / narrower >= 0.3 && similarSize) {
        cur.push(line);
        curBox = unionBox(curBox, box);
        return;
      }
    }
    cur = [line];
    curBox = { ...box };
    groups.push(cur);
  });
  return groups;
}

export interface LayoutBlock {
  box: Box;
  lines: Box[];
}
