import { env } from "cloudflare:workers";
import { drawObject, PDFDocument, PDFName, popGraphicsState, pushGraphicsState, scale as scaleOp } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { characterErrorRate } from "./cer";
import { failure, fixture, pageText, put, readPage, realFixture, realText } from "./helpers";

/** The stored page image of a preprocess call, as bytes. */
async function pageImage(key: string): Promise<Uint8Array> {
  const obj = await env.FILES.get(key);
  if (!obj) throw new Error(`no page image at ${key}`);
  return new Uint8Array(await obj.arrayBuffer());
}

describe("CCITT fax TIFF pages", () => {
  it("reads a real Group 4 page (tesseract's UNLV test page) close to its reference text", { timeout: 120_000 }, async () => {
    const key = await put("uploads/ccitt/8087.tif", realFixture("tess_8087_054.3B.tif"));
    expect(await env.ENGINE.inspect({ sourceKey: key })).toMatchObject({ format: "tiff", pages: 1 });
    const { pre, text } = await readPage("ccitt-8087", key, 0, ["eng"]);
    expect(pre.path).toBe("ocr");
    // Native tesseract reads this two-column page at 7.8 % CER against the reference (reading order included).
    const cer = characterErrorRate(realText("tess_8087_054.3B.txt"), text.text);
    expect(cer, text.text.slice(0, 400)).toBeLessThanOrEqual(0.1);
  });

  it(
    "decodes the same page coded as Group 3 1D, Group 3 2D and CCITT RLE to the same pixels as Group 4",
    { timeout: 120_000 },
    async () => {
      const images: Uint8Array[] = [];
      for (const coding of ["g4", "g3", "g3-2d", "rle"]) {
        const key = await put(`uploads/ccitt/top.${coding}.tif`, realFixture(`8087_054-top.${coding}.tif`));
        const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: `work/ccitt-top/${coding}.png`, languages: ["eng"] });
        expect([pre.width, pre.height]).toEqual([2560, 1000]);
        images.push(await pageImage(pre.key));
      }
      for (const img of images.slice(1)) expect(img).toEqual(images[0]);
      const rec = await env.ENGINE.recognize({
        pageKey: "work/ccitt-top/g3-2d.png",
        languages: ["eng"],
        outKey: "work/ccitt-top/text.json",
      });
      const { text } = await pageText(rec.key);
      expect(text).toContain("This is Greater Serbia");
      expect(text).toContain("Dubrovnik");
    },
  );
});

describe("TIFF Orientation tag", () => {
  it("turns a page stored sideways (Orientation 8, Group 4) upright before anything else", { timeout: 60_000 }, async () => {
    const key = await put("uploads/tiff-orientation/phototest.tif", realFixture("phototest.orientation8.g4.tif"));
    const { pre, text } = await readPage("tiff-orientation", key, 0, ["eng"]);
    expect([pre.width, pre.height, pre.rotation]).toEqual([640, 480, 0]);
    expect(characterErrorRate(realText("tess_phototest.gold.txt"), text.text), text.text).toBeLessThanOrEqual(0.02);
  });
});

describe("JPEG-compressed TIFF pages", () => {
  it("reads a JPEG (compression 7, shared JPEGTables) page of tesseract's phototest", { timeout: 60_000 }, async () => {
    const key = await put("uploads/tiff-jpeg/phototest.tif", realFixture("phototest.jpeg-gray.tif"));
    const { text } = await readPage("tiff-jpeg", key, 0, ["eng"]);
    const cer = characterErrorRate(realText("tess_phototest.gold.txt"), text.text);
    expect(cer, text.text).toBeLessThanOrEqual(0.02);
  });
});

describe("EXIF orientation of JPEG photos", () => {
  // tesseract.js's simple-90/180/270 are real camera-style files (Orientation 6, 3, 8); the others
  // store simple.jpg's pixels mirrored or transposed with the tag that undoes it (2, 4, 5, 7).
  const files: [number, string][] = [
    [1, "tjs_simple.jpg"],
    [2, "tjs_simple-exif2.jpg"],
    [3, "tjs_simple-180.jpg"],
    [4, "tjs_simple-exif4.jpg"],
    [5, "tjs_simple-exif5.jpg"],
    [6, "tjs_simple-90.jpg"],
    [7, "tjs_simple-exif7.jpg"],
    [8, "tjs_simple-270.jpg"],
  ];
  it.each(files)("Orientation %i (%s) is applied before anything else", { timeout: 60_000 }, async (orientation, name) => {
    const key = await put(`uploads/exif/${name}`, realFixture(name));
    const { pre, text } = await readPage(`exif-${orientation}`, key, 0, ["eng"]);
    // Upright from the tag alone: the orientation detector has nothing left to turn.
    expect([pre.width, pre.height, pre.rotation]).toEqual([320, 180, 0]);
    expect(text.text.trim()).toBe(realText("tjs_SIMPLE_TEXT.txt").trim());
  });
});

