import { describe, expect, it } from "vitest";
import { decodePngToGray, encodeBlankGrayPng, encodeGrayPng } from "../../workers/engine/image/png";
import { decodeToGray } from "../../workers/engine/image/decode";
import { decodeWithPhoton } from "../../workers/engine/image/photon";

/** PNG colour types and their channels: gray, RGB, gray + alpha, RGBA. */
const TYPES = [
  { colorType: 0, channels: 1 },
  { colorType: 2, channels: 3 },
  { colorType: 4, channels: 2 },
  { colorType: 6, channels: 4 },
];

/** Pseudo-random bytes, with runs of white and of full opacity so both paths of the compositing are taken. */
function samples(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = (s >>> 16) % 5 === 0 ? 255 : (s >>> 8) & 0xff;
  }
  return out;
}

/** The PNG row filters as the specification defines them (encoder side), `bpp` bytes a pixel. */
function filterRow(type: number, row: Uint8Array, prev: Uint8Array, bpp: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(row.length + 1);
  out[0] = type;
  for (let i = 0; i < row.length; i++) {
    const a = i >= bpp ? row[i - bpp]! : 0;
    const b = prev[i]!;
    const c = i >= bpp ? prev[i - bpp]! : 0;
    const p = a + b - c;
    const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
    const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][type]!;
    out[i + 1] = (row[i]! - predictor) & 0xff;
  }
  return out;
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([data]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
}

/** CRC-32 of a chunk's type and data (photon checks it; the engine's decoder does not). */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * A PNG of `depth`-bit samples (`pixels`: one sample a byte, packed here) whose rows use the
 * filters 0, 1, 2, 3, 4, 0, 1, … in turn, with `extra` chunks (PLTE, tRNS) before its data.
 */
