import { env } from "cloudflare:workers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { decodePngToGray, encodeBlankGrayPng, encodeGrayPng } from "../../workers/engine/image/png";
import { failure, fixture, put } from "./helpers";

const LINES = [
  "Quarterly report of the regional water board, second quarter.",
  "Rainfall was eleven percent above the ten-year average in May.",
  "Reservoir levels stayed between seventy and eighty-two percent.",
  "Two pumping stations were renewed; a third is out for tender.",
  "Household consumption fell by three percent against last year.",
  "The board meets again on the fourteenth of October at ten.",
];

/** A text-layer page (its text covers a few percent of the page) over an image covering 60 % of it. */
async function layerOverImage(image: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  const png = await doc.embedPng(image);
  page.drawImage(png, { x: 0, y: 842 - 505, width: 595, height: 505 });
  LINES.forEach((l, i) => page.drawText(l, { x: 40, y: 300 - i * 30, size: 15, font }));
  return doc.save();
}

describe("images on text-layer pages are checked, not composed for the page image", { timeout: 120_000 }, () => {
  it("a page with a real picture under its own text is read from its layer", async () => {
    const key = await put("uploads/layer-images/picture.pdf", await layerOverImage(fixture("scan_png")));
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/layer-images/picture.png", pageImage: "background" });
    expect(pre.path).toBe("text_layer");
    const text = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/layer-images/picture.json" });
    expect(text).toMatchObject({ path: "text_layer", words: LINES.join(" ").split(" ").length });
  });

  it("a picture that decodes white still fails the page (confirmed at full resolution), never passes blank", async () => {
    const white = await encodeGrayPng({ width: 400, height: 340, data: new Uint8Array(400 * 340).fill(255) });
    const key = await put("uploads/layer-images/white.pdf", await layerOverImage(white));
    const err = await failure(
      env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/layer-images/white.png", pageImage: "background" }),
    );
    expect(err.code, err.message).toBe("empty_page_image");
  });
});

describe("blank canvas PNG", () => {
  it.each([
    [2480, 3508],
    [17, 5],
    [1, 1],
  ])("%ix%i: the same file as encoding a white image pixel by pixel, also when cached", async (width, height) => {
    const reference = await encodeGrayPng({ width, height, data: new Uint8Array(width * height).fill(255) });
    for (let i = 0; i < 2; i++) {
      const png = await encodeBlankGrayPng(width, height);
      expect(png).toEqual(reference);
      const back = await decodePngToGray(png);
      expect([back!.width, back!.height, back!.data.every((v) => v === 255)]).toEqual([width, height, true]);
    }
  });
});
