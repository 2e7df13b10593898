import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Box, PageText } from "../../workers/shared/engine-contract";
import { MIN_BAND_LINES, planParts } from "../../workers/engine/page/split";
import { characterErrorRate, renderTextPng } from "../helpers/text-image";
import { failure, pageText } from "./helpers";

const WORDS = "the quick brown fox jumps over a lazy dog while five boxing wizards jump quickly past".split(" ");
/** Lines of plain text, each different, in paragraphs of 6 lines separated by a blank line. */
function paragraphs(count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % 6 === 0) out.push("");
    out.push(Array.from({ length: 8 }, (_, j) => WORDS[(i * 5 + j * 3) % WORDS.length]).join(" ") + ` ${i + 1}.`);
  }
  return out;
}

async function preprocessed(name: string, lines: string[]): Promise<string> {
  await env.FILES.put(`uploads/split/${name}.png`, await renderTextPng(lines, { fontSize: 28 }));
  return (await env.ENGINE.preprocess({ sourceKey: `uploads/split/${name}.png`, page: 0, outKey: `work/split/${name}.png` })).key;
}

/** Whether the centre of `a` lies inside `b`. */
const centredIn = (a: Box, b: Box) =>
  a.x + a.w / 2 >= b.x && a.x + a.w / 2 <= b.x + b.w && a.y + a.h / 2 >= b.y && a.y + a.h / 2 <= b.y + b.h;

const lineTexts = (p: PageText) => p.regions.flatMap((r) => r.lines.map((l) => l.text));

/** A page read whole (detect → recognize) and in parts (detect split → recognize each part → detect bandTexts → recognize). */
async function readBothWays(name: string, pageKey: string, split: number) {
  const languages = ["eng"];
  const whole = await env.ENGINE.detect({ pageKey, outKey: `work/split/${name}-whole-layout.json`, languages });
  expect(whole.bands).toBeUndefined();
  await env.ENGINE.recognize({ pageKey, languages, outKey: `work/split/${name}-whole.json` });
  const wholeText = await pageText(`work/split/${name}-whole.json`);

  const plan = await env.ENGINE.detect({ pageKey, outKey: `work/split/${name}-layout.json`, languages, split });
  expect(plan.languages).toEqual(languages);
  const bands = plan.bands!;
  expect(bands).toHaveLength(split);
  const bandTexts = bands.map((_, i) => `work/split/${name}-band-${i}.json`);
  const read = await Promise.all(bands.map((band, i) => env.ENGINE.recognize({ pageKey, languages, outKey: bandTexts[i]!, band })));
  const parts = await Promise.all(read.map((r) => pageText(r.key)));
  const joined = await env.ENGINE.detect({ pageKey, outKey: `work/split/${name}-layout.json`, languages, bandTexts });
  expect(joined.bands).toBeUndefined();
  expect(joined.lines).toBe(whole.lines);
  expect(joined.regions).toBe(whole.regions);
  // recognize finds the joined reading kept beside the page image.
  const rec = await env.ENGINE.recognize({ pageKey, languages, outKey: `work/split/${name}-text.json` });
  const splitText = await pageText(rec.key);
  expect(lineTexts(splitText)).toEqual(lineTexts(wholeText));
  expect(splitText.text).toBe(wholeText.text);
  const words = (p: PageText) => p.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
  const [a, b] = [words(splitText), words(wholeText)];
  expect(a).toHaveLength(b.length);
  for (const [i, w] of a.entries()) {
    expect(w.text).toBe(b[i]!.text);
    // A part is binarised on its own histogram: a glyph's edge pixels may fall the other way,
    // so a box may move by a few pixels; it still covers the same word.
    expect(centredIn(w.box, b[i]!.box) && centredIn(b[i]!.box, w.box)).toBe(true);
  }
  return { bands, parts, text: splitText };
}

