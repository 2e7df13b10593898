import { describe, expect, it } from "vitest";
import { decodePngToGray, encodeGrayPng } from "../../workers/engine/image/png";

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

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  new DataView(out.buffer).setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  return out; // the decoder does not check CRCs
}

/** An 8-bit PNG whose rows use the filters 0, 1, 2, 3, 4, 0, 1, … in turn. */
async function pngOf(pixels: Uint8Array, width: number, height: number, colorType: number, channels: number): Promise<Uint8Array> {
  const stride = width * channels;
  const raw = new Uint8Array(height * (stride + 1));
  let prev: Uint8Array = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    raw.set(filterRow(y % 5, row, prev, channels), y * (stride + 1));
    prev = row;
  }
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, colorType, 0, 0, 0], 8);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", await deflate(raw))];
  parts.push(chunk("IEND", new Uint8Array(0)));
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
});
