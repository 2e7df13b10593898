import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { characterErrorRate } from "./cer";
import { failure, fixture, put, readPage } from "./helpers";

const TIFF_TEXT = (n: number) => `Page ${n} of the multi page scan. Compressed strips decode to the same text.`;

describe("TIFF pages", () => {
  it("reads every page of a multi-page TIFF: uncompressed, LZW, PackBits and Deflate (RGB)", async () => {
    const key = await put("uploads/tiff/multi.tif", fixture("tiff_multi"));
    expect(await env.ENGINE.inspect({ sourceKey: key })).toMatchObject({ format: "tiff", pages: 4 });
    for (let page = 0; page < 4; page++) {
      const { pre, text } = await readPage("tiff", key, page, ["eng"]);
      expect(pre.path).toBe("ocr");
      const cer = characterErrorRate(TIFF_TEXT(page + 1), text.text);
      expect(cer, `page ${page + 1}: ${JSON.stringify(text.text)}`).toBeLessThanOrEqual(0.03);
    }
  });

  it("fails only the unreadable pages of a damaged TIFF", async () => {
    const key = await put("uploads/tiff/damaged.tif", fixture("tiff_damaged"));
    expect(await env.ENGINE.inspect({ sourceKey: key })).toMatchObject({ format: "tiff", pages: 3 });
    const { text } = await readPage("tiff-damaged", key, 0, ["eng"]);
    expect(characterErrorRate(TIFF_TEXT(1), text.text), text.text).toBeLessThanOrEqual(0.03);
    const bad = await failure(env.ENGINE.preprocess({ sourceKey: key, page: 1, outKey: "work/tiff-damaged/p1.png" }));
    expect(bad.code, bad.message).toBe("corrupt_file");
    const g4 = await failure(env.ENGINE.preprocess({ sourceKey: key, page: 2, outKey: "work/tiff-damaged/p2.png" }));
    expect(g4.code, g4.message).toBe("corrupt_file");
    expect(g4.message).toContain("CCITT");
  });
});

describe("disguised and corrupt uploads", () => {
  it("judges by bytes: a PNG named .pdf is a PNG, a PDF named .jpg is a PDF, HTML named .png is refused", async () => {
    const png = await put("uploads/disguise/scan.pdf", fixture("scan_png"));
    expect(await env.ENGINE.inspect({ sourceKey: png })).toMatchObject({ format: "png", pages: 1 });
    const pdf = await put("uploads/disguise/photo.jpg", fixture("pdf_vector"));
    expect(await env.ENGINE.inspect({ sourceKey: pdf })).toMatchObject({ format: "pdf", pages: 1 });
    const html = await put("uploads/disguise/page.png", "<!doctype html><html><body>not an image</body></html>");
    expect((await failure(env.ENGINE.inspect({ sourceKey: html }))).code).toBe("unsupported_media_type");
    expect((await failure(env.ENGINE.preprocess({ sourceKey: html, page: 0, outKey: "work/disguise/p.png" }))).code).toBe(
      "unsupported_media_type",
    );
  });

  it("refuses a truncated TIFF and a PDF whose body is garbage as corrupt_file", async () => {
    const tiff = fixture("tiff_multi");
    const cut = await put("uploads/corrupt/cut.tif", tiff.subarray(0, Math.floor(tiff.length / 3)));
    expect((await failure(env.ENGINE.inspect({ sourceKey: cut }))).code).toBe("corrupt_file");
    const junk = new TextEncoder().encode("%PDF-1.7\n" + "garbage ".repeat(200) + "\n%%EOF\n");
    const pdf = await put("uploads/corrupt/junk.pdf", junk);
    expect((await failure(env.ENGINE.inspect({ sourceKey: pdf }))).code).toBe("corrupt_file");
    expect((await failure(env.ENGINE.preprocess({ sourceKey: pdf, page: 0, outKey: "work/corrupt/p.png" }))).code).toBe("corrupt_file");
  });

  it("refuses a large JPEG with no image data as corrupt, without allocating its pixels", async () => {
    // SOI, SOF0 declaring 4000x3000 (12 MP: decoded at a smaller size), EOI: no pixel data at all.
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x0b, 0xb8, 0x0f, 0xa0, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9]);
    const key = await put("uploads/corrupt/huge.jpg", jpeg);
    const err = await failure(env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/corrupt/huge.png" }));
    expect(err.code, err.message).toBe("corrupt_file");
  });
});
