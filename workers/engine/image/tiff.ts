import { engineError } from "../errors";
import { luma, type GrayImage, type RgbaImage } from "./gray";
import { decodeCcitt, type CcittMode } from "./ccitt";
import { MAX_PHOTON_PIXELS } from "../memory";
import { assertDimensions } from "./limits";
import { applyOrientation, applyOrientationRgba, asOrientation } from "./orientation";
import { decodeRgbaWithPhoton, decodeWithPhoton } from "./photon";
import { concat, pipeThroughStream } from "./streams";

/**
 * Baseline TIFF decoder, page by page, straight to 8-bit gray (a colour page also to RGBA).
 * Compression: none (1), LZW (5, with horizontal predictor), PackBits (32773), Deflate (8, 32946),
 * CCITT fax (2 RLE, 3 Group 3 1D/2D, 4 Group 4) and JPEG (7, with shared JPEGTables).
 * Pixels: bilevel, 4/8/16-bit gray, palette, RGB(A), CMYK, YCbCr in JPEG; strips or tiles; chunky
 * planar layout. The Orientation tag is applied. Old-style JPEG (6) and JPEG 2000 pages are
 * refused with a clear code, page by page.
 */

const COMPRESSION_NAMES: Record<number, string> = { 6: "old-style JPEG", 34712: "JPEG 2000" };
const SUPPORTED = [1, 2, 3, 4, 5, 7, 8, 32773, 32946];
const CCITT: Record<number, CcittMode> = { 2: "mh", 3: "g3", 4: "g4" };

const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 16: 8 };

const missingPage = (page: number, pages: number) =>
  engineError("validation_error", `Page ${page} does not exist: the TIFF has ${pages} page(s).`);
const corrupt = (why: string) => engineError("corrupt_file", `The TIFF file is truncated or corrupt: ${why}.`);

interface Ifd {
  tags: Map<number, number[]>;
  next: number;
}

function readIfd(b: Uint8Array, dv: DataView, le: boolean, at: number): Ifd {
  if (at + 2 > b.length) throw corrupt("a page directory lies past the end of the file");
  const count = dv.getUint16(at, le);
  if (at + 2 + count * 12 + 4 > b.length) throw corrupt("a page directory is cut short");
  const tags = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const e = at + 2 + i * 12;
    const tag = dv.getUint16(e, le);
    const type = dv.getUint16(e + 2, le);
    const n = dv.getUint32(e + 4, le);
    const size = TYPE_SIZES[type];
    if (!size || n > 10_000_000) continue;
    const off = n * size <= 4 ? e + 8 : dv.getUint32(e + 8, le);
    if (off + n * size > b.length) throw corrupt(`tag ${tag} points past the end of the file`);
    const values = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      const p = off + k * size;
      values[k] =
        size === 1
          ? b[p]!
          : size === 2
            ? dv.getUint16(p, le)
            : type === 5 || type === 10
              ? dv.getUint32(p, le) / (dv.getUint32(p + 4, le) || 1)
              : dv.getUint32(p, le);
    }
    tags.set(tag, values);
  }
  return { tags, next: dv.getUint32(at + 2 + count * 12, le) };
}

/** Directory of each page, following the IFD chain (loops refused). */
function pageDirectories(b: Uint8Array): { dv: DataView; le: boolean; ifds: Ifd[] } {
  if (b.length < 8) throw corrupt("short header");
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const le = b[0] === 0x49;
  const ifds: Ifd[] = [];
  const seen = new Set<number>();
  for (let at = dv.getUint32(4, le); at !== 0;) {
    if (seen.has(at) || ifds.length >= 10_000) throw corrupt("the page chain loops");
    seen.add(at);
    const ifd = readIfd(b, dv, le, at);
    ifds.push(ifd);
    at = ifd.next;
  }
  if (ifds.length === 0) throw corrupt("no pages");
  return { dv, le, ifds };
}

