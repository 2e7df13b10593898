import { engineError } from "../errors";
import { enlargedRgbRows } from "./enlarge";
import { luma, type GrayImage } from "./gray";
import { concat, pipeThroughStream } from "./streams";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const p of parts) for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  const typeBytes = new TextEncoder().encode(type);
  out.set(typeBytes, 4);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32([typeBytes, data]));
  return out;
}

/** Rows handed to the compressor at a time. */
const ROWS_PER_PART = 64;

/** A PNG (gray: colour type 0, RGB: 2) of `width` x `height` from its filtered rows (zlib via CompressionStream), taken as they come. */
async function pngOf(width: number, height: number, colourType: 0 | 2, rows: Iterable<Uint8Array>, depth: 1 | 8 = 8): Promise<Uint8Array> {
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([depth, colourType, 0, 0, 0], 8); // deflate, adaptive filtering, no interlace
  const idat: Uint8Array[] = [];
  await pipeThroughStream(rows, new CompressionStream("deflate"), (c) => idat.push(c));
  return concat([new Uint8Array(SIGNATURE), chunk("IHDR", ihdr), chunk("IDAT", concat(idat)), chunk("IEND", new Uint8Array(0))]);
}

/** The filtered rows (filter None) of an opaque RGBA raster resampled to width × height, made band by band. */
function* filteredEnlargedRows(
  img: { width: number; height: number; data: Uint8Array },
  width: number,
  height: number,
): Generator<Uint8Array> {
  const row = enlargedRgbRows(img, width, height);
  const stride = width * 3 + 1;
  for (let y0 = 0; y0 < height; y0 += ROWS_PER_PART) {
    const n = Math.min(ROWS_PER_PART, height - y0);
    const part = new Uint8Array(n * stride);
    for (let r = 0; r < n; r++) row(y0 + r, part, r * stride + 1);
    yield part;
  }
}

/**
 * An 8-bit RGB PNG of an opaque RGBA raster enlarged to width × height (bilinear): a picture read
 * smaller than its upload (a JPEG above 9 MP) given back at the upload's size. The rows are made and
 * compressed band by band, so the enlarged raster is never held whole.
 */
export function encodeEnlargedRgbPng(
  img: { width: number; height: number; data: Uint8Array },
  width: number,
  height: number,
): Promise<Uint8Array> {
  return pngOf(width, height, 2, filteredEnlargedRows(img, width, height));
}

/** Whether every pixel is black or white (a bilevel scan, a mask). */
function bilevel(data: Uint8Array): boolean {
  for (let i = 0; i < data.length; i++) if (data[i] !== 0 && data[i] !== 255) return false;
  return true;
}

/** The rows of a black-and-white image packed 8 pixels a byte (1 = white), each after its filter byte 0 (None), in parts. */
function* packedRows(img: GrayImage): Generator<Uint8Array> {
  const { width: w, height: h, data } = img;
  const stride = Math.ceil(w / 8) + 1;
  for (let y0 = 0; y0 < h; y0 += ROWS_PER_PART) {
    const n = Math.min(ROWS_PER_PART, h - y0);
    const part = new Uint8Array(n * stride);
    for (let r = 0; r < n; r++) {
      const row = (y0 + r) * w;
      const at = r * stride + 1;
      // Eight pixels a byte without a branch: each is 0 or 255, so it holds every bit.
      const whole = w & ~7;
      for (let x = 0; x < whole; x += 8) {
        const p = row + x;
        part[at + (x >> 3)] =
          (data[p]! & 0x80) |
          (data[p + 1]! & 0x40) |
          (data[p + 2]! & 0x20) |
          (data[p + 3]! & 0x10) |
          (data[p + 4]! & 0x08) |
          (data[p + 5]! & 0x04) |
          (data[p + 6]! & 0x02) |
          (data[p + 7]! & 0x01);
      }
      for (let x = whole; x < w; x++) if (data[row + x]) part[at + (x >> 3)]! |= 0x80 >> (x & 7);
    }
    yield part;
  }
}

