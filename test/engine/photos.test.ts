import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { LineText, PageText, PreprocessResult, Quad } from "../../workers/shared/engine-contract";
import { decode, decodeKey, type Rgba } from "../render/helpers";
import { pageText, picture, put, realFixture, realText } from "./helpers";

// Phone photos of a real page: page 1 of OCRmyPDF's linn.pdf (a 300 dpi scan of a product sheet,
// test/fixtures/real), photographed on a table by make-photos.mjs (ImageMagick, deterministic:
// an angled view, a strong light gradient, a curled page; origins in test/fixtures/pictures/README.md).

const ENG = ["eng"];
/** The page: 2550 x 3300 pixels at 300 dpi (US letter). */
const PAGE_ASPECT = 2550 / 3300;
/** The page's long side in the photos (make-photos.mjs). */
const PHOTO_LONG_SIDE = 1700;

/** photo-angled.jpg: the page's corners in the photo (TL, TR, BR, BL), as make-photos.mjs placed them. */
const ANGLED_CORNERS: Quad = [
  [120, 208],
  [1581, 138],
  [1391, 1946],
  [217, 1789],
];
/** photo-shading.jpg: the page's corners; the light falls from 1.0 at the first to 0.45 at the third. */
const SHADING_CORNERS: Quad = [
  [83, 99],
  [1419, 70],
  [1460, 1865],
  [143, 1791],
];

/** English words: lower case, split at anything but letters and digits, apostrophes dropped, line-end hyphens joined. */
function words(text: string): string[] {
  return text
    .normalize("NFKC")
    .replace(/(\p{L})-[ \t]*\r?\n\s*(\p{L})/gu, "$1$2")
    .toLowerCase()
    .replace(/['’‘`]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Share of the expected words found in the actual ones (as multisets). */
function recall(expected: string[], actual: string[]): number {
  const pool = new Map<string, number>();
  for (const w of actual) pool.set(w, (pool.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of expected) {
    const left = pool.get(w) ?? 0;
    if (left > 0) (hit++, pool.set(w, left - 1));
  }
  return hit / expected.length;
}

/**
 * The words of the page: OCRmyPDF's reference text of linn.pdf, whose bullets (•) were read as "0"
 * at the start of a line: those are left out.
 */
const REFERENCE = words(realText("ocrmypdf_linn.txt").replace(/^0 /gm, ""));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : NaN;
};

/**
 * How straight the page's text lines lie, for each line of four words or more:
 *  - `spread`: how far its words' vertical centres spread (max − min), as a share of the page's line
 *    height (the median height of those lines' boxes). A straight line's words sit level (a word in
 *    capitals, a bullet or one with descenders a little off: under 0.4 of a line on this page
 *    read flat); a slanted or bent line's words step up or down along it.
 *  - `height`: its box's height against its characters' mean advance (its width over its length),
 *    which measures the size of its type: 1.5–2.6 on this page read flat, title and small print
 *    alike. A bent line's box grows by its bend, even when its words are given the line's own box.
 */
function lineShapes(page: PageText): { text: string; spread: number; height: number }[] {
  const lines: LineText[] = page.regions.flatMap((r) => r.lines).filter((l) => l.words.length >= 4);
  const lineHeight = median(lines.map((l) => l.box.h));
  return lines.map((l) => {
    const centres = l.words.map((w) => w.box.y + w.box.h / 2);
    return {
      text: l.text,
      spread: (Math.max(...centres) - Math.min(...centres)) / lineHeight,
      height: l.box.h / (l.box.w / l.text.length),
    };
  });
}

/**
 * Checks that the page's text lines run straight across it: its words level within half a line, its
 * box no taller than a line and a half (3.2 advances), on all but a few lines (a line read wrong).
 */
function expectStraightLines(page: PageText) {
  const lines = lineShapes(page);
  const bent = lines.filter((l) => l.spread >= 0.5 || l.height >= 3.2);
  const worst = (k: "spread" | "height") => Math.max(...lines.map((l) => l[k])).toFixed(2);
  console.log(
    `lines of ≥ 4 words: ${lines.length}, bent ${bent.length}; spread median ${median(lines.map((l) => l.spread)).toFixed(2)}, max ${worst("spread")}; height median ${median(lines.map((l) => l.height)).toFixed(2)}, max ${worst("height")}`,
  );
  // The page has some 70 lines of four words or more (fewer when bent lines are cut into pieces).
  expect(lines.length).toBeGreaterThanOrEqual(50);
  const shown = bent.map((l) => [+l.spread.toFixed(2), +l.height.toFixed(2), l.text]);
  expect(bent.length / lines.length, JSON.stringify(shown)).toBeLessThanOrEqual(0.05);
}

/** The brightness below which `p` of the pixels of a rectangle of a gray image (RGBA, R read) lie. */
function percentile(img: Rgba, x0: number, y0: number, x1: number, y1: number, p: number): number {
  const hist = new Uint32Array(256);
  let n = 0;
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(img.height, Math.round(y1)); y++)
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(img.width, Math.round(x1)); x++) {
      hist[img.data[(y * img.width + x) * 4]!]!++;
      n++;
    }
  let acc = 0;
  for (let v = 0; v < 256; v++) if ((acc += hist[v]!) >= p * n) return v;
  return 255;
}

/** A point of a page (u, v in 0..1) in the photo, by bilinear interpolation of its corners. */
function onPhoto(q: Quad, u: number, v: number): [number, number] {
  const [a, b, c, d] = q;
  return [
    (1 - v) * ((1 - u) * a[0] + u * b[0]) + v * ((1 - u) * d[0] + u * c[0]),
    (1 - v) * ((1 - u) * a[1] + u * b[1]) + v * ((1 - u) * d[1] + u * c[1]),
  ];
}

interface Read {
  sourceKey: string;
  source: Rgba;
  pre: PreprocessResult;
  page: PageText;
  image: Rgba;
}

/** preprocess → recognize of a photo of test/fixtures/pictures, uploaded as a JPEG, as a user would. */
async function readPhoto(name: string): Promise<Read> {
  const bytes = await picture(name);
  const sourceKey = await put(`uploads/photos/${name}`, bytes);
  const pre = (await env.ENGINE.preprocess({ sourceKey, page: 0, outKey: `work/photos/${name}.png`, languages: ENG })) as PreprocessResult;
  const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ENG, outKey: `work/photos/${name}.json` });
  const page = await pageText(rec.key);
  console.log(
    name,
    JSON.stringify({ size: [pre.width, pre.height], path: pre.path, transform: { ...pre.transform, dewarp: !!pre.transform.dewarp } }),
    `recall ${recall(REFERENCE, words(page.text)).toFixed(3)}`,
  );
  return { sourceKey, source: decode(bytes), pre, page, image: await decodeKey(pre.key) };
}

