import type { Box, LineText, PageText } from "../../shared/engine-contract";

const area = (b: Box) => Math.max(0, b.w) * Math.max(0, b.h);

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const i = w * h;
  return i / (area(a) + area(b) - i);
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * One reading of a page in several languages (eng+ara): tesseract-wasm holds one model per
 * engine, so the page is read once per language. The reading with the best mean confidence gives
 * the layout; each of its lines is replaced by the same line (boxes overlapping by half or more)
 * of another reading when that one is more confident, so every line is read in its own language.
 */
export function mergeReadings(readings: PageText[]): PageText {
  const base = readings.reduce((a, b) => (b.confidence > a.confidence ? b : a));
  const others = readings.filter((r) => r !== base).flatMap((r) => r.regions.flatMap((g) => g.lines));
  const better = (l: LineText): LineText => {
    let best = l;
    for (const o of others) if (overlap(o.box, l.box) >= 0.5 && o.confidence > best.confidence) best = o;
    return best;
  };
  const regions = base.regions.map((r) => {
    const lines = r.lines.map(better);
    return {
      ...r,
      lines,
      text: lines.map((l) => l.text).join("\n"),
      confidence: round3(mean(lines.flatMap((l) => l.words.map((w) => w.confidence)))),
    };
  });
  return {
    ...base,
    regions,
    text: regions.map((r) => r.text).join("\n\n"),
    confidence: round3(mean(regions.flatMap((r) => r.lines.flatMap((l) => l.words.map((w) => w.confidence))))),
  };
}
