import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Box, PageText } from "../../workers/engine/contract";
import { MIN_BAND_LINES, planBands } from "../../workers/engine/page/split";
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

describe("a page read in bands (detect split → recognize band → detect bandTexts)", () => {
  it("reads the same lines, words and boxes as the page read whole", async () => {
    const lines = paragraphs(36);
    const pageKey = await preprocessed("long", lines);
    const languages = ["eng"];

    const whole = await env.ENGINE.detect({ pageKey, outKey: "work/split/whole-layout.json", languages });
    expect(whole.bands).toBeUndefined();
    await env.ENGINE.recognize({ pageKey, languages, outKey: "work/split/whole.json" });
    const wholeText = await pageText("work/split/whole.json");

    const plan = await env.ENGINE.detect({ pageKey, outKey: "work/split/layout.json", languages, split: 2 });
    expect(plan.languages).toEqual(languages);
    const bands = plan.bands!;
    expect(bands).toHaveLength(2);
    expect(bands[0]!.y).toBe(0);
    expect(bands[1]!.y).toBe(bands[0]!.y + bands[0]!.h);
    expect(bands[1]!.y + bands[1]!.h).toBe(wholeText.height);
    const bandTexts = bands.map((_, i) => `work/split/band-${i}.json`);
    const read = await Promise.all(bands.map((band, i) => env.ENGINE.recognize({ pageKey, languages, outKey: bandTexts[i]!, band })));
    // Each band holds whole lines, about half of them, inside its rows.
    for (const [i, r] of read.entries()) {
      const band = await pageText(r.key);
      const bandLines = band.regions.flatMap((g) => g.lines);
      expect(bandLines.length).toBeGreaterThanOrEqual(MIN_BAND_LINES);
      for (const l of bandLines) {
        expect(l.box.y).toBeGreaterThanOrEqual(bands[i]!.y);
        expect(l.box.y + l.box.h).toBeLessThanOrEqual(bands[i]!.y + bands[i]!.h);
      }
    }
    const joined = await env.ENGINE.detect({ pageKey, outKey: "work/split/layout.json", languages, bandTexts });
    expect(joined.bands).toBeUndefined();
    expect(joined.lines).toBe(whole.lines);
    expect(joined.regions).toBe(whole.regions);
    // recognize finds the joined reading kept beside the page image.
    const rec = await env.ENGINE.recognize({ pageKey, languages, outKey: "work/split/text.json" });
    const split = await pageText(rec.key);

    expect(lineTexts(split)).toEqual(lineTexts(wholeText));
    expect(split.text).toBe(wholeText.text);
    expect(characterErrorRate(lines.filter(Boolean).join(" "), split.text)).toBeLessThanOrEqual(0.02);
    const words = (p: PageText) => p.regions.flatMap((r) => r.lines.flatMap((l) => l.words));
    const [a, b] = [words(split), words(wholeText)];
    expect(a).toHaveLength(b.length);
    for (const [i, w] of a.entries()) {
      expect(w.text).toBe(b[i]!.text);
      // A band is binarised on its own histogram: a glyph's edge pixels may fall the other way,
      // so a box may move by a few pixels; it still covers the same word.
      expect(centredIn(w.box, b[i]!.box) && centredIn(b[i]!.box, w.box)).toBe(true);
    }
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

describe("planBands", () => {
  const line = (y: number, h = 20, w = 600) => ({ x: 50, y, w, h });

  it("cuts between lines at about half the characters, across a blank row", () => {
    const lines = Array.from({ length: 30 }, (_, i) => line(100 + i * 30));
    const bands = planBands(lines, 1200, 2)!;
    expect(bands).toEqual([
      { y: 0, h: 545 },
      { y: 545, h: 655 },
    ]);
  });

  it("divides a page of two bands' worth of lines, each band holding at least MIN_BAND_LINES", () => {
    const lines = Array.from({ length: 2 * MIN_BAND_LINES }, (_, i) => line(100 + i * 30));
    const bands = planBands(lines, 100 + 2 * MIN_BAND_LINES * 30 + 100, 4)!;
    expect(bands).toHaveLength(2);
    const cut = bands[1]!.y;
    expect(lines.filter((l) => l.y + l.h <= cut)).toHaveLength(MIN_BAND_LINES);
    expect(lines.filter((l) => l.y >= cut)).toHaveLength(MIN_BAND_LINES);
  });

  it("never cuts where a later line reaches above an earlier one (columns read one after the other)", () => {
    const left = Array.from({ length: 15 }, (_, i) => ({ ...line(100 + i * 30), x: 50, w: 300 }));
    const right = Array.from({ length: 15 }, (_, i) => ({ ...line(100 + i * 30), x: 400, w: 300 }));
    expect(planBands([...left, ...right], 1000, 2)).toBeNull();
  });

  it("keeps pages of fewer than two bands' worth of lines whole", () => {
    expect(
      planBands(
        Array.from({ length: 2 * MIN_BAND_LINES - 1 }, (_, i) => line(100 + i * 30)),
        1000,
        4,
      ),
    ).toBeNull();
    expect(
      planBands(
        Array.from({ length: 40 }, (_, i) => line(100 + i * 30)),
        1500,
        1,
      ),
    ).toBeNull();
  });
});