/**
 * Encodes a grayscale PNG (rows unfiltered, zlib via CompressionStream): 8 bits a pixel, or 1 for
 * a black-and-white image (a bilevel scan left unturned, a mask), which is an eighth of the rows
 * to compress and to inflate again (every engine call on the page decodes it). A page of text is
 * mostly white runs that deflate well as they are: against "Sub" filtering, an A4 page at 300 dpi
 * encodes in about half the time into a ~10 % smaller file, and decodes without a pass to undo
 * the filter.
 */
export async function encodeGrayPng(img: GrayImage): Promise<Uint8Array> {
  const { width: w, height: h, data } = img;
  if (bilevel(data)) return pngOf(w, h, 0, packedRows(img), 1);
  const rows: Uint8Array[] = [];
  for (let y0 = 0; y0 < h; y0 += ROWS_PER_PART) {
    const n = Math.min(ROWS_PER_PART, h - y0);
    const part = new Uint8Array(n * (w + 1)); // filter byte 0 (None) before each row
    for (let r = 0; r < n; r++) part.set(data.subarray((y0 + r) * w, (y0 + r + 1) * w), r * (w + 1) + 1);
    rows.push(part);
  }
  return pngOf(w, h, 0, rows);
}

/** The last blank canvas encoded (its size and PNG): the pages of a document mostly share a size. */
let blank: { width: number; height: number; png: Uint8Array } | null = null;

/**
 * A white PNG of this size, as `encodeGrayPng` writes it (1 bit a pixel), without looking at
 * pixels one by one (a blank A4 canvas at 300 dpi is 8.7 M pixels): every row is the same row.
 */
export async function encodeBlankGrayPng(width: number, height: number): Promise<Uint8Array> {
  if (blank?.width === width && blank.height === height) return blank.png.slice();
  const stride = Math.ceil(width / 8) + 1;
  const rows = new Uint8Array(height * stride);
  rows.fill(255, 1, stride); // filter byte 0 (None), then white pixels
  if (width & 7) rows[stride - 1] = (0xff << (8 - (width & 7))) & 0xff; // the last byte's bits past the row stay 0
  for (let filled = stride; filled < rows.length; filled *= 2) rows.copyWithin(filled, 0, Math.min(filled, rows.length - filled));
  const parts: Uint8Array[] = [];
  for (let y0 = 0; y0 < height; y0 += ROWS_PER_PART) parts.push(rows.subarray(y0 * stride, Math.min(height, y0 + ROWS_PER_PART) * stride));
  const png = await pngOf(width, height, 0, parts, 1);
  blank = { width, height, png };
  return png.slice();
}

/** Samples a pixel of each colour type holds: gray, RGB, palette index, gray + alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Bit depths decoded here: 8 bits a sample, and the packed 1, 2 and 4 of gray and palette images (bilevel scans); 16 is photon's. */
const readableDepth = (colorType: number, depth: number) =>
  depth === 8 || ((colorType === 0 || colorType === 3) && (depth === 1 || depth === 2 || depth === 4));

/** Luma `g` with `alpha` composited over white, as photon's pixels are (`rgbaToGray`). */
const over = (g: number, alpha: number) => (alpha === 255 ? g : (g * alpha + 255 * (255 - alpha) + 127) / 255);

/**
 * The gray of each sample value of a one-sample image (gray of 1–8 bits, palette index), its
 * transparency (tRNS) composited over white; null for 8-bit gray without one, taken as it is.
 * Indexes past the palette are black.
 */
function sampleGrays(colorType: number, depth: number, plte: Uint8Array | null, trns: Uint8Array | null): Uint8Array | null {
  const values = 1 << depth;
  const grays = new Uint8Array(values);
  if (colorType === 3) {
    if (!plte) throw engineError("corrupt_file", "The PNG file is corrupt: a palette image without a palette (PLTE).");
    for (let i = 0; i < Math.min(values, plte.length / 3); i++)
      grays[i] = over(luma(plte[3 * i]!, plte[3 * i + 1]!, plte[3 * i + 2]!), trns && i < trns.length ? trns[i]! : 255);
    return grays;
  }
  if (depth === 8 && !trns) return null;
  const step = 255 / (values - 1);
  for (let v = 0; v < values; v++) grays[v] = v * step;
  // A gray image's tRNS names one sample value (16 bits) that is fully transparent.
  if (trns && trns.length >= 2) {
    const clear = (trns[0]! << 8) | trns[1]!;
    if (clear < values) grays[clear] = over(grays[clear]!, 0);
  }
  return grays;
}