/** TIFF LZW (MSB-first codes, 9–12 bits, "early change"), into exactly `expected` bytes. */
export function lzwDecode(src: Uint8Array, expected: number): Uint8Array {
  const out = new Uint8Array(expected);
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  let op = 0;
  let next = 258;
  let width = 9;
  let prev = -1;
  let bit = 0;
  const bits = src.length * 8;
  const emit = (code: number) => {
    const len = length[code]!;
    let p = op + len - 1;
    for (let c = code; c >= 0 && p >= op; c = prefix[c]!, p--) if (p < expected) out[p] = suffix[c]!;
    op += len;
  };
  while (bit + width <= bits && op < expected) {
    let code = 0;
    for (let k = 0; k < width; k++, bit++) code = (code << 1) | ((src[bit >> 3]! >> (7 - (bit & 7))) & 1);
    if (code === 257) break;
    if (code === 256) {
      next = 258;
      width = 9;
      prev = -1;
      continue;
    }
    if (prev === -1) {
      if (code > 255) throw corrupt("bad LZW code");
      emit(code);
      prev = code;
      continue;
    }
    if (code > next || next >= 4096) throw corrupt("bad LZW code");
    const known = code < next;
    const head = known ? first[code]! : first[prev]!;
    prefix[next] = prev;
    suffix[next] = head;
    first[next] = first[prev]!;
    length[next] = length[prev]! + 1;
    emit(known ? code : next);
    next++;
    if (next >= (1 << width) - 1 && width < 12) width++;
    prev = code;
  }
  if (op < expected) throw corrupt(`LZW data ends early (${op} of ${expected} bytes)`);
  return out;
}

/** Apple PackBits run-length decoding, into exactly `expected` bytes. */
export function packBitsDecode(src: Uint8Array, expected: number): Uint8Array {
  const out = new Uint8Array(expected);
  let i = 0;
  let op = 0;
  while (i < src.length && op < expected) {
    const n = (src[i++]! << 24) >> 24;
    if (n >= 0) {
      const len = Math.min(n + 1, expected - op, src.length - i);
      out.set(src.subarray(i, i + len), op);
      i += n + 1;
      op += len;
    } else if (n !== -128) {
      const len = Math.min(1 - n, expected - op);
      out.fill(src[i++]!, op, op + len);
      op += len;
    }
  }
  if (op < expected) throw corrupt(`PackBits data ends early (${op} of ${expected} bytes)`);
  return out;
}

async function inflate(src: Uint8Array, expected: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  try {
    await pipeThroughStream(src, new DecompressionStream("deflate"), (c) => chunks.push(c));
  } catch (err) {
    throw corrupt(`Deflate data is damaged (${err instanceof Error ? err.message : String(err)})`);
  }
  const out = concat(chunks);
  if (out.length < expected) throw corrupt(`Deflate data ends early (${out.length} of ${expected} bytes)`);
  return out;
}

interface PageFormat {
  width: number;
  height: number;
  bits: number;
  samples: number;
  photometric: number;
  colorMap: number[] | undefined;
  predictor: number;
  extraAlpha: boolean;
}

/** `rows` decoded rows of `rowBytes` bytes (chunky samples), `blockW` pixels wide, to be placed at (x0, y0). */
interface RowBlock {
  src: Uint8Array;
  rowBytes: number;
  blockW: number;
  rows: number;
  x0: number;
  y0: number;
}

/** Converts `rows` decoded rows (chunky samples) to gray into `out` at (x0, y0), clipped to the page. */
function rowsToGray(f: PageFormat, block: RowBlock, out: Uint8Array): void {
  const { src, rowBytes, blockW, rows, x0, y0 } = block;
  const { width, height, bits, samples, photometric } = f;
  const maxSample = (1 << bits) - 1;
  const cm = f.colorMap;
  const third = cm ? cm.length / 3 : 0;
  for (let r = 0; r < rows; r++) {
    const y = y0 + r;
    if (y >= height) break;
    const sample = rowSampler(f, src.subarray(r * rowBytes, (r + 1) * rowBytes));
    const w = Math.min(blockW, width - x0);
    const dst = y * width + x0;
    for (let x = 0; x < w; x++) {
      let g: number;
      if (photometric === 3 && cm) {
        const i = Math.round(sample(x, 0) / (255 / maxSample));
        g = luma(cm[i]! >> 8, cm[third + i]! >> 8, cm[2 * third + i]! >> 8);
      } else if (photometric === 2 && samples >= 3) {
        g = luma(sample(x, 0), sample(x, 1), sample(x, 2));
      } else if (photometric === 5 && samples >= 4) {
        const k = 255 - sample(x, 3);
        g =
          ((((255 - sample(x, 0)) * k) / 255) * 77 + (((255 - sample(x, 1)) * k) / 255) * 150 + (((255 - sample(x, 2)) * k) / 255) * 29) /
          256;
      } else {
        g = sample(x, 0);
        if (photometric === 0) g = 255 - g;
      }
      if (f.extraAlpha) {
        const a = sample(x, samples - 1);
        g = (g * a + 255 * (255 - a)) / 255;
      }
      out[dst + x] = g;
    }
  }
}