describe("a page read in parts (detect split → recognize band → detect bandTexts)", { timeout: 240_000 }, () => {
  it("reads the same lines, words and boxes in bands as the page read whole", async () => {
    const lines = paragraphs(36);
    const pageKey = await preprocessed("long", lines);
    const { bands, parts, text } = await readBothWays("long", pageKey, 2);
    expect(bands[0]!.y).toBe(0);
    expect(bands[0]!.w).toBeUndefined();
    expect(bands[1]!.y).toBe(bands[0]!.y + bands[0]!.h);
    expect(bands[1]!.y + bands[1]!.h).toBe(text.height);
    // Each band holds whole lines, about half of them, inside its rows.
    for (const [i, band] of parts.entries()) {
      const bandLines = band.regions.flatMap((g) => g.lines);
      expect(bandLines.length).toBeGreaterThanOrEqual(MIN_BAND_LINES);
      for (const l of bandLines) {
        expect(l.box.y).toBeGreaterThanOrEqual(bands[i]!.y);
        expect(l.box.y + l.box.h).toBeLessThanOrEqual(bands[i]!.y + bands[i]!.h);
      }
    }
    expect(characterErrorRate(lines.filter(Boolean).join(" "), text.text)).toBeLessThanOrEqual(0.02);
  });

  it("reads a page of two columns in parts cut down the gutter, in the page's reading order", async () => {
    const lines = paragraphs(36).filter(Boolean);
    await env.FILES.put("uploads/split/columns.png", await renderTextPng(lines, { fontSize: 28, columns: 2 }));
    const pageKey = (await env.ENGINE.preprocess({ sourceKey: "uploads/split/columns.png", page: 0, outKey: "work/split/columns.png" }))
      .key;
    const { bands, parts, text } = await readBothWays("columns", pageKey, 2);
    // Side by side, each the page's full height, meeting in the gutter.
    expect(bands.map((b) => [b.y, b.h])).toEqual([
      [0, text.height],
      [0, text.height],
    ]);
    expect(bands[0]!.x).toBe(0);
    expect(bands[1]!.x).toBe(bands[0]!.x! + bands[0]!.w!);
    expect(bands[1]!.x! + bands[1]!.w!).toBe(text.width);
    // Each part reads one column: its lines, in order.
    expect(characterErrorRate(lines.slice(0, 18).join(" "), lineTexts(parts[0]!).join(" "))).toBeLessThanOrEqual(0.02);
    expect(characterErrorRate(lines.slice(18).join(" "), lineTexts(parts[1]!).join(" "))).toBeLessThanOrEqual(0.02);
    expect(characterErrorRate(lines.join(" "), text.text)).toBeLessThanOrEqual(0.02);
  });

  it("reads a page with few lines whole, in the same call", async () => {
    const pageKey = await preprocessed("short", paragraphs(2 * MIN_BAND_LINES - 1));
    const det = await env.ENGINE.detect({ pageKey, outKey: "work/split/short-layout.json", languages: ["eng"], split: 4 });
    expect(det.bands).toBeUndefined();
    expect(det.lines).toBe(2 * MIN_BAND_LINES - 1);
    const rec = await env.ENGINE.recognize({ pageKey, languages: ["eng"], outKey: "work/split/short.json" });
    expect(lineTexts(await pageText(rec.key))).toHaveLength(2 * MIN_BAND_LINES - 1);
  });

  it("refuses split without languages", async () => {
    const pageKey = await preprocessed("refused", paragraphs(2));
    const err = await failure(env.ENGINE.detect({ pageKey, outKey: "work/split/refused.json", split: 2 }));
    expect(err.code).toBe("validation_error");
  });
});

describe("planParts", () => {
  const line = (y: number, h = 20, w = 600) => ({ x: 50, y, w, h });
  const column = (x: number, count: number, w = 300) => Array.from({ length: count }, (_, i) => ({ x, y: 100 + i * 30, w, h: 20 }));

  it("cuts text read top to bottom into bands between lines at about half the characters, across a blank row", () => {
    const lines = Array.from({ length: 30 }, (_, i) => line(100 + i * 30));
    expect(planParts(lines, 800, 1200, 2)).toEqual([
      { y: 0, h: 545 },
      { y: 545, h: 655 },
    ]);
  });

  it("divides a page of two bands' worth of lines, each band holding at least MIN_BAND_LINES", () => {
    const lines = Array.from({ length: 2 * MIN_BAND_LINES }, (_, i) => line(100 + i * 30));
    const bands = planParts(lines, 800, 100 + 2 * MIN_BAND_LINES * 30 + 100, 4)!;
    expect(bands).toHaveLength(2);
    const cut = bands[1]!.y;
    expect(lines.filter((l) => l.y + l.h <= cut)).toHaveLength(MIN_BAND_LINES);
    expect(lines.filter((l) => l.y >= cut)).toHaveLength(MIN_BAND_LINES);
  });

  it("cuts down the gutter between columns read one after the other, each part the page's full height", () => {
    expect(planParts([...column(50, 15), ...column(400, 15)], 800, 1000, 2)).toEqual([
      { x: 0, w: 375, y: 0, h: 1000 },
      { x: 375, w: 425, y: 0, h: 1000 },
    ]);
  });

  it("cuts a column holding most of the page's text again, into bands of that column", () => {
    const narrow = column(700, 15, 40);
    const parts = planParts([...column(50, 30, 600), ...narrow], 800, 1000, 2)!;
    expect(parts).toEqual([
      { x: 0, w: 675, y: 0, h: 545 },
      { x: 0, w: 675, y: 545, h: 455 },
      { x: 675, w: 125, y: 0, h: 1000 },
    ]);
  });

  it("never cuts where a later line reaches across the gutter (a heading or a line run across columns)", () => {
    const heading = { x: 50, y: 600, w: 650, h: 30 };
    expect(planParts([...column(50, 15), ...column(400, 15), heading], 800, 1000, 2)).toBeNull();
    const joined = { x: 50, y: 100, w: 650, h: 20 };
    expect(planParts([joined, ...column(50, 14).slice(1), ...column(400, 15).slice(1)], 800, 1000, 2)).toBeNull();
  });

  it("keeps pages of fewer than two bands' worth of lines whole", () => {
    const few = Array.from({ length: 2 * MIN_BAND_LINES - 1 }, (_, i) => line(100 + i * 30));
    expect(planParts(few, 800, 1000, 4)).toBeNull();
    expect(planParts([...column(50, 15), ...column(400, MIN_BAND_LINES - 1)], 800, 1000, 2)).toBeNull();
    const many = Array.from({ length: 40 }, (_, i) => line(100 + i * 30));
    expect(planParts(many, 800, 1500, 1)).toBeNull();
  });
});