/** One unfiltered row of packed samples (1, 2, 4 or 8 bits) to gray through `grays`. */
function sampleRow(line: Uint8Array, out: Uint8Array, depth: number, grays: Uint8Array): void {
  const width = out.length;
  if (depth === 1) return bitRow(line, out, grays);
  if (depth === 8) {
    for (let x = 0; x < width; x++) out[x] = grays[line[x]!]!;
    return;
  }
  const mask = (1 << depth) - 1;
  for (let x = 0, bit = 0; x < width; x++, bit += depth) out[x] = grays[(line[bit >> 3]! >> (8 - depth - (bit & 7))) & mask]!;
}

/** The last two grays 1-bit rows were expanded with, and the four bytes each nibble of a row's byte stands for (little-endian words). */
let bitGrays = -1;
const NIBBLES = new Uint32Array(16);
/** A row of whole words the 1-bit rows are expanded into (4 pixels a store), then copied to their place. */
let bitScratch = new Uint32Array(0);

/** One unfiltered 1-bit row to gray through `grays` (two values): each byte's two nibbles are two 32-bit stores. */
function bitRow(line: Uint8Array, out: Uint8Array, grays: Uint8Array): void {
  const key = (grays[0]! << 8) | grays[1]!;
  if (key !== bitGrays) {
    for (let n = 0; n < 16; n++) {
      let word = 0;
      for (let k = 0; k < 4; k++) word |= grays[(n >> (3 - k)) & 1]! << (8 * k);
      NIBBLES[n] = word >>> 0;
    }
    bitGrays = key;
  }
  const bytes = Math.ceil(out.length / 8);
  if (bitScratch.length < 2 * bytes) bitScratch = new Uint32Array(2 * bytes);
  const words = bitScratch;
  for (let i = 0; i < bytes; i++) {
    const b = line[i]!;
    words[2 * i] = NIBBLES[b >> 4]!;
    words[2 * i + 1] = NIBBLES[b & 15]!;
  }
  out.set(new Uint8Array(words.buffer, 0, out.length));
}

/**
 * Undoes a PNG row filter in place (`prev`: the previous row, unfiltered; zeros for the first).
 * One loop per filter type: an A4 page at 300 dpi is 3508 rows of up to 10 000 bytes, and a
 * switch inside the byte loop costs more than the arithmetic. Uint8Array stores wrap mod 256.
 */
function unfilterRow(filter: number, line: Uint8Array, prev: Uint8Array, bpp: number): void {
  const n = line.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < n; i++) line[i] = line[i]! + line[i - bpp]!;
      return;
    case 2:
      for (let i = 0; i < n; i++) line[i] = line[i]! + prev[i]!;
      return;
    case 3:
      for (let i = 0; i < bpp; i++) line[i] = line[i]! + (prev[i]! >> 1);
      for (let i = bpp; i < n; i++) line[i] = line[i]! + ((line[i - bpp]! + prev[i]!) >> 1);
      return;
    case 4:
      for (let i = 0; i < bpp; i++) line[i] = line[i]! + prev[i]!;
      for (let i = bpp; i < n; i++) {
        const a = line[i - bpp]!;
        const b = prev[i]!;
        const c = prev[i - bpp]!;
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        line[i] = line[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return;
    default:
      throw engineError("corrupt_file", `The PNG file is corrupt: unknown row filter ${filter}.`);
  }
}

/**
 * One unfiltered 8-bit row of 1–4 channels to gray (luma; alpha composited over white); `clear`:
 * the RGB colour an RGB image's tRNS makes transparent, if any.
 */
