import type { Box, LineText, PageText, RegionText } from "../../shared/engine-contract";
import { overlapArea, unionBox } from "./group-lines";
import { joinWords } from "./page-text";

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

const boxOf = (boxes: Box[]) => boxes.slice(1).reduce((u, b) => unionBox(u, b), boxes[0]!);

/**
 * A scanned page that also carries real (visible) text: the page's OCR plus its text-layer words.
 * OCR words lying mostly (over half their area) on a text-layer word are dropped (the layer's text
 * is exact). The OCR keeps its reading order; each layer region goes before the first OCR region
 * that starts below it.
 */
export function mergeTextLayer(ocr: PageText, layer: PageText): PageText {
  const layerWords = layer.regions.flatMap((r) => r.lines.flatMap((l) => l.words.map((w) => w.box)));
  const covered = (b: Box) => layerWords.some((lw) => overlapArea(b, lw) > 0.5 * b.w * b.h);
  const trimLine = (l: LineText): LineText | null => {
    const words = l.words.filter((w) => !covered(w.box));
    if (words.length === l.words.length) return l;
    return words.length ? { ...l, words, text: joinWords(words.map((w) => w.text)), box: boxOf(words.map((w) => w.box)) } : null;
  };
  const regions: RegionText[] = ocr.regions.flatMap((r) => {
    const lines = r.lines.map(trimLine).filter((l): l is LineText => l !== null);
    if (lines.length === r.lines.length && lines.every((l, i) => l === r.lines[i])) return [r];
    return lines.length ? [{ ...r, lines, text: lines.map((l) => l.text).join("\n"), box: boxOf(lines.map((l) => l.box)) }] : [];
  });
  for (const lr of layer.regions) {
    const at = regions.findIndex((r) => r.box.y > lr.box.y);
    regions.splice(at < 0 ? regions.length : at, 0, lr);
  }
  const words = regions.flatMap((r) => r.lines.flatMap((l) => l.words.map((w) => w.confidence)));
  return { ...ocr, regions, text: regions.map((r) => r.text).join("\n\n"), confidence: Math.round(mean(words) * 1000) / 1000 };
}