/**
 * Sample `s` of pixel `px` of one decoded row (chunky samples), scaled to 0–255; an 8-bit row with
 * a horizontal predictor is undone in place first.
 */
function rowSampler(f: PageFormat, row: Uint8Array): (px: number, s: number) => number {
  const { bits, samples } = f;
  const maxSample = (1 << bits) - 1;
  if (f.predictor === 2 && bits === 8) for (let i = samples; i < row.length; i++) row[i] = (row[i]! + row[i - samples]!) & 0xff;
  return (px, s) => {
    const idx = px * samples + s;
    if (bits === 8) return row[idx]!;
    if (bits === 16) return row[idx * 2]!; // high byte: samples were put in big-endian order
    const bitPos = idx * bits;
    return ((row[bitPos >> 3]! >> (8 - bits - (bitPos & 7))) & maxSample) * (255 / maxSample);
  };
}

/** `rowsToGray` in colour: RGBA into `out` (4 bytes a pixel, opaque: an extra alpha is laid over white). */
function rowsToRgba(f: PageFormat, block: RowBlock, out: Uint8Array): void {
  const { src, rowBytes, blockW, rows, x0, y0 } = block;
  const { width, height, bits, photometric } = f;
  const cm = f.colorMap;
  const third = cm ? cm.length / 3 : 0;
  const w = Math.min(blockW, width - x0);
  for (let r = 0; r < rows && y0 + r < height; r++) {
    const sample = rowSampler(f, src.subarray(r * rowBytes, (r + 1) * rowBytes));
    for (let x = 0, o = ((y0 + r) * width + x0) * 4; x < w; x++, o += 4) {
      if (photometric === 3 && cm) {
        const i = Math.round(sample(x, 0) / (255 / ((1 << bits) - 1)));
        out[o] = cm[i]! >> 8;
        out[o + 1] = cm[third + i]! >> 8;
        out[o + 2] = cm[2 * third + i]! >> 8;
      } else if (photometric === 5) {
        const k = 255 - sample(x, 3);
        for (let c = 0; c < 3; c++) out[o + c] = ((255 - sample(x, c)) * k) / 255;
      } else for (let c = 0; c < 3; c++) out[o + c] = sample(x, c);
      if (f.extraAlpha) {
        const a = sample(x, f.samples - 1);
        for (let c = 0; c < 3; c++) out[o + c] = (out[o + c]! * a + 255 * (255 - a)) / 255;
      }
      out[o + 3] = 255;
    }
  }
}

/** Byte-swaps 16-bit samples to big-endian so the high byte comes first (rowsToGray reads it). */
function normalise16(data: Uint8Array, le: boolean): void {
  if (!le) return;
  for (let i = 0; i + 1 < data.length; i += 2) {
    const t = data[i]!;
    data[i] = data[i + 1]!;
    data[i + 1] = t;
  }
}

/** Page `page`'s X and Y resolution in pixels per inch (ResolutionUnit 2, the default, or 3: centimetres), or null. */
export function tiffPageResolution(bytes: Uint8Array, page: number): [number, number] | null {
  const t = pageDirectories(bytes).ifds[page]?.tags;
  const unit = t?.get(296)?.[0] ?? 2;
  const per = unit === 2 ? 1 : unit === 3 ? 2.54 : 0;
  const [x, y] = [t?.get(282)?.[0], t?.get(283)?.[0]];
  return per && x && y ? [x * per, y * per] : null;
}