describe("a page photographed at an angle on a table", () => {
  let read: Read;
  beforeAll(async () => {
    read = await readPhoto("photo-angled.jpg");
  }, 240_000);

  it("is cut out along its true corners", () => {
    const flat = read.pre.transform.flat;
    expect(flat, JSON.stringify(read.pre.transform)).toBeDefined();
    expect(read.pre.path).toBe("ocr");
    // Every corner within 1.5 % of the page's long side of where the page's corner lies in the photo.
    const off = flat!.quad.map(([x, y], i) => Math.hypot(x - ANGLED_CORNERS[i]![0], y - ANGLED_CORNERS[i]![1]));
    expect(Math.max(...off), JSON.stringify(flat!.quad)).toBeLessThanOrEqual(0.015 * PHOTO_LONG_SIDE);
  });

  it("is made flat in the page's proportions", () => {
    expect(read.pre.rotation).toBe(0);
    expect([read.image.width, read.image.height]).toEqual([read.pre.width, read.pre.height]);
    // About the page's own shape (US letter, 0.773): within 3 %.
    const aspect = read.pre.width / read.pre.height;
    expect(
      Math.abs(aspect / PAGE_ASPECT - 1),
      `width/height ${aspect.toFixed(3)}, the page's ${PAGE_ASPECT.toFixed(3)}`,
    ).toBeLessThanOrEqual(0.03);
  });

  it("is read in straight lines, nearly every word of it", () => {
    expectStraightLines(read.page);
    expect(recall(REFERENCE, words(read.page.text)), read.page.text).toBeGreaterThanOrEqual(0.9);
  });

  it("maps a line's box back onto the photo: reocr of the box reads that line", async () => {
    // The widest line of six words or more (a full-width line of the page).
    const line = read.page.regions
      .flatMap((r) => r.lines)
      .filter((l) => l.words.length >= 6)
      .sort((a, b) => b.box.w - a.box.w)[0]!;
    const box = { x: line.box.x - 10, y: line.box.y - 6, w: line.box.w + 20, h: line.box.h + 12 };
    const out = await env.ENGINE.reocr({ sourceKey: read.sourceKey, page: 0, box, languages: ENG, pageKey: read.pre.key });
    console.log("reocr", JSON.stringify(line.text), "→", JSON.stringify(out.text));
    const expected = words(line.text);
    const got = words(out.text);
    expect(recall(expected, got), out.text).toBeGreaterThanOrEqual(0.8);
    // Nothing of the lines above or below.
    expect(recall(got, expected), out.text).toBeGreaterThanOrEqual(0.8);
    expect(out.lines).toHaveLength(1);
    const b = out.lines[0]!.box;
    expect(Math.abs(b.y - line.box.y)).toBeLessThan(line.box.h / 2);
    expect(Math.abs(b.x - line.box.x)).toBeLessThan(line.box.h);
  }, 120_000);
});

