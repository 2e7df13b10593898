import { describe, expect, it } from "vitest";
import { luma } from "../../workers/engine/image/gray";
import { decodeTiffPage, decodeTiffPageRgba } from "../../workers/engine/image/tiff";
import { writeTiff } from "./tiff-writer.mjs";

const [W, H] = [7, 5];

/** A different colour at every pixel: red across, green down, blue against red. */
function rgbPixels(): Uint8Array {
  const px = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) px.set([x * 36, y * 60, 255 - x * 30], (y * W + x) * 3);
  return px;
}

/** The RGBA a page of RGB pixels should decode to: its colours, opaque. */
function opaque(rgb: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < rgb.length; i += 3) out.push(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!, 255);
  return out;
}

describe("TIFF pages in colour", () => {
  it.each(["none", "lzw", "packbits", "deflate"])(
    "decodes an RGB page (%s) to its own colours, and to their luma in gray",
    async (compression) => {
      const rgb = rgbPixels();
      const tiff = writeTiff([{ width: W, height: H, samples: 3, pixels: rgb, compression, rowsPerStrip: 2 }]);
      const colour = await decodeTiffPageRgba(tiff, 0);
      expect(colour && [colour.width, colour.height]).toEqual([W, H]);
      expect(Array.from(colour!.data)).toEqual(opaque(rgb));
      const gray = await decodeTiffPage(tiff, 0);
      expect(Array.from(gray.data)).toEqual(Array.from({ length: W * H }, (_, i) => luma(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!)));
    },
  );

  it("decodes a palette page through its colour map", async () => {
    const colorMap = new Array<number>(768).fill(0);
    const entries: [number, number, number][] = [
      [200, 30, 40],
      [10, 120, 230],
      [250, 250, 250],
    ];
    entries.forEach(([r, g, b], i) => {
      colorMap[i] = r << 8;
      colorMap[256 + i] = g << 8;
      colorMap[512 + i] = b << 8;
    });
    const indices = Uint8Array.from({ length: W * H }, (_, i) => i % 3);
    const tiff = writeTiff([{ width: W, height: H, samples: 1, photometric: 3, colorMap, pixels: indices, compression: "lzw" }]);
    const colour = await decodeTiffPageRgba(tiff, 0);
    expect(Array.from(colour!.data)).toEqual(opaque(Uint8Array.from([...indices].flatMap((i) => entries[i]!))));
  });

  it("decodes a CMYK page to the colours its inks leave on white", async () => {
    // Magenta alone, cyan with half black, no ink, full black.
    const inks = [
      [0, 255, 0, 0],
      [255, 0, 0, 128],
      [0, 0, 0, 0],
      [0, 0, 0, 255],
    ];
    const pixels = Uint8Array.from({ length: W * H * 4 }, (_, i) => inks[Math.floor(i / 4) % 4]![i % 4]!);
    const tiff = writeTiff([{ width: W, height: H, samples: 4, photometric: 5, pixels, compression: "none" }]);
    const colour = await decodeTiffPageRgba(tiff, 0);
    const expected = [
      [255, 0, 255],
      [0, 127, 127],
      [255, 255, 255],
      [0, 0, 0],
    ];
    expect(Array.from(colour!.data)).toEqual(Array.from({ length: W * H }, (_, i) => [...expected[i % 4]!, 255]).flat());
  });

  it("has no colour decoding for a gray page, and decodes the page asked for in a file of several", async () => {
    const gray = Uint8Array.from({ length: W * H }, (_, i) => (i * 7) % 256);
    const rgb = rgbPixels();
    const tiff = writeTiff([
      { width: W, height: H, samples: 1, pixels: gray, compression: "none" },
      { width: W, height: H, samples: 3, pixels: rgb, compression: "lzw" },
    ]);
    expect(await decodeTiffPageRgba(tiff, 0)).toBeNull();
    expect(Array.from((await decodeTiffPageRgba(tiff, 1))!.data)).toEqual(opaque(rgb));
    await expect(decodeTiffPageRgba(tiff, 2)).rejects.toThrow(/does not exist/);
  });
});