describe("PBM, PGM and PPM uploads", () => {
  it("reads tesseract.js's binary PBM (P4)", async () => {
    const key = await put("uploads/pnm/simple.pbm", realFixture("tjs_simple.pbm"));
    expect(await env.ENGINE.inspect({ sourceKey: key })).toMatchObject({ format: "pnm", pages: 1 });
    const { text } = await readPage("pnm-p4", key, 0, ["eng"]);
    expect(text.text.trim()).toBe(realText("tjs_SIMPLE_TEXT.txt").trim());
  });

  it.each(["pbm_p1", "pgm_p2", "ppm_p3"])("reads the text encoding %s (comments in the header)", { timeout: 60_000 }, async (name) => {
    const key = await put(`uploads/pnm/${name}`, fixture(name));
    expect(await env.ENGINE.inspect({ sourceKey: key })).toMatchObject({ format: "pnm", pages: 1 });
    const { text } = await readPage(`pnm-${name}`, key, 0, ["eng"]);
    expect(characterErrorRate("Netpbm text encodings read too.", text.text), text.text).toBeLessThanOrEqual(0.03);
  });

  it("checks sizes from the header: oversize and truncated files are refused before decoding", async () => {
    const huge = await put("uploads/pnm/huge.pgm", "P5\n30000 30000\n255\n\x00");
    expect((await failure(env.ENGINE.inspect({ sourceKey: huge }))).code).toBe("image_too_large");
    const pbm = realFixture("tjs_simple.pbm");
    const cut = await put("uploads/pnm/cut.pbm", pbm.subarray(0, pbm.length - 100));
    const err = await failure(env.ENGINE.inspect({ sourceKey: cut }));
    expect(err.code, err.message).toBe("corrupt_file");
  });
});

describe("no silent blank page (engine)", () => {
  it(
    "fails a PDF page whose image no decoder can read (drawn blank by pdf.js and the browser) as empty_page_image",
    { timeout: 120_000 },
    async () => {
      const pdf = await PDFDocument.create();
      const page = pdf.addPage([612, 792]);
      const data = new Uint8Array(4000).map((_, i) => (i * 131 + 7) & 0xff);
      const stream = pdf.context.stream(data, {
        Type: "XObject",
        Subtype: "Image",
        Width: 1700,
        Height: 2200,
        ColorSpace: "DeviceGray",
        BitsPerComponent: 1,
        Filter: "JBIG2Decode",
      });
      page.node.setXObject(PDFName.of("Im0"), pdf.context.register(stream));
      page.pushOperators(pushGraphicsState(), scaleOp(612, 792), drawObject("Im0"), popGraphicsState());
      const key = await put("uploads/blank/undecodable.pdf", await pdf.save());
      const err = await failure(
        env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/blank/undecodable.png", languages: ["eng"] }),
      );
      expect(err.code, err.message).toBe("empty_page_image");
      expect(err.message).toContain("not charged");
    },
  );
});

describe("encrypted and malformed PDFs", () => {
  it("refuses a password-protected PDF as encrypted_document, with advice", async () => {
    const key = await put("uploads/pdf/password.pdf", realFixture("pypdf_libreoffice-writer-password.pdf"));
    const err = await failure(env.ENGINE.inspect({ sourceKey: key }));
    expect(err.code).toBe("encrypted_document");
    expect(err.message).toMatch(/password/i);
    expect(err.message).toMatch(/remove/i);
  });

  it("opens a PDF encrypted with an empty user password (owner password only) and reads its text", async () => {
    const key = await put("uploads/pdf/owner-only.pdf", realFixture("minimal-document.owner-password.pdf"));
    expect(await env.ENGINE.inspect({ sourceKey: key })).toMatchObject({ format: "pdf" });
    const { pre, text } = await readPage("owner-only", key, 0, ["eng"]);
    expect(pre.path).toBe("text_layer");
    expect(text.text).toContain("Lorem ipsum dolor sit amet");
  });

  it("answers OCRmyPDF's invalid.pdf with corrupt_file and a plain message, no parser internals", async () => {
    const key = await put("uploads/pdf/invalid.pdf", realFixture("ocrmypdf_invalid.pdf"));
    const err = await failure(env.ENGINE.inspect({ sourceKey: key }));
    expect(err.code).toBe("corrupt_file");
    expect(err.message).toBe(
      "The PDF file is damaged: its structure cannot be read. Re-save or re-export it from the program that made it and upload it again.",
    );
  });
});
