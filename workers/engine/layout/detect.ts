import type { Box, LayoutLine, PageLayout, PageText } from "../../shared/engine-contract";
import type { OcrRaster } from "../ocr/page-raster";
import { toPageBox } from "../ocr/page-text";
import { withEngine } from "../ocr/recognize";
import { anyCachedEngine } from "../ocr/tesseract";
import { groupLines, unionBox } from "../ocr/group-lines";

const center = (b: Box) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
const contains = (b: Box, p: { x: number; y: number }) => p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h;

/** A tall line holding words stacked one under another: vertical (CJK) writing. */
function looksVertical(line: Box, words: Box[]): boolean {
  if (line.h < 2 * line.w || words.length < 2) return false;
  return words.every((w, i) => i === 0 || w.y >= words[i - 1]!.y + words[i - 1]!.h * 0.5);
}

const turned = (b: Box): Box => ({ x: b.y, y: -(b.x + b.w), w: b.h, h: b.w });

/** Lines (in reading order) grouped into blocks; runs of vertical lines are grouped column-wise. */
export function blocksOf(lines: LayoutLine[]): PageLayout["blocks"] {
  const runs: LayoutLine[][] = [];
  for (const l of lines) {
    const last = runs[runs.length - 1];
    if (last && last[0]!.vertical === l.vertical) last.push(l);
    else runs.push([l]);
  }
  return runs.flatMap((run) =>
    groupLines(run, (l) => (l.vertical ? turned(l.box) : l.box)).map((ls) => ({
      box: ls.slice(1).reduce((u, l) => unionBox(u, l.box), ls[0]!.box),
      lines: ls.map((l) => l.box),
      items: ls,
      vertical: ls[0]!.vertical,
    })),
  );
}

/**
 * Layout analysis only (no recognition): tesseract's line and word boxes, words assigned to the
 * line holding their centre, lines grouped into blocks. Any engine will do, since layout analysis
 * needs no model; if none is warm, the engine for `fallbackLanguage` is created so that the
 * following recognition finds it ready.
 */
export async function detectLayout(models: R2Bucket, raster: OcrRaster, fallbackLanguage: string): Promise<PageLayout> {
  const language = anyCachedEngine()?.language ?? fallbackLanguage;
  const { lineBoxes, wordBoxes } = await withEngine(models, language, raster, (engine) => {
    const page = (r: { left: number; top: number; right: number; bottom: number }) =>
      toPageBox(r, raster.scale, raster.width, raster.height);
    return {
      lineBoxes: engine
        .getBoundingBoxes("line")
        .map((i) => page(i.rect))
        .filter((b) => b.w > 0 && b.h > 0),
      wordBoxes: engine
        .getBoundingBoxes("word")
        .map((i) => page(i.rect))
        .filter((b) => b.w > 0 && b.h > 0),
    };
  });
  const words = new Map<number, Box[]>();
  for (const w of wordBoxes) {
    const i = lineBoxes.findIndex((l) => contains(l, center(w)));
    if (i >= 0) words.set(i, [...(words.get(i) ?? []), w]);
  }
  const lines: LayoutLine[] = lineBoxes.map((box, i) => {
    const ws = words.get(i) ?? [];
    return { box, words: ws, vertical: looksVertical(box, ws) };
  });
  return { width: raster.width, height: raster.height, blocks: blocksOf(lines), path: "ocr" };
}

/** The layout of a page read from its text layer (or any `PageText`): its regions are the blocks. */
export function layoutOfText(page: PageText): PageLayout {
  return {
    width: page.width,
    height: page.height,
    blocks: page.regions.map((r) => {
      const items = r.lines.map((l) => ({ box: l.box, words: l.words.map((w) => w.box), vertical: !!l.vertical }));
      return { box: r.box, lines: items.map((l) => l.box), items, vertical: !!r.vertical };
    }),
    path: page.path ?? "ocr",
  };
}
