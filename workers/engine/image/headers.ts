import type { InputFormat } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { MAX_PHOTON_PIXELS } from "../memory";
import { jpegPixelLimit } from "./jpeg-scaled";
import { assertDimensions } from "./limits";
import { readPnmHeader } from "./pnm";

/** What the headers of a raster file say, read without decoding pixels. */
export interface RasterProbe {
  width: number;
  height: number;
  pages: number;
}

const corrupt = (format: string, why: string) =>
  engineError("corrupt_file", `The ${format.toUpperCase()} file is truncated or corrupt: ${why}.`);

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function probePng(b: Uint8Array): RasterProbe {
  const dv = view(b);
  if (b.length < 33 || dv.getUint32(8) !== 13 || String.fromCharCode(...b.subarray(12, 16)) !== "IHDR")
    throw corrupt("png", "no IHDR header");
  const width = dv.getUint32(16);
  const height = dv.getUint32(20);
  assertDimensions(width, height, "PNG image");
  // Walk the chunks: every declared length must fit, and the stream must end with IEND.
  let off = 8;
  let sawData = false;
  for (;;) {
    if (off + 12 > b.length) throw corrupt("png", "the chunk stream ends early");
    const len = dv.getUint32(off);
    const type = String.fromCharCode(...b.subarray(off + 4, off + 8));
    if (off + 12 + len > b.length) throw corrupt("png", `chunk ${type} runs past the end of the file`);
    if (type === "IDAT") sawData = true;
    off += 12 + len;
    if (type === "IEND") break;
  }
  if (!sawData) throw corrupt("png", "no image data");
  return { width, height, pages: 1 };
}

function probeJpeg(b: Uint8Array): RasterProbe {
  const dv = view(b);
  let off = 2;
  let dims: { width: number; height: number } | null = null;
  while (off + 4 <= b.length) {
    if (b[off] !== 0xff) throw corrupt("jpeg", "bad marker");
    const marker = b[off + 1]!;
    if (marker === 0xff) {
      off += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      off += 2;
      continue;
    }
    const len = dv.getUint16(off + 2);
    if (len < 2 || off + 2 + len > b.length) throw corrupt("jpeg", "a segment runs past the end of the file");
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof && !dims) {
      if (len < 7) throw corrupt("jpeg", "short frame header");
      dims = { height: dv.getUint16(off + 5), width: dv.getUint16(off + 7) };
    }
    if (marker === 0xda) break; // start of scan: entropy-coded data follows
    off += 2 + len;
  }
  if (!dims) throw corrupt("jpeg", "no frame header");
  assertDimensions(dims.width, dims.height, "JPEG image", jpegPixelLimit(b));
  // A complete JPEG ends with EOI (FFD9); tolerate a little trailing padding.
  const tail = b.subarray(Math.max(0, b.length - 1024));
  let eoi = false;
  for (let i = tail.length - 2; i >= 0; i--) {
    if (tail[i] === 0xff && tail[i + 1] === 0xd9) {
      eoi = true;
      break;
    }
  }
  if (!eoi) throw corrupt("jpeg", "no end-of-image marker");
  return { ...dims, pages: 1 };
}

function probeGif(b: Uint8Array): RasterProbe {
  if (b.length < 14) throw corrupt("gif", "short header");
  const dv = view(b);
  const width = dv.getUint16(6, true);
  const height = dv.getUint16(8, true);
  assertDimensions(width, height, "GIF image", MAX_PHOTON_PIXELS);
  const tail = b.subarray(Math.max(0, b.length - 16));
  if (!tail.includes(0x3b)) throw corrupt("gif", "no trailer");
  return { width, height, pages: 1 };
}

function probeBmp(b: Uint8Array): RasterProbe {
  const dv = view(b);
  if (b.length < 26) throw corrupt("bmp", "short header");
  const dataOffset = dv.getUint32(10, true);
  const dib = dv.getUint32(14, true);
  let width: number,
    height: number,
    bpp: number,
    compression = 0;
  if (dib === 12) {
    width = dv.getUint16(18, true);
    height = dv.getUint16(20, true);
    bpp = dv.getUint16(24, true);
  } else {
    if (b.length < 34) throw corrupt("bmp", "short info header");
    width = dv.getInt32(18, true);
    height = Math.abs(dv.getInt32(22, true));
    bpp = dv.getUint16(28, true);
    compression = dv.getUint32(30, true);
  }
  assertDimensions(width, height, "BMP image", MAX_PHOTON_PIXELS);
  if (dataOffset >= b.length) throw corrupt("bmp", "the pixel data lies past the end of the file");
  if (compression === 0 || compression === 3) {
    const rowBytes = Math.ceil((width * bpp) / 32) * 4;
    if (dataOffset + rowBytes * height > b.length) throw corrupt("bmp", "the pixel data is cut short");
  }
  return { width, height, pages: 1 };
}