function toGrayRow(line: Uint8Array, out: Uint8Array, channels: number, clear: number[] | null): void {
  const width = out.length;
  if (channels === 1) {
    out.set(line.subarray(0, width));
    return;
  }
  // Opaque pixels (all of them in most pages) skip the compositing.
  if (clear)
    for (let x = 0, j = 0; x < width; x++, j += 3) {
      const [r, g, b] = [line[j]!, line[j + 1]!, line[j + 2]!];
      out[x] = r === clear[0] && g === clear[1] && b === clear[2] ? over(luma(r, g, b), 0) : luma(r, g, b);
    }
  else if (channels === 2) for (let x = 0, j = 0; x < width; x++, j += 2) out[x] = over(line[j]!, line[j + 1]!);
  else if (channels === 3) for (let x = 0, j = 0; x < width; x++, j += 3) out[x] = luma(line[j]!, line[j + 1]!, line[j + 2]!);
  else for (let x = 0, j = 0; x < width; x++, j += 4) out[x] = over(luma(line[j]!, line[j + 1]!, line[j + 2]!), line[j + 3]!);
}

/** Whether a PNG is 8-bit gray without a transparent value: its gray is all it holds. */
export function isOpaqueGrayPng(bytes: Uint8Array): boolean {
  if (bytes[24] !== 8 || bytes[25] !== 0) return false;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let off = 8; off + 12 <= bytes.length; off += 12 + dv.getUint32(off)) {
    const type = String.fromCharCode(...bytes.subarray(off + 4, off + 8));
    if (type === "tRNS") return false;
    if (type === "IDAT" || type === "IEND") return true;
  }
  return true;
}

/**
 * Decodes non-interlaced PNGs of 8-bit gray / gray+alpha / RGB / RGBA, 1–8-bit gray and 1–8-bit
 * palette straight to gray, streaming the inflate so only the gray raster is held. Returns null
 * for the other flavours (16-bit, interlaced), which the caller hands to photon. Dimensions must
 * already be checked.
 */
export async function decodePngToGray(bytes: Uint8Array): Promise<GrayImage | null> {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = dv.getUint32(16);
  const height = dv.getUint32(20);
  const [depth, colorType, , , interlace] = bytes.subarray(24, 29);
  const channels = CHANNELS[colorType!];
  if (interlace !== 0 || !channels || !readableDepth(colorType!, depth!)) return null;

  const idat: Uint8Array[] = [];
  let plte: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  for (let off = 8; off + 12 <= bytes.length;) {
    const len = dv.getUint32(off);
    const type = String.fromCharCode(...bytes.subarray(off + 4, off + 8));
    const data = bytes.subarray(off + 8, off + 8 + len);
    if (type === "IDAT") idat.push(data);
    else if (type === "PLTE") plte = data;
    else if (type === "tRNS") trns = data;
    if (type === "IEND") break;
    off += 12 + len;
  }
  // One-sample images go through a table of grays; an RGB image's tRNS names one transparent colour.
  const grays = channels === 1 ? sampleGrays(colorType!, depth!, plte, trns) : null;
  const clear = colorType === 2 && trns && trns.length >= 6 && !(trns[0]! | trns[2]! | trns[4]!) ? [trns[1]!, trns[3]!, trns[5]!] : null;

  const stride = Math.ceil((width * channels * depth!) / 8);
  const bpp = Math.max(1, (channels * depth!) >> 3);
  const out = new Uint8Array(width * height);
  let prev = new Uint8Array(stride + 1);
  let cur = new Uint8Array(stride + 1);
  let filled = 0;
  let y = 0;
  const finishRow = () => {
    const line = cur.subarray(1);
    unfilterRow(cur[0]!, line, prev.subarray(1), bpp);
    const row = out.subarray(y * width, (y + 1) * width);
    if (grays) sampleRow(line, row, depth!, grays);
    else toGrayRow(line, row, channels, clear);
    [prev, cur] = [cur, prev];
    y++;
    filled = 0;
  };
  try {
    await pipeThroughStream(idat, new DecompressionStream("deflate"), (c) => {
      let i = 0;
      while (i < c.length) {
        if (y >= height) return; // trailing bytes after the last row are ignored
        const n = Math.min(c.length - i, stride + 1 - filled);
        cur.set(c.subarray(i, i + n), filled);
        filled += n;
        i += n;
        if (filled === stride + 1) finishRow();
      }
    });
  } catch (err) {
    throw engineError("corrupt_file", `The PNG image data is corrupt: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (y < height) throw engineError("corrupt_file", `The PNG image data is truncated (${y} of ${height} rows).`);
  return { width, height, data: out };
}
