import { describe, expect, it } from "vitest";
import type { RgbaImage } from "../../workers/engine/image/gray";
import { lineWordSpace, reachLineEnds } from "../../workers/engine/inpaint/line-ends";
import { regionInk } from "../../workers/engine/inpaint/mask";
import type { Rect } from "../../workers/engine/inpaint/rect";

const W = 400,
  H = 60;

/** A light page (paper at 235) with dark strokes (20): letters 5 px wide on rows 20–36, a rule from top to bottom. */
function page(letters: number[], rule?: number): RgbaImage {
  const data = new Uint8Array(W * H * 4).fill(235);
  const ink = (x: number, y: number) => data.fill(20, (y * W + x) * 4, (y * W + x) * 4 + 3);
  for (const x of letters) for (let y = 20; y < 36; y++) for (let i = 0; i < 5; i++) ink(x + i, y);
  if (rule !== undefined) for (let y = 0; y < H; y++) ink(rule, y);
  return { width: W, height: H, data };
}

/** The line 20–36 read from x = 100 to 200 (letters every 12 px), its zone padded by 3. */
const line: Rect = { x0: 100, y0: 20, x1: 200, y1: 36 };
const zone: Rect = { x0: 97, y0: 17, x1: 203, y1: 39 };
const body = Array.from({ length: 9 }, (_, k) => 100 + 12 * k);
const bound: Rect = { x0: 0, y0: 0, x1: W, y1: H };

describe("a line's zone reaching its lost ends", () => {
  it("takes in letters a reading dropped at the start and end of a line, within a word space", () => {
    const img = page([84, ...body, 212]);
    const grown = reachLineEnds(img, zone, line, 16, bound);
    // Padded by the zone's own 3 px beyond the letters reached (84–88 and 212–216).
    expect(grown.x0).toBe(81);
    expect(grown.x1).toBe(220);
    expect([grown.y0, grown.y1]).toEqual([zone.y0, zone.y1]);
  });

  it("leaves ink further than a word space away, and never reaches past its region's box", () => {
    // 40 px of blank before the left mark: more than 0.7 of a 16 px line.
    const far = reachLineEnds(page([50, ...body]), zone, line, 16, bound);
    expect(far.x0).toBe(zone.x0);
    const bounded = reachLineEnds(page([84, ...body]), zone, line, 16, { ...bound, x0: 86 });
    expect(bounded.x0).toBe(86);
    const outside = reachLineEnds(page([84, ...body]), zone, line, 16, { ...bound, x0: 90 });
    expect(outside.x0).toBe(zone.x0);
  });

  it("steps over the line's own word space where it is wider than the height's share (letter-spaced type)", () => {
    // A mark 16 px of blank before the line: beyond 0.7 of a 16 px line, within a word space of 20.
    const img = page([79, ...body]);
    expect(reachLineEnds(img, zone, line, 16, bound).x0).toBe(zone.x0);
    expect(reachLineEnds(img, zone, line, 16, bound, 20).x0).toBe(76);
    // A narrower word space than the height's share changes nothing.
    expect(reachLineEnds(page([84, ...body]), zone, line, 16, bound, 4).x0).toBe(81);
  });

  it("measures a line's word space between its words, the median with slack, from two blanks on", () => {
    // The footer of a comic prose page in letter-spaced type, as read: "of" "the" "Jungle" "Combats" "a".
    const words = [
      { x: 131, w: 31 },
      { x: 177, w: 53 },
      { x: 246, w: 118 },
      { x: 380, w: 139 },
      { x: 535, w: 13 },
    ].map(({ x, w }) => ({ x, y: 8, w, h: 19 }));
    // Blanks 15, 16, 16, 16: their median 16, with a quarter's slack 20 (the unread "J u d y" stood 17 px before "of").
    expect(lineWordSpace(words)).toBe(20);
    expect(lineWordSpace([...words].reverse())).toBe(20);
    // One blank, or words that overlap, tell nothing.
    expect(lineWordSpace(words.slice(0, 2))).toBe(0);
    expect(lineWordSpace([words[0]!, { ...words[0]!, x: 140 }, { ...words[0]!, x: 150 }])).toBe(0);
  });

  it("takes a word the reading lost a line's own word space before it, on a flat page with the line's words given", () => {
    // Words of three letters every 12 px, 17 px apart (100–129, 146–175, 192–221); a lost word of
    // two letters (62–79) 20 px before the first: beyond 0.7 of the 16 px line, within 1.25 × 17.
    const read = [100, 146, 192];
    const img = page([62, 74, ...read.flatMap((x) => [x, x + 12, x + 24])]);
    const region = {
      box: { x: 60, y: 20, w: 162, h: 16 },
      lines: [{ x: 100, y: 20, w: 122, h: 16 }],
      words: read.map((x) => ({ box: { x, y: 20, w: 29, h: 16 }, text: "abc", confidence: 0.9 })),
    };
    const zoneStart = (r: typeof region | Omit<typeof region, "words">) => regionInk(img, r, [], new Uint8Array(W * H)).zones[0]!.x0;
    expect(zoneStart(region)).toBeLessThanOrEqual(62);
    const { words: _, ...unread } = region;
    expect(zoneStart(unread)).toBeGreaterThan(79);
  });

  it("stops at a rule or drawing that runs through the whole zone", () => {
    const grown = reachLineEnds(page([84, ...body], 92), zone, line, 16, bound);
    expect(grown.x0).toBe(zone.x0);
  });

  it("leaves a line on a ground of too little contrast as it is", () => {
    const img = page([84, ...body]);
    for (let i = 0; i < img.data.length; i++) if (img.data[i] === 20) img.data[i] = 210;
    expect(reachLineEnds(img, zone, line, 16, bound)).toEqual(zone);
  });
});
