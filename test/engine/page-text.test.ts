import { describe, expect, it } from "vitest";
import type { Box, LineText } from "../../workers/shared/engine-contract";
import { pageOfLines } from "../../workers/engine/ocr/page-text";

const line = (x: number, y: number, w: number, h: number, text: string): LineText => ({
  box: { x, y, w, h },
  text,
  confidence: 0.9,
  words: [{ box: { x, y, w, h }, text, confidence: 0.9 }],
});
const page = (lines: LineText[]) => pageOfLines(lines, { width: 800, height: 1000, languages: ["eng"] });
const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
const lineOverlap = (a: LineText[], b: LineText[]) => a.some((p) => b.some((q) => overlap(p.box, q.box) > 0));

describe("paragraphs of a page", () => {
  it("are one where a drop cap's lines were read apart from the column they open", () => {
    // As tesseract read the opening of a story: the drop cap J's line, tall, read apart from the
    // line beside its top and from a word beside its foot, then the column.
    const column = [0, 1, 2, 3, 4, 5].map((k) => line(k < 2 ? 66 : 26, 411 + 19 * k, k < 2 ? 199 : 239, 16, `line ${k}`));
    const p = page([
      line(61, 366, 209, 23, "UDY of the Jungle and"),
      line(25, 377, 240, 65, "J Pistol Roberts were find."),
      line(26, 430, 25, 13, "the"),
      ...column,
    ]);
    expect(p.regions).toHaveLength(1);
    // Down the page; the word read apart comes before the line it starts ("the area of …").
    expect(p.regions[0]!.lines.map((l) => l.text)).toEqual([
      "UDY of the Jungle and",
      "J Pistol Roberts were find.",
      "line 0",
      "the",
      "line 1",
      "line 2",
      "line 3",
      "line 4",
      "line 5",
    ]);
  });

  it("stay apart where only their boxes overlap: two columns, one ending in a line as wide as both", () => {
    const left = [0, 1, 2, 3, 4].map((k) => line(20, 20 + 20 * k, 250, 16, `left ${k}`));
    const right = [0, 1, 2, 3, 4].map((k) => line(320, 20 + 20 * k, 250, 16, `right ${k}`));
    const p = page([...left, ...right, line(20, 122, 550, 16, "as wide as both")]);
    expect(p.regions.map((r) => r.lines.map((l) => l.text))).toEqual([
      ["left 0", "left 1", "left 2", "left 3", "left 4"],
      ["right 0", "right 1", "right 2", "right 3", "right 4", "as wide as both"],
    ]);
  });

  it("keep a balloon's lines in their order when one line's box runs into the next", () => {
    const p = page([
      line(403, 942, 178, 20, "THE BLACK TERROR"),
      line(405, 950, 170, 20, "WHAT A MAN! BOB"),
      line(405, 970, 155, 20, "DOESN'T HE MAKE"),
      line(400, 972, 140, 32, "YOU ENVIOUS?"),
    ]);
    expect(p.regions.flatMap((r) => r.lines.map((l) => l.text))).toEqual([
      "THE BLACK TERROR",
      "WHAT A MAN! BOB",
      "DOESN'T HE MAKE",
      "YOU ENVIOUS?",
    ]);
  });

  it("never have lines drawn over each other's", () => {
    const p = page([line(100, 100, 300, 20, "a line"), line(100, 124, 300, 20, "under it"), line(120, 104, 60, 14, "x")]);
    for (const [i, a] of p.regions.entries()) for (const b of p.regions.slice(i + 1)) expect(lineOverlap(a.lines, b.lines)).toBe(false);
  });
});