async function pngOf(
  pixels: Uint8Array,
  width: number,
  height: number,
  colorType: number,
  channels: number,
  depth = 8,
  extra: Record<string, Uint8Array> = {},
): Promise<Uint8Array> {
  const stride = Math.ceil((width * channels * depth) / 8);
  const bpp = Math.max(1, (channels * depth) >> 3);
  const raw = new Uint8Array(height * (stride + 1));
  let prev: Uint8Array = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const row = new Uint8Array(stride);
    for (let i = 0; i < width * channels; i++) {
      const bit = i * depth;
      row[bit >> 3]! |= pixels[y * width * channels + i]! << (8 - depth - (bit & 7));
    }
    raw.set(filterRow(y % 5, row, prev, bpp), y * (stride + 1));
    prev = row;
  }
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([depth, colorType, 0, 0, 0], 8);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr)];
  for (const [type, data] of Object.entries(extra)) parts.push(chunk(type, data));
  parts.push(chunk("IDAT", await deflate(raw)), chunk("IEND", new Uint8Array(0)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

/** Gray of one pixel: Rec. 601 luma in 8-bit fixed point, alpha composited over white. */
function expectedGray(px: Uint8Array, channels: number): number {
  const g = channels <= 2 ? px[0]! : (px[0]! * 77 + px[1]! * 150 + px[2]! * 29) >> 8;
  const alpha = channels === 2 ? px[1]! : channels === 4 ? px[3]! : 255;
  return alpha === 255 ? g : Math.floor((g * alpha + 255 * (255 - alpha) + 127) / 255);
}

describe("PNG decoding to gray", () => {
  it.each(TYPES)("undoes every row filter (colour type $colorType)", async ({ colorType, channels }) => {
    const [width, height] = [37, 23];
    const pixels = samples(width * height * channels, colorType + 1);
    const gray = await decodePngToGray(await pngOf(pixels, width, height, colorType, channels));
    expect(gray).not.toBeNull();
    expect([gray!.width, gray!.height]).toEqual([width, height]);
    const expected = Array.from({ length: width * height }, (_, i) =>
      expectedGray(pixels.subarray(i * channels, (i + 1) * channels), channels),
    );
    expect(Array.from(gray!.data)).toEqual(expected);
  });
});

/**
 * Flavours of PNG scanners and image editors save besides 8-bit colour: packed gray (bilevel
 * scans), palettes of 2–256 colours, and the transparency chunk of each.
 */
const PACKED = [
  { name: "1-bit gray", colorType: 0, depth: 1 },
  { name: "2-bit gray", colorType: 0, depth: 2 },
  { name: "4-bit gray with a transparent value", colorType: 0, depth: 4, trns: [0, 9] },
  { name: "8-bit gray with a transparent value", colorType: 0, depth: 8, trns: [0, 200] },
  { name: "1-bit palette", colorType: 3, depth: 1 },
  { name: "2-bit palette with transparency", colorType: 3, depth: 2, trns: [255, 0, 128] },
  { name: "4-bit palette", colorType: 3, depth: 4 },
  { name: "8-bit palette with transparency", colorType: 3, depth: 8, trns: [0, 64, 255, 3] },
];

describe("PNG decoding of packed and palette images", () => {
  it.each(PACKED)("reads $name as photon does, without photon", async ({ colorType, depth, trns }) => {
    const [width, height] = [45, 17]; // rows that end inside a byte at every depth
    const values = 1 << depth;
    const pixels = samples(width * height, depth * 7 + colorType).map((v) => v % values);
    const extra: Record<string, Uint8Array> = {};
    if (colorType === 3) extra.PLTE = samples(3 * values, 99);
    if (trns) extra.tRNS = new Uint8Array(trns);
    const png = await pngOf(pixels, width, height, colorType, 1, depth, extra);
    const gray = await decodePngToGray(png);
    expect(gray).not.toBeNull();
    const photon = decodeWithPhoton(png, "PNG image", width * height);
    expect([gray!.width, gray!.height]).toEqual([photon.width, photon.height]);
    expect(Array.from(gray!.data)).toEqual(Array.from(photon.data));
    // Not one flat gray: the samples span the depth's range.
    expect(new Set(gray!.data).size).toBeGreaterThan(Math.min(values, 4) - 1);
  });

  it("reads an RGB image's transparent colour as photon does", async () => {
    const [width, height] = [31, 9];
    const pixels = samples(width * height * 3, 5);
    pixels.set([pixels[0]!, pixels[1]!, pixels[2]!], 30); // the transparent colour occurs twice
    const png = await pngOf(pixels, width, height, 2, 3, 8, { tRNS: new Uint8Array([0, pixels[0]!, 0, pixels[1]!, 0, pixels[2]!]) });
    const gray = await decodePngToGray(png);
    expect(gray!.data[0]).toBe(255);
    expect(Array.from(gray!.data)).toEqual(Array.from(decodeWithPhoton(png, "PNG image", width * height).data));
  });

  it("refuses a 16-bit PNG above photon's limit as too large, before decoding it", async () => {
    // 4000 × 3000 pixels of 16-bit gray declared; the data is never read.
    const ihdr = new Uint8Array(13);
    new DataView(ihdr.buffer).setUint32(0, 4000);
    new DataView(ihdr.buffer).setUint32(4, 3000);
    ihdr.set([16, 0, 0, 0, 0], 8);
    const signature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const parts = [signature, chunk("IHDR", ihdr), chunk("IDAT", await deflate(new Uint8Array(64))), chunk("IEND", new Uint8Array(0))];
    const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (png.set(p, at), at + p.length), 0);
    await expect(decodeToGray(png, "png")).rejects.toThrow(/image_too_large.*16-bit or interlaced/);
  });

  it("fails a palette image without its palette as corrupt", async () => {
    const png = await pngOf(new Uint8Array(64), 8, 8, 3, 1, 4);
    await expect(decodePngToGray(png)).rejects.toThrow(/corrupt.*palette/);
  });
});

describe("page PNG encoding", () => {
  it("stores gray rows unfiltered, across parts handed to the compressor, and decodes to the same pixels", async () => {
    const [width, height] = [53, 150];
    const data = samples(width * height, 7);
    const png = await encodeGrayPng({ width, height, data });
    const gray = await decodePngToGray(png);
    expect([gray!.width, gray!.height]).toEqual([width, height]);
    expect(Array.from(gray!.data)).toEqual(Array.from(data));
    // Each inflated row starts with its filter byte: 0 (None), and holds the pixels as they are.
    const dv = new DataView(png.buffer, png.byteOffset);
    const idat = png.subarray(41, 41 + dv.getUint32(33));
    expect(String.fromCharCode(...png.subarray(37, 41))).toBe("IDAT");
    const raw = new Uint8Array(await new Response(new Blob([idat]).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer());
    expect(raw).toHaveLength(height * (width + 1));
    for (let y = 0; y < height; y++) {
      expect(raw[y * (width + 1)]).toBe(0);
      expect(raw.subarray(y * (width + 1) + 1, (y + 1) * (width + 1))).toEqual(data.subarray(y * width, (y + 1) * width));
    }
  });

  it("stores a black-and-white image at 1 bit a pixel, which decodes to the same pixels here and in photon", async () => {
    const [width, height] = [77, 130]; // rows that end inside a byte, across parts
    const data = samples(width * height, 11).map((v) => (v & 1 ? 255 : 0));
    const png = await encodeGrayPng({ width, height, data });
    expect([png[24], png[25]]).toEqual([1, 0]); // bit depth 1, gray
    expect(Array.from((await decodePngToGray(png))!.data)).toEqual(Array.from(data));
    expect(Array.from(decodeWithPhoton(png, "PNG image", width * height).data)).toEqual(Array.from(data));
    // One gray level more and it is 8 bits again.
    data[5] = 128;
    const gray = await encodeGrayPng({ width, height, data });
    expect(gray[24]).toBe(8);
    expect(Array.from((await decodePngToGray(gray))!.data)).toEqual(Array.from(data));
  });

  it("writes a blank canvas as a white image of its size", async () => {
    const png = await encodeBlankGrayPng(61, 70);
    const gray = await decodePngToGray(png);
    expect([gray!.width, gray!.height]).toEqual([61, 70]);
    expect(gray!.data.every((v) => v === 255)).toBe(true);
    expect(png).toEqual(await encodeGrayPng({ width: 61, height: 70, data: new Uint8Array(61 * 70).fill(255) }));
  });
});
