import { PhotonImage } from "@cf-wasm/photon";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InputFormat } from "../../workers/shared/engine-contract";
import { failure, put } from "./helpers";
import { bmpBytes, GIF_1X1, jpegBytes, pdfBytes, pngBytes, pngHeaderOnly, tiffBytes, webpBytes } from "./fixtures";

describe("inspect", () => {
  const cases: [string, InputFormat, () => Promise<Uint8Array> | Uint8Array, number][] = [
    ["png", "png", () => pngBytes(), 1],
    ["jpeg", "jpeg", jpegBytes, 1],
    ["webp", "webp", webpBytes, 1],
    ["gif", "gif", () => GIF_1X1, 1],
    ["bmp", "bmp", () => bmpBytes(), 1],
    ["tiff (3 pages)", "tiff", () => tiffBytes(3), 3],
    ["pdf (4 pages)", "pdf", () => pdfBytes(4), 4],
  ];
  for (const [name, format, make, pages] of cases) {
    it(`detects ${name} from its magic bytes`, async () => {
      const bytes = await make();
      // The key's extension is deliberately misleading: only the bytes count.
      const key = await put(`uploads/inspect/${name}.bin`, bytes);
      expect(await env.ENGINE.inspect({ sourceKey: key })).toEqual({ format, pages, bytes: bytes.length });
    });
  }

  it("refuses a text file named .png as unsupported_media_type", async () => {
    const key = await put("uploads/inspect/disguised.png", "just some text, not an image\n");
    expect((await failure(env.ENGINE.inspect({ sourceKey: key }))).code).toBe("unsupported_media_type");
  });

  it("refuses a zero-byte file as unsupported_media_type", async () => {
    const key = await put("uploads/inspect/empty.png", new Uint8Array(0));
    const err = await failure(env.ENGINE.inspect({ sourceKey: key }));
    expect(err.code).toBe("unsupported_media_type");
    expect(err.message).toMatch(/empty/);
  });

  it("answers not_found for a missing object", async () => {
    expect((await failure(env.ENGINE.inspect({ sourceKey: "uploads/inspect/nothing-here" }))).code).toBe("not_found");
  });

  it("refuses truncated files as corrupt_file", async () => {
    const png = pngBytes();
    const truncated: [string, Uint8Array][] = [
      ["png", png.subarray(0, Math.floor(png.length / 2))],
      ["png-header-only", png.subarray(0, 40)],
      ["jpeg", jpegBytes().subarray(0, 300)],
      ["webp", webpBytes().subarray(0, 60)],
      ["bmp", bmpBytes().subarray(0, 100)],
      ["tiff", tiffBytes(2).subarray(0, 200)],
      ["pdf", (await pdfBytes(2)).subarray(0, 500)],
    ];
    for (const [name, bytes] of truncated) {
      const key = await put(`uploads/inspect/truncated-${name}`, bytes);
      const err = await failure(env.ENGINE.inspect({ sourceKey: key }));
      expect([name, err.code]).toEqual([name, "corrupt_file"]);
    }
  });

  it("refuses a PNG declaring 50000x50000 as image_too_large, from its header alone", async () => {
    const bomb = pngHeaderOnly(50_000, 50_000);
    expect(bomb.length).toBeLessThan(100);
    const key = await put("uploads/inspect/bomb.png", bomb);
    const err = await failure(env.ENGINE.inspect({ sourceKey: key }));
    expect(err.code).toBe("image_too_large");
    expect(err.message).toContain("50000x50000");
    // preprocess checks the header before decoding, too.
    const pre = await failure(env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/inspect/bomb.png" }));
    expect(pre.code).toBe("image_too_large");
    // Over the side limit alone (20001 x 10 is only 0.2 MP).
    const wide = await put("uploads/inspect/wide.png", pngHeaderOnly(20_001, 10));
    expect((await failure(env.ENGINE.inspect({ sourceKey: wide }))).code).toBe("image_too_large");
  });
});

describe("preprocess decodes every raster format", () => {
  const rasters: [string, () => Uint8Array, number, number][] = [
    ["png", () => pngBytes(), 160, 60],
    ["jpeg", jpegBytes, 160, 60],
    ["webp", webpBytes, 160, 60],
    ["gif", () => GIF_1X1, 1, 1],
    ["bmp", () => bmpBytes(), 40, 30],
  ];
  for (const [name, make, width, height] of rasters) {
    it(`${name} → grayscale PNG`, async () => {
      const key = await put(`uploads/pre/${name}`, make());
      const out = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: `work/pre/${name}.png` });
      expect(out).toMatchObject({ key: `work/pre/${name}.png`, width, height, rotation: 0, path: "ocr", skew: 0 });
      const png = new Uint8Array(await (await env.FILES.get(out.key))!.arrayBuffer());
      expect(await env.ENGINE.inspect({ sourceKey: out.key })).toEqual({ format: "png", pages: 1, bytes: png.length });
      expect(png[25]).toBe(0); // grayscale
    });
  }

  it("keeps the picture: the BMP's black square stays dark on white", async () => {
    const key = await put("uploads/pre/square.bmp", bmpBytes(40, 30));
    const out = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/pre/square.png" });
    const img = PhotonImage.new_from_byteslice(new Uint8Array(await (await env.FILES.get(out.key))!.arrayBuffer()));
    const px = img.get_raw_pixels();
    const at = (x: number, y: number) => px[(y * img.get_width() + x) * 4]!;
    expect([img.get_width(), img.get_height()]).toEqual([40, 30]);
    expect(at(15, 15)).toBe(0);
    expect(at(2, 2)).toBe(255);
    expect(at(38, 28)).toBe(255);
    img.free();
  });

  it("decodes the requested page of a multi-page TIFF, and refuses a page past the end", async () => {
    const tiff = await put("uploads/pre/doc.tiff", tiffBytes(3));
    const out = await env.ENGINE.preprocess({ sourceKey: tiff, page: 2, outKey: "work/pre/t.png" });
    expect(out).toMatchObject({ width: 8, height: 4, path: "ocr" });
    expect((await failure(env.ENGINE.preprocess({ sourceKey: tiff, page: 3, outKey: "work/pre/t3.png" }))).code).toBe("validation_error");
  });

  it("a corrupt image body (valid header, garbage data) is corrupt_file, never a raw decoder error", async () => {
    const png = pngBytes();
    // Keep the chunk structure but scramble the IDAT payload.
    const broken = png.slice();
    const dv = new DataView(broken.buffer);
    let off = 8;
    while (off < broken.length) {
      const len = dv.getUint32(off);
      const type = String.fromCharCode(...broken.subarray(off + 4, off + 8));
      if (type === "IDAT") broken.fill(0xa5, off + 8, off + 8 + len);
      off += 12 + len;
    }
    const key = await put("uploads/pre/broken.png", broken);
    expect((await failure(env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/pre/b.png" }))).code).toBe("corrupt_file");
    const jpeg = jpegBytes().slice();
    jpeg.fill(0x00, 200, jpeg.length - 2);
    const jkey = await put("uploads/pre/broken.jpg", jpeg);
    expect((await failure(env.ENGINE.preprocess({ sourceKey: jkey, page: 0, outKey: "work/pre/j.png" }))).code).toBe("corrupt_file");
    // The decoder is still usable after refusing a corrupt file.
    const good = await put("uploads/pre/good.jpg", jpegBytes());
    expect(await env.ENGINE.preprocess({ sourceKey: good, page: 0, outKey: "work/pre/good.png" })).toMatchObject({
      width: 160,
      height: 60,
    });
  });
});
