import { describe, expect, it } from "vitest";
import type { GrayImage } from "../../workers/engine/image/gray";
import { blockRaster, lineRaster } from "../../workers/engine/picture/block-raster";
import { erasePictureText } from "../../workers/engine/picture/erase-blocks";
import { lineBands, readByBands } from "../../workers/engine/picture/line-bands";
import { modelsFor } from "../../workers/engine/picture/read-picture";
import { findPictureText } from "../../workers/engine/picture/strip-windows";
import { findTextBlocks } from "../../workers/engine/picture/text-blocks";
import { readsLatin } from "../../workers/shared/ocr-models";

/** A white page (one light ground: a balloon) of the analysis side's size, so sizes stay as drawn. */
function page(): GrayImage {
  return { width: 1200, height: 1600, data: new Uint8Array(1200 * 1600).fill(255) };
}

/** A letter-like mark: a black square ring (a 口) of the given size, its stroke an eighth of it. */
function letter(img: GrayImage, x: number, y: number, size: number) {
  const stroke = Math.round(size / 8);
  for (let j = 0; j < size; j++)
    for (let i = 0; i < size; i++)
      if (i < stroke || j < stroke || i >= size - stroke || j >= size - stroke) img.data[(y + j) * img.width + x + i] = 0;
}

/** A small filled dot (a bubble drawn in a balloon, a speck of ink). */
function dot(img: GrayImage, x: number, y: number, size: number) {
  for (let j = 0; j < size; j++) for (let i = 0; i < size; i++) img.data[(y + j) * img.width + x + i] = 0;
}