/** Decodes page `page` (zero-based) of a TIFF to gray. Other pages are not touched. */
export async function decodeTiffPage(bytes: Uint8Array, page: number): Promise<GrayImage> {
  const { le, ifds } = pageDirectories(bytes);
  const img = await decodePixels(bytes, le, ifds, page, 1);
  return applyOrientation(img, asOrientation(ifds[page]!.tags.get(274)?.[0]));
}

/**
 * Page `page` in its colours, as opaque RGBA (Orientation tag applied); null for a page without
 * colour (bilevel, gray) or one above photon's pixel budget, which the engine keeps in gray.
 */
export async function decodeTiffPageRgba(bytes: Uint8Array, page: number): Promise<RgbaImage | null> {
  const { le, ifds } = pageDirectories(bytes);
  const t = ifds[page]?.tags;
  if (!t) throw missingPage(page, ifds.length);
  const samples = t.get(277)?.[0] ?? 1;
  const photometric = t.get(262)?.[0] ?? (samples >= 3 ? 2 : 1);
  const colour = photometric === 3 || photometric === 6 || (photometric === 2 && samples >= 3) || (photometric === 5 && samples >= 4);
  if (!colour) return null;
  if ((t.get(256)?.[0] ?? 0) * (t.get(257)?.[0] ?? 0) > MAX_PHOTON_PIXELS) return null;
  const img = await decodePixels(bytes, le, ifds, page, 4);
  return applyOrientationRgba(img, asOrientation(t.get(274)?.[0]));
}