function probeWebp(b: Uint8Array): RasterProbe {
  const dv = view(b);
  if (b.length < 30) throw corrupt("webp", "short header");
  const riffSize = dv.getUint32(4, true);
  if (riffSize + 8 > b.length) throw corrupt("webp", "the RIFF container runs past the end of the file");
  const chunk = String.fromCharCode(...b.subarray(12, 16));
  let width: number, height: number;
  if (chunk === "VP8 ") {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) throw corrupt("webp", "bad VP8 start code");
    width = dv.getUint16(26, true) & 0x3fff;
    height = dv.getUint16(28, true) & 0x3fff;
  } else if (chunk === "VP8L") {
    if (b[20] !== 0x2f) throw corrupt("webp", "bad VP8L signature");
    const bits = dv.getUint32(21, true);
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
  } else if (chunk === "VP8X") {
    width = (b[24]! | (b[25]! << 8) | (b[26]! << 16)) + 1;
    height = (b[27]! | (b[28]! << 8) | (b[29]! << 16)) + 1;
  } else {
    throw corrupt("webp", `unknown chunk ${JSON.stringify(chunk)}`);
  }
  assertDimensions(width, height, "WebP image", MAX_PHOTON_PIXELS);
  return { width, height, pages: 1 };
}

const TIFF_TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 16: 8 };

/** Counts the IFDs (pages); checks each page's size and that its strips or tiles lie inside the file. */
function probeTiff(b: Uint8Array): RasterProbe {
  const dv = view(b);
  if (b.length < 8) throw corrupt("tiff", "short header");
  const le = b[0] === 0x49;
  const u16 = (o: number) => dv.getUint16(o, le);
  const u32 = (o: number) => dv.getUint32(o, le);
  const seen = new Set<number>();
  let ifd = u32(4);
  let pages = 0;
  let first: { width: number; height: number } | null = null;
  while (ifd !== 0) {
    if (seen.has(ifd) || pages >= 10_000) throw corrupt("tiff", "the page chain loops");
    seen.add(ifd);
    if (ifd + 2 > b.length) throw corrupt("tiff", "a page directory lies past the end of the file");
    const count = u16(ifd);
    if (ifd + 2 + count * 12 + 4 > b.length) throw corrupt("tiff", "a page directory is cut short");
    const tags = new Map<number, number[]>();
    for (let i = 0; i < count; i++) {
      const e = ifd + 2 + i * 12;
      const tag = u16(e);
      const type = u16(e + 2);
      const n = u32(e + 4);
      const size = TIFF_TYPE_SIZES[type];
      if (!size || (tag !== 256 && tag !== 257 && tag !== 273 && tag !== 279 && tag !== 324 && tag !== 325)) continue;
      const at = n * size <= 4 ? e + 8 : u32(e + 8);
      if (at + n * size > b.length) throw corrupt("tiff", `tag ${tag} points past the end of the file`);
      const values: number[] = [];
      for (let k = 0; k < Math.min(n, 100_000); k++) values.push(type === 3 ? u16(at + k * 2) : u32(at + k * 4));
      tags.set(tag, values);
    }
    const width = tags.get(256)?.[0] ?? 0;
    const height = tags.get(257)?.[0] ?? 0;
    assertDimensions(width, height, `TIFF page ${pages + 1}`);
    for (const [offTag, lenTag] of [
      [273, 279],
      [324, 325],
    ] as const) {
      const offs = tags.get(offTag) ?? [];
      const lens = tags.get(lenTag) ?? [];
      offs.forEach((o, k) => {
        if (o + (lens[k] ?? 0) > b.length) throw corrupt("tiff", "image data runs past the end of the file");
      });
    }
    first ??= { width, height };
    pages++;
    ifd = u32(ifd + 2 + count * 12);
  }
  if (!first) throw corrupt("tiff", "no pages");
  return { ...first, pages };
}

/** Reads dimensions and page count from a raster file's headers, refusing oversize or truncated files. */
export function probeRaster(bytes: Uint8Array, format: Exclude<InputFormat, "pdf">): RasterProbe {
  try {
    switch (format) {
      case "png":
        return probePng(bytes);
      case "jpeg":
        return probeJpeg(bytes);
      case "gif":
        return probeGif(bytes);
      case "bmp":
        return probeBmp(bytes);
      case "webp":
        return probeWebp(bytes);
      case "tiff":
        return probeTiff(bytes);
      case "pnm": {
        const h = readPnmHeader(bytes);
        return { width: h.width, height: h.height, pages: 1 };
      }
    }
  } catch (err) {
    if (err instanceof RangeError) throw corrupt(format, "a header field points outside the file");
    throw err;
  }
}