describe("text blocks of a picture", () => {
  it("keep a column of large letters whose balloon has small bubbles drawn beside them", () => {
    // Four dots and three letters: the dots are most of the marks, but the letters set the block's size.
    const img = page();
    for (const y of [400, 480, 560]) letter(img, 560, y, 64);
    for (const [x, y] of [
      [634, 420],
      [634, 500],
      [540, 590],
      [634, 580],
    ])
      dot(img, x!, y!, 8);
    const { blocks } = findTextBlocks(img);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.vertical).toBe(true);
    expect(blocks[0]!.glyph).toBe(64);
    expect(blocks[0]!.box).toMatchObject({ x: 540, y: 400 });
  });

  it("take characters on a grid for columns where columns stand further apart than their characters, for rows the other way round, and lines nearly touching by what each holds", () => {
    // Eight columns of five 32 px characters (a wide balloon): more columns than characters to a
    // column, which counting marks alone took for rows. 14 px between columns, 4 between characters.
    const grid = (across: number, down: number, stepX: number, stepY: number) => {
      const img = page();
      for (let c = 0; c < across; c++) for (let r = 0; r < down; r++) letter(img, 300 + c * stepX, 400 + r * stepY, 32);
      const { blocks } = findTextBlocks(img);
      expect(blocks).toHaveLength(1);
      return blocks[0]!.vertical;
    };
    expect(grid(8, 5, 46, 36)).toBe(true);
    // The same grid with rows apart: five rows of eight, read as rows.
    expect(grid(8, 5, 36, 46)).toBe(false);
    // Two columns of eight and two rows of eight stay as they were.
    expect(grid(2, 8, 46, 36)).toBe(true);
    expect(grid(8, 2, 36, 46)).toBe(false);
    // Lines nearly touching (a balloon's columns photographed a little turned: 1 px apart, 4 px
    // between their characters) are no grid whose blanks tell the direction: eight characters to a
    // column against two to a row do. Counted by its blanks alone, the balloon was read across.
    expect(grid(2, 8, 33, 36)).toBe(true);
    expect(grid(8, 2, 36, 33)).toBe(false);
  });

  it("bring large lettering down to the height tesseract reads best", () => {
    // A title of letters 100 px high is read at about 34 px (read at 100 px, a manga title came out as noise).
    const img = page();
    for (let i = 0; i < 6; i++) letter(img, 100 + i * 130, 300, 100);
    const found = findTextBlocks(img);
    expect(found.blocks).toHaveLength(1);
    const raster = blockRaster(img, found, 0, found.blocks[0]!, true);
    expect(raster.scale).toBeCloseTo(0.34, 2);
    expect(raster.image.height).toBeLessThan(found.blocks[0]!.box.h);
  });

  it("keep a tall strip's lettering (a webtoon episode): its letters are not shrunk away with its length", () => {
    // 800 × 8 000, three words of 24 px letters down its length. Fitted by its long side (0.2), they
    // came out under 5 px and were never found.
    const img: GrayImage = { width: 800, height: 8000, data: new Uint8Array(800 * 8000).fill(255) };
    for (const y of [500, 4000, 7500]) for (let i = 0; i < 5; i++) letter(img, 300 + i * 30, y, 24);
    const found = findTextBlocks(img);
    expect(found.blocks).toHaveLength(3);
    // Analysed at 0.63 (the strip within a square page's 2.56 MP): its boxes come back within a pixel or two.
    found.blocks.forEach((b, i) => expect(Math.abs(b.box.y - [500, 4000, 7500][i]!)).toBeLessThanOrEqual(2));
    for (const b of found.blocks) expect(b.glyph).toBeCloseTo(24, -1);
    expect(found.width * found.height).toBeLessThanOrEqual(1601 * 1601);
  });

  it("keep a wide row of panels' lettering: its letters are not shrunk away with its length", () => {
    // 3 200 × 300 (a newspaper strip), four words of 10 px letters along it. Fitted by its length (0.5),
    // they came out 5 px, under the least letter of a 1 600 px side, and were never found.
    const img: GrayImage = { width: 3200, height: 300, data: new Uint8Array(3200 * 300).fill(255) };
    const xs = [100, 900, 1700, 2500];
    for (const x of xs) for (let i = 0; i < 5; i++) letter(img, x + i * 13, 140, 10);
    const found = findTextBlocks(img);
    expect(found.blocks.map((b) => b.box.x)).toEqual(xs);
    for (const b of found.blocks) expect(b.glyph).toBe(10);
    // Analysed at full size: the row is held 533 px high at least (a tier of a 1 600 px page), never enlarged.
    expect([found.width, found.height, found.scale]).toEqual([3200, 300, 1]);
  });

  it("of a wide row of panels kept higher than a page's tier by its fit are analysed as before, fitted by its length", () => {
    // 3 200 × 1 200: fitted by its length (0.5), it is 600 px high, above a page's tier (533 px).
    const img: GrayImage = { width: 3200, height: 1200, data: new Uint8Array(3200 * 1200).fill(255) };
    for (let i = 0; i < 5; i++) letter(img, 1000 + i * 40, 500, 30);
    const found = findTextBlocks(img);
    expect([found.width, found.height, found.scale]).toEqual([1600, 600, 0.5]);
    expect(found.blocks).toHaveLength(1);
  });

  it("of a tall strip are found window by window, each once where two windows share rows", () => {
    // 800 × 8 000: windows of 800 × 1 600 every 1 200 rows, analysed at full size. A word at row
    // 1 390 lies in the rows the first two windows share (1 200–1 600): it is found once.
    const img: GrayImage = { width: 800, height: 8000, data: new Uint8Array(800 * 8000).fill(255) };
    const rows = [500, 1390, 4000, 7500];
    for (const y of rows) for (let i = 0; i < 5; i++) letter(img, 300 + i * 30, y, 24);
    const found = findPictureText(img);
    expect(found.blocks.map((b) => b.box.y)).toEqual(rows);
    for (const b of found.blocks) expect(b.glyph).toBe(24);
    expect([found.width, found.height, found.scale]).toEqual([800, 8000, 1]);
    // Each block's marks are its own in the strip's owner map, at their place.
    found.blocks.forEach((b, i) => expect(found.owner[(b.box.y + 1) * 800 + b.box.x + 1]).toBe(i + 1));
  });

  it("enlarge small lettering, at most fourfold", () => {
    const img = page();
    for (let i = 0; i < 6; i++) letter(img, 100 + i * 20, 300, 16);
    const found = findTextBlocks(img);
    expect(found.blocks).toHaveLength(1);
    expect(blockRaster(img, found, 0, found.blocks[0]!, true).scale).toBeCloseTo(34 / 16, 1);
  });

  it("leave a balloon's outline out of its text, where the interior reaches into its corners", () => {
    // A balloon's interior rows may hold a few pixels of its outline (its rounded corners); the
    // stroke then ran along a line's end, and tesseract dropped the line it closed.
    const img = page();
    const ink = (x: number, y: number) => (img.data[y * img.width + x] = 0);
    for (let x = 100; x < 800; x++) for (let t = 0; t < 4; t++) (ink(x, 100 + t), ink(x, 396 + t));
    for (let y = 100; y < 400; y++) for (let t = 0; t < 4; t++) (ink(100 + t, y), ink(796 + t, y));
    // Rounded corners: short diagonal strokes across the inner corners.
    for (let t = 0; t < 12; t++)
      for (let d = 0; d < 2; d++)
        (ink(104 + t, 115 - t + d), ink(795 - t, 115 - t + d), ink(104 + t, 384 + t - d), ink(795 - t, 384 + t - d));
    for (const y of [120, 165, 210, 255, 300, 345]) for (let x = 112; x + 30 <= 790; x += 40) letter(img, x, y, 30);
    const found = findTextBlocks(img);
    expect(found.blocks).toHaveLength(1);
    const block = found.blocks[0]!;
    const raster = blockRaster(img, found, 0, block, true);
    // Every dark pixel of the raster lies on the block's letters.
    const { width, height, data } = raster.image;
    let stray = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        if (data[(y * width + x) * 4]! >= 128) continue;
        const px = Math.floor(raster.offset!.x + x / raster.scale);
        const py = Math.floor(raster.offset!.y + y / raster.scale);
        if (px < block.box.x - 1 || py < block.box.y - 1 || px > block.box.x + block.box.w || py > block.box.y + block.box.h) stray++;
      }
    expect(stray).toBe(0);
  });

  it("take in the letters that run into a caption box's border, and read and erase them without it", () => {
    // A yellow caption box, its first word's letters run into its top border ("NEXT INSTANT…" was read "INSTANT").
    const img = page();
    const ink = (x: number, y: number) => (img.data[y * img.width + x] = 0);
    for (let y = 104; y < 146; y++) for (let x = 104; x < 796; x++) img.data[y * img.width + x] = 200;
    for (let x = 100; x < 800; x++) for (let t = 0; t < 4; t++) (ink(x, 100 + t), ink(x, 146 + t));
    for (let y = 100; y < 150; y++) for (let t = 0; t < 4; t++) (ink(100 + t, y), ink(796 + t, y));
    // Two letters touch the border (their tops at its inner edge), then free letters along the line.
    for (let i = 0; i < 2; i++) letter(img, 120 + i * 40, 104, 30);
    for (let i = 0; i < 8; i++) letter(img, 220 + i * 40, 108, 30);
    const found = findTextBlocks(img);
    expect(found.blocks).toHaveLength(1);
    const block = found.blocks[0]!;
    expect(block.box.x).toBe(120);
    expect(block.box.x + block.box.w).toBe(530);
    const raster = blockRaster(img, found, 0, block, false);
    const { width, height, data } = raster.image;
    const at = (px: number, py: number) => data[((py - raster.offset!.y) * width + px - raster.offset!.x) * 4]!;
    // The touching letters' strokes are kept; the border beside them is not; the yellow ground is white.
    expect(at(121, 120)).toBeLessThan(64);
    expect(at(165, 106)).toBeLessThan(64);
    let border = 0;
    for (let x = raster.offset!.x; x < raster.offset!.x + width; x++) if ((x < 118 || x > 152) && at(x, 102) < 128) border++;
    expect(border).toBe(0);
    let gray = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) if (data[(y * width + x) * 4]! > 128 && data[(y * width + x) * 4]! < 230) gray++;
    expect(gray).toBe(0);
    // Erased: the letters become the caption's yellow, its border stays whole.
    const rgba = { width: img.width, height: img.height, data: new Uint8Array(img.width * img.height * 4) };
    for (let i = 0; i < img.data.length; i++) rgba.data.fill(img.data[i]!, i * 4, i * 4 + 3);
    const mask = new Uint8Array(img.width * img.height);
    const [erased] = erasePictureText(rgba, img, [{ box: block.box }], mask, ["eng"]);
    expect(erased!.masked).toBeGreaterThan(0);
    expect(rgba.data[(120 * img.width + 121) * 4]).toBe(200);
    expect(rgba.data[(106 * img.width + 165) * 4]).toBe(200);
    for (let x = 100; x < 800; x++) expect(rgba.data[(102 * img.width + x) * 4]).toBe(0);
  });

  it("erase a region's block only near what was read: marks of a drawing read as text erase no more of it", () => {
    // Ten rows of ten 30 px marks on one ground (one block, as a face's features may be); the region
    // read covers two of them. Erased, the marks more than two letters from its box stay.
    const img = page();
    for (let r = 0; r < 10; r++) for (let c = 0; c < 10; c++) letter(img, 100 + c * 40, 100 + r * 40, 30);
    const { blocks } = findTextBlocks(img);
    expect(blocks).toHaveLength(1);
    const rgba = { width: img.width, height: img.height, data: new Uint8Array(img.width * img.height * 4) };
    for (let i = 0; i < img.data.length; i++) rgba.data.fill(img.data[i]!, i * 4, i * 4 + 3);
    const mask = new Uint8Array(img.width * img.height);
    const region = { x: 100, y: 100, w: 70, h: 30 };
    const [erased] = erasePictureText(rgba, img, [{ box: region }], mask, ["eng"]);
    expect(erased!.masked).toBeGreaterThan(0);
    const black = (x: number, y: number) => rgba.data[(y * img.width + x) * 4] === 0;
    // The two marks read are gone; the mark in the far corner of the block stays whole.
    expect(black(100, 110)).toBe(false);
    expect(black(140, 110)).toBe(false);
    expect(black(460, 470)).toBe(true);
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++)
        if (mask[y * img.width + x]) {
          expect(x).toBeLessThan(region.x + region.w + 2 * 30 + 1);
          expect(y).toBeLessThan(region.y + region.h + 2 * 30 + 1);
        }
  });

  it("give each region its lettering's colour as printed, where a region erased before it reached into its letters", () => {
    // Two lines of navy letters in one block; the first line's region has a frame that reaches over
    // most of the second line (a newspaper held up over a caption), so erasing it paints those letters.
    const img = page();
    for (const y of [100, 145]) for (let c = 0; c < 8; c++) letter(img, 100 + c * 40, y, 30);
    expect(findTextBlocks(img).blocks).toHaveLength(1);
    const rgba = { width: img.width, height: img.height, data: new Uint8Array(img.width * img.height * 4) };
    for (let i = 0; i < img.data.length; i++) rgba.data.set(img.data[i] ? [255, 255, 255] : [0, 0, 128], i * 4);
    const mask = new Uint8Array(img.width * img.height);
    const regions = [
      { box: { x: 100, y: 100, w: 310, h: 30 }, frame: { x: 90, y: 90, w: 330, h: 80 } },
      { box: { x: 100, y: 145, w: 310, h: 30 } },
    ];
    const erased = erasePictureText(rgba, img, regions, mask, ["eng"]);
    expect(erased.map((e) => e!.style.color)).toEqual(["#000080", "#000080"]);
    for (let y = 145; y < 175; y++) for (let x = 100; x < 410; x++) expect(rgba.data[(y * img.width + x) * 4 + 2]).toBe(255);
  });

  it("keep a word whose letters run together in a caption box drawn snug around the text", () => {
    // Its box is half the caption's ground: a word of joined letters is no blob in a light patch of the art.
    const img = page();
    const ink = (x: number, y: number) => (img.data[y * img.width + x] = 0);
    for (let x = 100; x < 328; x++) for (let t = 0; t < 4; t++) (ink(x, 100 + t), ink(x, 146 + t));
    for (let y = 100; y < 150; y++) for (let t = 0; t < 4; t++) (ink(100 + t, y), ink(324 + t, y));
    letter(img, 110, 110, 30);
    letter(img, 150, 110, 30);
    for (let x = 140; x < 150; x++) for (let t = 0; t < 4; t++) ink(x, 130 + t);
    for (const x of [190, 230, 270]) letter(img, x, 110, 30);
    const { blocks } = findTextBlocks(img);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.box).toMatchObject({ x: 110, w: 190 });
  });

  it("join the words on either side of letters run into a caption's border into one block, those letters with them", () => {
    // A caption box; between two words, two letters joined to its top border: one shape with it, no marks.
    const caption = (runTogether: boolean) => {
      const img = page();
      const ink = (x: number, y: number) => (img.data[y * img.width + x] = 0);
      for (let x = 100; x < 900; x++) for (let t = 0; t < 4; t++) (ink(x, 100 + t), ink(x, 146 + t));
      for (let y = 100; y < 150; y++) for (let t = 0; t < 4; t++) (ink(100 + t, y), ink(896 + t, y));
      for (const x of [120, 160, 200, 240, 360, 400, 440, 480]) letter(img, x, 108, 30);
      if (runTogether)
        for (const x of [280, 320]) {
          letter(img, x, 108, 30);
          for (let y = 104; y < 108; y++) for (let t = 13; t < 17; t++) ink(x + t, y);
        }
      return img;
    };
    const img = caption(true);
    const found = findTextBlocks(img);
    expect(found.blocks.map((b) => [b.box.x, b.box.x + b.box.w])).toEqual([[120, 510]]);
    // The letters run together are read with the block; the border above them is not.
    const raster = blockRaster(img, found, 0, found.blocks[0]!, false);
    const { width, data } = raster.image;
    const at = (px: number, py: number) => data[((py - raster.offset!.y) * width + px - raster.offset!.x) * 4]!;
    expect(at(281, 120)).toBeLessThan(64);
    expect(at(335, 136)).toBeLessThan(64);
    expect(at(250, 101)).toBeGreaterThan(192);
    // With the caption's ground between them, the two words are two texts.
    expect(findTextBlocks(caption(false)).blocks.map((b) => [b.box.x, b.box.x + b.box.w])).toEqual([
      [120, 270],
      [360, 510],
    ]);
  });

  it("cut a block's lines apart where their strokes touch, each line read on its own rows", () => {
    // Two lines of letters 30 px high, 36 px apart, every other letter of the first joined to the
    // one below by a stroke (heavy italic lettering whose lines touch): marks two lines high.
    const img = page();
    for (let i = 0; i < 8; i++) {
      letter(img, 100 + i * 40, 200, 30);
      letter(img, 100 + i * 40, 236, 30);
      if (i % 2 === 0) for (let y = 230; y < 236; y++) for (let x = 12; x < 18; x++) img.data[y * img.width + 100 + i * 40 + x] = 0;
    }
    const found = findTextBlocks(img);
    expect(found.blocks).toHaveLength(1);
    const block = found.blocks[0]!;
    const bands = lineBands(found, 0, block);
    expect(bands).toHaveLength(2);
    const [[top, cut], [cut2, bottom]] = bands as [[number, number], [number, number]];
    expect(top).toBe(200);
    expect(cut).toBe(cut2);
    expect(cut).toBeGreaterThanOrEqual(229);
    expect(cut).toBeLessThanOrEqual(237);
    expect(bottom).toBe(266);
    // A line's raster holds the block raster's rows of that line, placed where they lie on the page.
    const raster = blockRaster(img, found, 0, block, false);
    const line = lineRaster(raster, cut, bottom);
    const { width, height, data } = line.image;
    const onPage = (v: number) => line.offset!.y + v / line.scale;
    let dark = 0;
    for (let v = 0; v < height; v++)
      for (let u = 0; u < width; u++) {
        if (data[(v * width + u) * 4]! >= 128) continue;
        dark++;
        expect(onPage(v)).toBeGreaterThanOrEqual(cut - 1);
        expect(onPage(v)).toBeLessThanOrEqual(bottom + 1);
      }
    expect(dark).toBeGreaterThan(8 * 4 * 30);
    // A block of well-spaced lines is cut between them too, and a single line is one band.
    const single = page();
    for (let i = 0; i < 8; i++) letter(single, 100 + i * 40, 200, 30);
    const one = findTextBlocks(single);
    expect(lineBands(one, 0, one.blocks[0]!)).toEqual([[200, 230]]);
  });

  it("are read band by band when read in part, in Latin letters only", () => {
    // Unread or read as fewer lines than its bands (a two-line caption of which only "ANOTHER" was
    // kept), lettering is read again band by band; read whole, or one band, it is not.
    expect(readByBands(2, 0)).toBe(true);
    expect(readByBands(2, 1)).toBe(true);
    expect(readByBands(3, 2)).toBe(true);
    expect(readByBands(2, 2)).toBe(false);
    expect(readByBands(1, 0)).toBe(false);
    // Models of other scripts read a manga's hatching cut in bands as text: only blocks a Latin
    // model reads are cut.
    expect(readsLatin(["jpn", "eng"])).toBe(true);
    expect(readsLatin(["jpn"])).toBe(false);
    expect(readsLatin(["chi_sim", "jpn_vert"])).toBe(false);
  });

  it("are read with each model once when a page's languages name a script both ways", () => {
    const installed = new Set(["jpn", "jpn_vert", "eng"]);
    // A vertical balloon of a page in `jpn+jpn_vert` was read twice with jpn_vert, the same reading.
    expect(modelsFor({ vertical: true }, ["jpn", "jpn_vert"], installed)).toEqual(["jpn_vert"]);
    expect(modelsFor({ vertical: false }, ["jpn", "jpn_vert"], installed)).toEqual(["jpn"]);
    expect(modelsFor({ vertical: true }, ["jpn", "eng"], installed)).toEqual(["jpn_vert", "eng"]);
  });
});