/** Page `page`'s pixels, gray (1 byte a pixel) or RGBA (4), as stored: the Orientation tag is the caller's. */
async function decodePixels(bytes: Uint8Array, le: boolean, ifds: Ifd[], page: number, channels: 1 | 4): Promise<GrayImage> {
  const ifd = ifds[page];
  if (!ifd) throw missingPage(page, ifds.length);
  const t = ifd.tags;
  const one = (tag: number, dflt: number) => t.get(tag)?.[0] ?? dflt;
  const width = one(256, 0);
  const height = one(257, 0);
  assertDimensions(width, height, `TIFF page ${page + 1}`);
  const compression = one(259, 1);
  if (!SUPPORTED.includes(compression)) {
    const name = COMPRESSION_NAMES[compression] ?? `compression ${compression}`;
    throw engineError(
      "unsupported_media_type",
      `TIFF page ${page + 1} uses ${name}, which the engine does not decode (supported: none, LZW, PackBits, Deflate, CCITT fax, JPEG).`,
    );
  }
  if (one(284, 1) !== 1)
    throw engineError(
      "unsupported_media_type",
      `TIFF page ${page + 1} stores its colour planes separately, which the engine does not decode.`,
    );
  const samples = one(277, 1);
  const bits = one(258, 1);
  const photometric = one(262, samples >= 3 ? 2 : 1);
  const ccitt = CCITT[compression];
  if (ccitt && (bits !== 1 || samples !== 1))
    throw corrupt(`page ${page + 1} is CCITT fax coded but has ${samples} sample(s) of ${bits} bit(s)`);
  const jpeg = compression === 7;
  if (![1, 2, 4, 8, 16].includes(bits) || samples < 1 || samples > 8 || ![0, 1, 2, 3, 5, ...(jpeg ? [6] : [])].includes(photometric)) {
    throw engineError(
      "unsupported_media_type",
      `TIFF page ${page + 1} has ${samples} sample(s) of ${bits} bit(s) in photometric ${photometric}, which the engine does not decode.`,
    );
  }
  const colorMap = photometric === 3 ? t.get(320) : undefined;
  if (photometric === 3 && (!colorMap || colorMap.length < 3 * (1 << bits)))
    throw corrupt(`page ${page + 1} has a palette image without a colour map`);
  const colourSamples = photometric === 2 ? 3 : photometric === 5 ? 4 : 1;
  const f: PageFormat = {
    width,
    height,
    bits,
    samples,
    photometric,
    colorMap,
    predictor: one(317, 1),
    extraAlpha: samples > colourSamples && (t.get(338)?.[0] === 1 || t.get(338)?.[0] === 2),
  };
  if (f.predictor === 2 && bits !== 8)
    throw engineError(
      "unsupported_media_type",
      `TIFF page ${page + 1} uses a ${bits}-bit horizontal predictor, which the engine does not decode.`,
    );

  const tiled = t.has(322) && t.has(324);
  const blockW = tiled ? one(322, 0) : width;
  const blockH = tiled ? one(323, 0) : Math.min(height, one(278, height) || height);
  if (!(blockW > 0 && blockH > 0)) throw corrupt(`page ${page + 1} has empty strips or tiles`);
  const offsets = t.get(tiled ? 324 : 273) ?? [];
  const counts = t.get(tiled ? 325 : 279) ?? [];
  const across = Math.ceil(width / blockW);
  const blocks = tiled ? across * Math.ceil(height / blockH) : Math.ceil(height / blockH);
  if (offsets.length < blocks) throw corrupt(`page ${page + 1} lists ${offsets.length} of its ${blocks} data blocks`);
  // JPEG blocks go through photon's RGBA heap (limits.ts): each strip or tile must fit its budget.
  if (jpeg) assertDimensions(blockW, blockH, `JPEG strip of TIFF page ${page + 1}`, MAX_PHOTON_PIXELS);
  const rowBytes = Math.ceil((blockW * samples * bits) / 8);
  const out = new Uint8Array(width * height * channels).fill(255);
  for (let i = 0; i < blocks; i++) {
    const x0 = tiled ? (i % across) * blockW : 0;
    const y0 = tiled ? Math.floor(i / across) * blockH : i * blockH;
    const rows = tiled ? blockH : Math.min(blockH, height - y0);
    const expected = rowBytes * rows;
    const off = offsets[i]!;
    const count = counts[i] ?? expected;
    if (off + count > bytes.length) throw corrupt(`page ${page + 1}'s image data runs past the end of the file`);
    const raw = bytes.subarray(off, off + count);
    if (jpeg) {
      const what = `JPEG data of TIFF page ${page + 1}`;
      const data = jpegWithTables(raw, t.get(347));
      const block = channels === 1 ? decodeWithPhoton(data, what, blockW * rows) : decodeRgbaWithPhoton(data, what, blockW * rows);
      placeBlock(block, channels, out, width, height, x0, y0);
      continue;
    }
    let data: Uint8Array;
    if (ccitt) {
      const options = one(ccitt === "g4" ? 293 : 292, 0);
      data = decodeCcitt(raw, {
        width: blockW,
        height: rows,
        mode: ccitt,
        twoD: ccitt === "g3" && (options & 1) === 1,
        lsbFirst: one(266, 1) === 2,
      });
    } else if (compression === 1) {
      if (raw.length < expected) throw corrupt(`page ${page + 1}'s image data is cut short`);
      data = raw.slice(0, expected);
    } else if (compression === 5) data = lzwDecode(raw, expected);
    else if (compression === 32773) data = packBitsDecode(raw, expected);
    else data = await inflate(raw, expected);
    if (bits === 16) normalise16(data, le);
    (channels === 1 ? rowsToGray : rowsToRgba)(f, { src: data, rowBytes, blockW, rows, x0, y0 }, out);
  }
  return { width, height, data: out };
}

/**
 * A strip or tile of a JPEG-compressed page as a whole JPEG: the page's shared tables
 * (JPEGTables: SOI, DQT/DHT, EOI) spliced in front of the block's own markers.
 */
function jpegWithTables(block: Uint8Array, tables: number[] | undefined): Uint8Array {
  if (!tables || tables.length < 4) return block;
  const head = Uint8Array.from(tables.slice(0, tables.length - 2)); // without EOI
  const body = block[0] === 0xff && block[1] === 0xd8 ? block.subarray(2) : block; // without SOI
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

/** Copies a decoded block (`channels` bytes a pixel, as the page) into the page at (x0, y0), clipped to the page. */
function placeBlock(block: GrayImage, channels: number, out: Uint8Array, width: number, height: number, x0: number, y0: number): void {
  const w = Math.min(block.width, width - x0) * channels;
  const from = block.width * channels;
  for (let y = 0; y < block.height && y0 + y < height; y++)
    out.set(block.data.subarray(y * from, y * from + w), ((y0 + y) * width + x0) * channels);
}
