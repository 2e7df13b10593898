import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodePngToGray } from "../../workers/engine/image/png";
import { layoutGaps, readLayoutGaps, readWithGaps } from "../../workers/engine/ocr/layout-gaps";
import { ocrRasterFromGray } from "../../workers/engine/ocr/page-raster";
import { recognizeWith } from "../../workers/engine/ocr/recognize";
import { renderTextPng } from "../helpers/text-image";
import { characterErrorRate } from "./cer";
import { NO_MODELS, put, readPage, realFixture, realText } from "./helpers";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

// OCR of a 2550x3300 scan takes seconds alone and far longer on a busy machine: generous timeouts.
describe("text the page layout leaves out is read again as blocks of its own", { timeout: 300_000 }, () => {
  it("reads the columns of a boxed results table beside a picture (camelot's image.pdf)", async () => {
    const key = await put("uploads/gaps/camelot_image.pdf", realFixture("camelot_image.pdf"));
    const { pre, text } = await readPage("camelot_image.pdf", key, 0, ["eng"]);
    expect(pre.path).toBe("ocr");
    // The table's first and third columns (row names, BMD) and its headings, which tesseract's
    // automatic layout drops on this page; native tesseract reads them on a 300 dpi rendering.
    const words = new Set(text.text.split(/\s+/));
    const expected = ["Region", "Area", "Arm", "Ribs", "Spine", "Pelvis", "197.82", "211.89", "143.14", "0.807", "0.801", "0.689", "0.715"];
    expect(
      expected.filter((w) => !words.has(w)),
      text.text,
    ).toEqual([]);
    // Added in reading order: the row names come before the values read below them.
    expect(text.text.indexOf("L Arm")).toBeLessThan(text.text.indexOf("Subtotal"));
    // What the page's own reading found is kept.
    expect(text.text).toContain("DXA Results Summary:");
    expect(text.text).toContain("Total BMD CV 1.0%, ACF = 1.033, BCF = 0.999");
  });

  it("finds no gap on a page of plain text that the layout reads whole (OCRmyPDF's linn.pdf)", async () => {
    const key = await put("uploads/gaps/linn.pdf", realFixture("ocrmypdf_linn.pdf"));
    const { pre, text } = await readPage("linn.pdf", key, 0, ["eng"]);
    expect(characterErrorRate(realText("ocrmypdf_linn.txt"), text.text)).toBeLessThan(0.05);
    const gray = (await decodePngToGray(new Uint8Array(await (await env.FILES.get(pre.key))!.arrayBuffer())))!;
    const lines = text.regions.flatMap((r) => r.lines);
    const words = lines.flatMap((l) => l.words.map((w) => w.box));
    expect(layoutGaps(gray, words, median(lines.map((l) => l.box.h)))).toEqual([]);
    // The same page with its words missing from the reading: their ink is found as areas to read.
    expect(layoutGaps(gray, words.slice(words.length >> 1), median(lines.map((l) => l.box.h))).length).toBeGreaterThan(0);
  });

  it("does not read a word twice when its line's reading boxes it away from its ink", async () => {
    const png = await renderTextPng(["As explained in chapter twelve, the file of macros", "is not loaded by default and its macros stay"]);
    const gray = (await decodePngToGray(png))!;
    const page = await readWithGaps(env.MODELS, gray, ["eng"]);
    const count = (text: string) => text.split(/\s+/).filter((w) => w === "twelve,").length;
    expect(count(page.text)).toBe(1);
    // tesseract can give a word a box of a few pixels beside its ink (a light gray link on a real
    // page): its ink is then a gap, read again, but the word is already in that line.
    const line = page.regions[0]!.lines[0]!;
    const word = line.words.find((w) => w.text === "twelve,")!;
    const moved = { ...word, box: { x: word.box.x + word.box.w + 2, y: word.box.y + word.box.h, w: 2, h: 2 } };
    const misboxed = {
      ...page,
      regions: page.regions.map((r) => ({
        ...r,
        lines: r.lines.map((l) => (l === line ? { ...l, words: l.words.map((w) => (w === word ? moved : w)) } : l)),
      })),
    };
    const words = misboxed.regions.flatMap((r) => r.lines.flatMap((l) => l.words.map((w) => w.box)));
    expect(layoutGaps(gray, words, line.box.h).length).toBeGreaterThan(0);
    expect(count((await readLayoutGaps(env.MODELS, gray, misboxed, ["eng"])).text)).toBe(1);
  });
});

describe("readings without inverted re-readings", () => {
  it("a gap's reading does not try a line's inverted image: white text on black is read only with inversion", async () => {
    const png = await renderTextPng(["White letters on a black ground"], { fontSize: 32 });
    const gray = (await decodePngToGray(png))!;
    const inverted = { ...gray, data: gray.data.map((v) => 255 - v) };
    const raster = ocrRasterFromGray(inverted);
    const withInversion = await recognizeWith(env.MODELS, raster, ["eng"], "block");
    const without = await recognizeWith(env.MODELS, raster, ["eng"], "block", { invert: false });
    expect(characterErrorRate("White letters on a black ground", withInversion.regions.map((r) => r.text).join(" "))).toBeLessThan(0.1);
    expect(without.regions.map((r) => r.text).join(" ")).not.toContain("letters");
  });
});

describe("a blank page is not read", () => {
  it("answers an empty reading of a white page without a model, and reads a page with ink", async () => {
    const white = { width: 2480, height: 3508, data: new Uint8Array(2480 * 3508).fill(255) };
    const blank = await readWithGaps(NO_MODELS, white, ["nld"]);
    expect(blank).toMatchObject({ width: 2480, height: 3508, text: "", regions: [], languages: ["nld"], path: "ocr" });
    // One short word on the same page is ink to read: the reading is attempted (and fails here without a model).
    const word = (await decodePngToGray(await renderTextPng(["Ja"], { fontSize: 40 })))!;
    for (let y = 0; y < word.height; y++)
      white.data.set(word.data.subarray(y * word.width, (y + 1) * word.width), (1500 + y) * 2480 + 1000);
    await expect(readWithGaps(NO_MODELS, white, ["nld"])).rejects.toThrow();
  });
});

describe("gap areas are rows of text", () => {
  /** A white page with letter-sized dark marks (20 x 30 px) at the given top-left corners. */
  function marksPage(corners: [number, number][]) {
    const page = { width: 1200, height: 800, data: new Uint8Array(1200 * 800).fill(255) };
    for (const [x0, y0] of corners) for (let y = y0; y < y0 + 30; y++) page.data.fill(0, y * 1200 + x0, y * 1200 + x0 + 20);
    return page;
  }

  it("reads marks lying in rows, and not marks stepping down a slant (a chart's slanted axis labels)", () => {
    const rows = Array.from({ length: 30 }, (_, i): [number, number] => [100 + (i % 10) * 30, 100 + Math.floor(i / 10) * 60]);
    expect(layoutGaps(marksPage(rows), [], 40)).toHaveLength(3);
    const slant = Array.from({ length: 20 }, (_, i): [number, number] => [100 + i * 30, 100 + i * 12]);
    expect(layoutGaps(marksPage(slant), [], 40)).toEqual([]);
  });
});