describe("a 12-megapixel phone photo", () => {
  // photo-12mp.jpg: photo-angled.jpg enlarged 1.95× (3225 × 3978, 12.8 MP, baseline 4:2:0), the size a
  // phone camera saves. Above the pixels photon may hold, it is decoded at 6/8 of its size (2419 × 2984).
  let read: Read;
  beforeAll(async () => {
    read = await readPhoto("photo-12mp.jpg");
  }, 240_000);

  it("is taken in, cut out along its corners and read", () => {
    expect(read.pre.transform).toMatchObject({ sourceWidth: 2419, sourceHeight: 2984 });
    const flat = read.pre.transform.flat;
    expect(flat, JSON.stringify(read.pre.transform)).toBeDefined();
    const k = 1.95 * (6 / 8);
    const off = flat!.quad.map(([x, y], i) => Math.hypot(x - ANGLED_CORNERS[i]![0] * k, y - ANGLED_CORNERS[i]![1] * k));
    expect(Math.max(...off), JSON.stringify(flat!.quad)).toBeLessThanOrEqual(0.015 * PHOTO_LONG_SIDE * k);
    expect(recall(REFERENCE, words(read.page.text)), read.page.text).toBeGreaterThanOrEqual(0.9);
  });

  it("has its text removed on a colour base of the page's size", async () => {
    const regions = read.page.regions.slice(0, 2).map((r) => ({ box: r.box, lines: r.lines.map((l) => l.box), vertical: false }));
    const out = await env.ENGINE.inpaint({
      pageKey: read.pre.key,
      sourceKey: read.sourceKey,
      page: 0,
      regions,
      maskKey: "work/photos/12mp-mask.png",
      cleanKey: "work/photos/12mp-clean.png",
      languages: [],
    });
    const clean = await decodeKey(out.cleanKey);
    expect([clean.width, clean.height]).toEqual([read.pre.width, read.pre.height]);
    expect(out.regions.every((r) => r.masked > 0)).toBe(true);
  }, 120_000);
});

