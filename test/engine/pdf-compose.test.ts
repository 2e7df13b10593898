import { degrees, PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { withPage, withPdf } from "../../workers/engine/pdf/document";
import { composePageImages } from "../../workers/engine/pdf/page-compose";
import { rotateQuarter, type QuarterTurn } from "../../workers/engine/image/geometry";
import { encodeGrayPng } from "../../workers/engine/image/png";
import type { GrayImage } from "../../workers/engine/image/gray";

/** A 120x80 gray image with no symmetry: each pixel differs from its mirror and turned positions. */
function pattern(): GrayImage {
  const [w, h] = [120, 80];
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = (x * 7 + y * 13 + ((x * y) % 17)) & 0xff;
  return { width: w, height: h, data };
}

/** A 60x40 pt page filled by the image, shown with /Rotate `turn`. */
async function scanPage(turn: QuarterTurn): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([60, 40]);
  page.drawImage(await doc.embedPng(await encodeGrayPng(pattern())), { x: 0, y: 0, width: 60, height: 40 });
  page.setRotation(degrees(turn));
  return doc.save();
}

const compose = (bytes: Uint8Array, scale: number) =>
  withPdf(bytes, (doc) => withPage(doc, 0, async (p) => composePageImages(p, await p.getOperatorList(), scale)));

describe("a scan filling its page composes as a viewer shows it", () => {
  it("at the image's own resolution: its pixels unchanged, the whole page covered", async () => {
    const page = await compose(await scanPage(0), 2);
    expect(page).toMatchObject({ images: 1, clipped: 0, coverage: 1 });
    expect(page!.image).toEqual(pattern());
  });

  it("at half its resolution: each pixel the mean of the 2x2 it covers", async () => {
    const page = await compose(await scanPage(0), 1);
    const src = pattern();
    const mean = (x: number, y: number) =>
      Math.round(
        (src.data[2 * y * 120 + 2 * x]! +
          src.data[2 * y * 120 + 2 * x + 1]! +
          src.data[(2 * y + 1) * 120 + 2 * x]! +
          src.data[(2 * y + 1) * 120 + 2 * x + 1]!) /
          4,
      );
    expect(page!.image.width).toBe(60);
    expect(page!.image.height).toBe(40);
    expect([0, 17, 59 * 40 + 39, 33 * 60 + 21].map((o) => page!.image.data[o])).toEqual(
      [0, 17, 59 * 40 + 39, 33 * 60 + 21].map((o) => mean(o % 60, Math.floor(o / 60))),
    );
  });

  it.each([90, 180, 270] as const)("shown with /Rotate %i: the upright page turned, at full and half resolution", async (turn) => {
    for (const scale of [2, 1]) {
      const upright = await compose(await scanPage(0), scale);
      const turned = await compose(await scanPage(turn), scale);
      expect(turned).toMatchObject({ images: 1, coverage: 1 });
      expect(turned!.image).toEqual(rotateQuarter(upright!.image, turn));
    }
  });
});