describe("a page photographed under a strong light gradient", () => {
  let read: Read;
  beforeAll(async () => {
    read = await readPhoto("photo-shading.jpg");
  }, 240_000);

  it("has its light evened out, and is read", () => {
    expect(read.pre.transform.shading).toBe(true);
    expect(read.pre.path).toBe("ocr");
    expect(recall(REFERENCE, words(read.page.text)), read.page.text).toBeGreaterThanOrEqual(0.9);
  });

  it("has even paper across its page image, where the photo's paper falls off", () => {
    // In the photo the paper near the page's top-left corner is far brighter than near its bottom-right one.
    const at = (u: number, v: number) => {
      const [x, y] = onPhoto(SHADING_CORNERS, u, v);
      return percentile(read.source, x - 100, y - 100, x + 100, y + 100, 0.9);
    };
    const photo = { topLeft: at(0.15, 0.15), bottomRight: at(0.85, 0.85) };
    expect(photo.topLeft - photo.bottomRight, JSON.stringify(photo)).toBeGreaterThan(60);
    // The page image: the paper (90th percentile) of its thirds along the gradient, left and right,
    // top and bottom, and of its top-left and bottom-right ninths, differs by under 20 gray levels.
    const img = read.image;
    const [w, h] = [img.width, img.height];
    const p90 = (x0: number, y0: number, x1: number, y1: number) => percentile(img, x0 * w, y0 * h, x1 * w, y1 * h, 0.9);
    const paper = {
      left: p90(0.03, 0.03, 1 / 3, 0.97),
      right: p90(2 / 3, 0.03, 0.97, 0.97),
      top: p90(0.03, 0.03, 0.97, 1 / 3),
      bottom: p90(0.03, 2 / 3, 0.97, 0.97),
      topLeft: p90(0.03, 0.03, 1 / 3, 1 / 3),
      bottomRight: p90(2 / 3, 2 / 3, 0.97, 0.97),
    };
    console.log("photo paper", JSON.stringify(photo), "page image paper", JSON.stringify(paper));
    expect(Math.abs(paper.left - paper.right), JSON.stringify(paper)).toBeLessThan(20);
    expect(Math.abs(paper.top - paper.bottom), JSON.stringify(paper)).toBeLessThan(20);
    expect(Math.abs(paper.topLeft - paper.bottomRight), JSON.stringify(paper)).toBeLessThan(20);
  });
});

describe("a curled page", () => {
  let read: Read;
  beforeAll(async () => {
    read = await readPhoto("photo-curl.jpg");
  }, 240_000);

  it("is read in straight lines, nearly every word of it", () => {
    expect(read.pre.path).toBe("ocr");
    expectStraightLines(read.page);
    expect(recall(REFERENCE, words(read.page.text)), read.page.text).toBeGreaterThanOrEqual(0.9);
  });
});

describe("a flat scan", () => {
  // Real scans (test/fixtures/real): the same page as linn.pdf's 300 dpi image, a 300 dpi TIFF of
  // tesseract's test set, and a small JPEG of text (a camera's format, on which shading and bending are looked for).
  for (const [name, width, height] of [
    ["ocrmypdf_linn.pdf", 2550, 3300],
    ["tess_8087_054.3B.tif", 2560, 3300],
    ["tjs_simple.jpg", 320, 180],
  ] as const) {
    it(`is left as it is: ${name}`, async () => {
      const sourceKey = await put(`uploads/photos/flat/${name}`, realFixture(name));
      const pre = await env.ENGINE.preprocess({ sourceKey, page: 0, outKey: `work/photos/flat/${name}.png`, languages: ENG });
      console.log(name, JSON.stringify({ size: [pre.width, pre.height], transform: pre.transform }));
      expect(pre.path).toBe("ocr");
      expect(pre.transform).not.toHaveProperty("flat");
      expect(pre.transform).not.toHaveProperty("shading");
      expect(pre.transform).not.toHaveProperty("dewarp");
      expect(pre.transform).toMatchObject({ rotation: 0, scale: 1, sourceWidth: width, sourceHeight: height });
      expect([pre.width, pre.height]).toEqual([width, height]);
      const image = await decodeKey(pre.key);
      expect([image.width, image.height]).toEqual([width, height]);
    }, 120_000);
  }

  it("is read in straight lines, nearly every word of it: the photos' measures hold on the page read flat", async () => {
    const sourceKey = await put("uploads/photos/flat/linn.pdf", realFixture("ocrmypdf_linn.pdf"));
    const pre = await env.ENGINE.preprocess({ sourceKey, page: 0, outKey: "work/photos/flat/linn.png", languages: ENG });
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ENG, outKey: "work/photos/flat/linn.json" });
    const page = await pageText(rec.key);
    console.log(`ocrmypdf_linn.pdf recall ${recall(REFERENCE, words(page.text)).toFixed(3)}`);
    expectStraightLines(page);
    expect(recall(REFERENCE, words(page.text)), page.text).toBeGreaterThanOrEqual(0.9);
  }, 180_000);
});
