import { engineError } from "../errors";
import { MAX_IMAGE_PIXELS, MAX_JPEG_HOLD_BYTES, MAX_PHOTON_PIXELS, makeRoomFor } from "../memory";
import type { RgbaImage } from "./gray";

/**
 * JPEGs too large to hold at full size (a 12 MP phone photo, a long manga page) are decoded
 * straight to N/8 of their size, block by block: each 8×8 block's coefficients go through one matrix
 * that is the inverse DCT followed by an area average onto N×N pixels, so no full-size plane ever
 * exists (libjpeg's scaled decoding does the same). Only the scaled component planes and the RGBA
 * result are held (~5.5 bytes a pixel of the result), and a progressive image's coefficients until
 * its last scan.
 */

interface Huffman {
  /** 9-bit prefix → (code length << 8) | symbol; 0 when the code is longer. */
  fast: Uint16Array;
  maxcode: Int32Array;
  valptr: Int32Array;
  mincode: Int32Array;
  values: Uint8Array;
}

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  /** Blocks a row and rows of blocks the plane holds (whole MCUs). */
  blocksX: number;
  blocksY: number;
  plane: Uint8Array;
  /** A progressive image's coefficients, block after block (64 each, natural order). */
  coefs: Int16Array;
  pred: number;
  dc?: Huffman;
  ac?: Huffman;
}

const ZIGZAG = Int32Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57,
  50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

const FAST_BITS = 9;

/**
 * Scans a file may hold: each runs over the whole image, so a file of thousands of tiny scans would
 * cost minutes. Encoders write 1–3 (baseline) or about 10 (progressive).
 */
const MAX_SCANS = 64;

const corrupt = (why: string) => engineError("corrupt_file", `The JPEG image could not be decoded: ${why}.`);

function buildHuffman(counts: Uint8Array, values: Uint8Array): Huffman {
  const maxcode = new Int32Array(18).fill(-1);
  const valptr = new Int32Array(17);
  const mincode = new Int32Array(17);
  const fast = new Uint16Array(1 << FAST_BITS);
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    const n = counts[len - 1]!;
    valptr[len] = k;
    mincode[len] = code;
    for (let i = 0; i < n; i++, k++, code++) {
      if (len <= FAST_BITS) {
        const shift = FAST_BITS - len;
        for (let j = 0; j < 1 << shift; j++) fast[(code << shift) | j] = (len << 8) | values[k]!;
      }
    }
    maxcode[len] = n ? code - 1 : -1;
    code <<= 1;
  }
  maxcode[17] = 0x7fffffff;
  return { fast, maxcode, valptr, mincode, values };
}

/** The entropy-coded bits of a scan; byte stuffing undone, stopping at the next marker. */
class BitReader {
  private acc = 0;
  private n = 0;
  private atMarker = false;
  constructor(
    private readonly data: Uint8Array,
    public pos: number,
  ) {}

  private fill(): void {
    while (this.n <= 24) {
      let byte = 0;
      if (!this.atMarker && this.pos < this.data.length) {
        byte = this.data[this.pos]!;
        if (byte === 0xff) {
          if (this.data[this.pos + 1] === 0) this.pos += 2;
          else {
            this.atMarker = true;
            byte = 0;
          }
        } else this.pos++;
      }
      this.acc = (this.acc << 8) | byte;
      this.n += 8;
    }
  }

  bits(k: number): number {
    if (k === 0) return 0;
    if (this.n < k) this.fill();
    this.n -= k;
    return (this.acc >>> this.n) & ((1 << k) - 1);
  }

  decode(t: Huffman): number {
    if (this.n < 16) this.fill();
    const entry = t.fast[(this.acc >>> (this.n - FAST_BITS)) & ((1 << FAST_BITS) - 1)]!;
    if (entry) {
      this.n -= entry >> 8;
      return entry & 0xff;
    }
    for (let len = FAST_BITS + 1; len <= 16; len++) {
      const code = (this.acc >>> (this.n - len)) & ((1 << len) - 1);
      if (code <= t.maxcode[len]!) {
        this.n -= len;
        return t.values[t.valptr[len]! + code - t.mincode[len]!]!;
      }
    }
    throw corrupt("a Huffman code is not in its table");
  }

  /** Skips to just past the restart marker that must come next. */
  restart(): void {
    this.acc = 0;
    this.n = 0;
    this.atMarker = false;
    while (
      this.pos + 1 < this.data.length &&
      !(this.data[this.pos] === 0xff && this.data[this.pos + 1]! >= 0xd0 && this.data[this.pos + 1]! <= 0xd7)
    )
      this.pos++;
    this.pos += 2;
  }

  /** The offset of the marker that ends the scan. */
  end(): number {
    let p = this.pos;
    while (
      p + 1 < this.data.length &&
      !(this.data[p] === 0xff && this.data[p + 1] !== 0 && !(this.data[p + 1]! >= 0xd0 && this.data[p + 1]! <= 0xd7))
    )
      p++;
    return p;
  }
}

const extend = (v: number, s: number) => (s && v < 1 << (s - 1) ? v - (1 << s) + 1 : v);

/** The N×8 matrix of the inverse DCT (one dimension, with its ½·C(u)) followed by an area average onto N samples. */
function scaledIdct(n: number): Float64Array {
  const m = new Float64Array(n * 8);
  const step = 8 / n;
  for (let i = 0; i < n; i++) {
    for (let x = 0; x < 8; x++) {
      const weight = Math.max(0, Math.min(x + 1, (i + 1) * step) - Math.max(x, i * step)) / step;
      if (!weight) continue;
      for (let u = 0; u < 8; u++)
        m[i * 8 + u] = m[i * 8 + u]! + weight * (u === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
    }
  }
  return m;
}

/** Scaled pixel dimensions of a JPEG decoded at N/8: what `decodeJpegScaled` returns. */
export function scaledSize(width: number, height: number, n: number): { width: number; height: number } {
  return { width: Math.ceil((width * n) / 8), height: Math.ceil((height * n) / 8) };
}

/** The largest N (1..8) at which a width × height JPEG decoded at N/8 holds at most maxPixels. */
export function jpegScaleFor(width: number, height: number, maxPixels: number): number {
  for (let n = 8; n > 1; n--) {
    const s = scaledSize(width, height, n);
    if (s.width * s.height <= maxPixels) return n;
  }
  return 1;
}

/**
 * What the frame header says of decoding at a smaller size: null when the JPEG is not Huffman-coded
 * 8-bit baseline or progressive with one or three components (those are not read at a smaller size),
 * else the bytes a pixel of the full image costs while decoding (a progressive image's coefficients
 * are held until its last scan: 2 bytes each; a baseline image holds none).
 */
export function scalableJpeg(bytes: Uint8Array): { progressive: boolean; holdBytesPerPixel: number } | null {
  for (let off = 2; off + 4 <= bytes.length;) {
    if (bytes[off] !== 0xff) return null;
    const marker = bytes[off + 1]!;
    if (marker === 0xff) {
      off++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xc2) {
      const count = bytes[off + 9]!;
      if (bytes[off + 4] !== 8 || (count !== 1 && count !== 3) || off + 10 + 3 * count > bytes.length) return null;
      const sampling = Array.from({ length: count }, (_, i) => bytes[off + 11 + 3 * i]!);
      const hmax = Math.max(...sampling.map((f) => f >> 4));
      const vmax = Math.max(...sampling.map((f) => f & 15));
      if (!hmax || !vmax) return null;
      const share = sampling.reduce((sum, f) => sum + ((f >> 4) * (f & 15)) / (hmax * vmax), 0);
      const progressive = marker === 0xc2;
      return { progressive, holdBytesPerPixel: progressive ? 2 * share : 0 };
    }
    if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return null;
    if (marker === 0xda || marker === 0xd9) return null;
    off += 2 + ((bytes[off + 2]! << 8) | bytes[off + 3]!);
  }
  return null;
}

/** The pixels a JPEG may have: any size photon holds; above that, what decoding at a smaller size can hold. */
export function jpegPixelLimit(bytes: Uint8Array): number {
  const frame = scalableJpeg(bytes);
  if (!frame) return MAX_PHOTON_PIXELS;
  if (!frame.progressive) return MAX_IMAGE_PIXELS;
  return Math.max(MAX_PHOTON_PIXELS, Math.min(MAX_IMAGE_PIXELS, Math.floor(MAX_JPEG_HOLD_BYTES / frame.holdBytesPerPixel)));
}

/** The size a width × height JPEG is decoded at: its own within MAX_PHOTON_PIXELS, else the largest N/8 within it. */
export function decodedJpegSize(width: number, height: number): { width: number; height: number } {
  return width * height <= MAX_PHOTON_PIXELS
    ? { width, height }
    : scaledSize(width, height, jpegScaleFor(width, height, MAX_PHOTON_PIXELS));
}

/** Decodes a JPEG above MAX_PHOTON_PIXELS (its size already checked by `jpegPixelLimit`) at `decodedJpegSize`. */
export function decodeLargeJpeg(bytes: Uint8Array, width: number, height: number): RgbaImage {
  const n = jpegScaleFor(width, height, MAX_PHOTON_PIXELS);
  const size = scaledSize(width, height, n);
  makeRoomFor(size.width * size.height * 6);
  return decodeJpegScaled(bytes, n);
}

/** Decodes a baseline or progressive JPEG at n/8 of its width and height (rounded up) to RGBA. */
export function decodeJpegScaled(bytes: Uint8Array, n: number): RgbaImage {
  const quant: Float64Array[] = [];
  const dcTables: Huffman[] = [];
  const acTables: Huffman[] = [];
  let components: Component[] = [];
  let progressive = false;
  let width = 0;
  let height = 0;
  let hmax = 1;
  let vmax = 1;
  let mcusX = 0;
  let mcusY = 0;
  let restartInterval = 0;
  let adobeTransform: number | null = null;
  let scans = 0;
  const matrix = scaledIdct(n);
  const block = new Float64Array(64);
  const rows = new Float64Array(8 * n);
  const single = new Int16Array(64);
  const u16 = (p: number) => (bytes[p]! << 8) | bytes[p + 1]!;

  /** Dequantises one block's coefficients and writes its n×n pixels into the component's plane. */
  const writeBlock = (c: Component, coefs: Int16Array, at: number, bx: number, by: number) => {
    const q = quant[c.tq];
    if (!q) throw corrupt("a component's quantisation table is missing");
    for (let k = 0; k < 64; k++) block[k] = coefs[at + k]! * q[k]!;
    // Rows of the block (vertical frequency) × the matrix's columns, then the matrix down them.
    for (let v = 0; v < 8; v++) {
      let any = false;
      for (let u = 0; u < 8; u++) if (block[v * 8 + u]) any = true;
      for (let x = 0; x < n; x++) {
        let sum = 0;
        if (any) for (let u = 0; u < 8; u++) sum += block[v * 8 + u]! * matrix[x * 8 + u]!;
        rows[v * n + x] = sum;
      }
    }
    const pw = c.blocksX * n;
    for (let y = 0; y < n; y++) {
      const out = (by * n + y) * pw + bx * n;
      for (let x = 0; x < n; x++) {
        let sum = 128;
        for (let v = 0; v < 8; v++) sum += matrix[y * 8 + v]! * rows[v * n + x]!;
        c.plane[out + x] = sum < 0 ? 0 : sum > 255 ? 255 : Math.round(sum);
      }
    }
  };

  // Progressive scans' state (ISO 10918-1 G.1.2): spectral band, successive approximation, end-of-band run.
  let ss = 0;
  let se = 63;
  let ah = 0;
  let al = 0;
  let eobrun = 0;
  let refineState = 0;
  let refineRun = 0;
  let refineValue = 0;

  const decodeBaseline = (c: Component, r: BitReader, coefs: Int16Array, at: number) => {
    coefs.fill(0, at, at + 64);
    const s = r.decode(c.dc!);
    c.pred += extend(r.bits(s), s);
    coefs[at] = c.pred;
    for (let k = 1; k < 64;) {
      const rs = r.decode(c.ac!);
      const size = rs & 15;
      const run = rs >> 4;
      if (!size) {
        if (run !== 15) break;
        k += 16;
        continue;
      }
      k += run;
      if (k > 63) throw corrupt("a block has more than 64 coefficients");
      coefs[at + ZIGZAG[k]!] = extend(r.bits(size), size);
      k++;
    }
  };

  const decodeDc = (c: Component, r: BitReader, coefs: Int16Array, at: number) => {
    if (ah) {
      if (r.bits(1)) coefs[at] = coefs[at]! | (1 << al);
      return;
    }
    const s = r.decode(c.dc!);
    c.pred += extend(r.bits(s), s);
    coefs[at] = c.pred * (1 << al);
  };

  const decodeAcFirst = (c: Component, r: BitReader, coefs: Int16Array, at: number) => {
    if (eobrun > 0) {
      eobrun--;
      return;
    }
    for (let k = ss; k <= se;) {
      const rs = r.decode(c.ac!);
      const size = rs & 15;
      const run = rs >> 4;
      if (!size) {
        if (run < 15) {
          eobrun = r.bits(run) + (1 << run) - 1;
          break;
        }
        k += 16;
        continue;
      }
      k += run;
      if (k > 63) throw corrupt("a block has more than 64 coefficients");
      coefs[at + ZIGZAG[k]!] = extend(r.bits(size), size) * (1 << al);
      k++;
    }
  };

  const decodeAcRefine = (c: Component, r: BitReader, coefs: Int16Array, at: number) => {
    for (let k = ss; k <= se;) {
      const z = at + ZIGZAG[k]!;
      const sign = coefs[z]! < 0 ? -1 : 1;
      if (refineState === 0) {
        const rs = r.decode(c.ac!);
        const size = rs & 15;
        refineRun = rs >> 4;
        if (!size) {
          if (refineRun < 15) {
            eobrun = r.bits(refineRun) + (1 << refineRun);
            refineState = 4;
          } else {
            refineRun = 16;
            refineState = 1;
          }
        } else {
          if (size !== 1) throw corrupt("a refinement scan codes a coefficient of more than one bit");
          refineValue = r.bits(1) ? 1 : -1;
          refineState = refineRun ? 2 : 3;
        }
        continue;
      }
      if (coefs[z]) coefs[z] = coefs[z]! + sign * (r.bits(1) << al);
      else if (refineState === 1 || refineState === 2) {
        if (--refineRun === 0) refineState = refineState === 2 ? 3 : 0;
      } else if (refineState === 3) {
        coefs[z] = refineValue * (1 << al);
        refineState = 0;
      }
      k++;
    }
    if (refineState === 4 && --eobrun === 0) refineState = 0;
  };

  const decodeScan = (scan: Component[], start: number): number => {
    const r = new BitReader(bytes, start);
    const reset = () => {
      for (const c of scan) c.pred = 0;
      eobrun = 0;
      refineState = 0;
    };
    reset();
    const decode = !progressive ? decodeBaseline : ss === 0 ? decodeDc : ah ? decodeAcRefine : decodeAcFirst;
    const unit = (c: Component, bx: number, by: number) => {
      if (progressive) decode(c, r, c.coefs, (by * c.blocksX + bx) * 64);
      else {
        decode(c, r, single, 0);
        writeBlock(c, single, 0, bx, by);
      }
    };
    const one = scan.length === 1 ? scan[0]! : null;
    const unitsX = one ? Math.ceil(Math.ceil((width * one.h) / hmax) / 8) : mcusX;
    const unitsY = one ? Math.ceil(Math.ceil((height * one.v) / vmax) / 8) : mcusY;
    let done = 0;
    for (let my = 0; my < unitsY; my++) {
      for (let mx = 0; mx < unitsX; mx++) {
        if (restartInterval && done && done % restartInterval === 0) {
          r.restart();
          reset();
        }
        if (one) unit(one, mx, my);
        else for (const c of scan) for (let by = 0; by < c.v; by++) for (let bx = 0; bx < c.h; bx++) unit(c, mx * c.h + bx, my * c.v + by);
        done++;
      }
    }
    return r.end();
  };

  let off = 2;
  if (u16(0) !== 0xffd8) throw corrupt("no start-of-image marker");
  for (;;) {
    if (off + 2 > bytes.length) throw corrupt("the file ends before its end-of-image marker");
    if (bytes[off] !== 0xff) throw corrupt("a marker was expected");
    const marker = bytes[off + 1]!;
    if (marker === 0xff) {
      off++;
      continue;
    }
    if (marker === 0xd9) break;
    if (off + 4 > bytes.length) throw corrupt("a segment runs past the end of the file");
    const len = u16(off + 2);
    const seg = off + 4;
    const next = off + 2 + len;
    if (next > bytes.length) throw corrupt("a segment runs past the end of the file");
    if (marker === 0xdb) {
      for (let p = seg; p < next;) {
        const precision = bytes[p]! >> 4;
        const table = new Float64Array(64);
        for (let k = 0; k < 64; k++) table[ZIGZAG[k]!] = precision ? u16(p + 1 + 2 * k) : bytes[p + 1 + k]!;
        quant[bytes[p]! & 15] = table;
        p += 1 + 64 * (precision ? 2 : 1);
      }
    } else if (marker === 0xc4) {
      for (let p = seg; p < next;) {
        const counts = bytes.subarray(p + 1, p + 17);
        const total = counts.reduce((a, b) => a + b, 0);
        const table = buildHuffman(counts, bytes.slice(p + 17, p + 17 + total));
        (bytes[p]! >> 4 ? acTables : dcTables)[bytes[p]! & 15] = table;
        p += 17 + total;
      }
    } else if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (bytes[seg] !== 8) throw corrupt("only 8-bit samples are read at this size");
      progressive = marker === 0xc2;
      height = u16(seg + 1);
      width = u16(seg + 3);
      const count = bytes[seg + 5]!;
      components = Array.from({ length: count }, (_, i) => {
        const p = seg + 6 + 3 * i;
        const none = new Uint8Array(0);
        return {
          id: bytes[p]!,
          h: bytes[p + 1]! >> 4,
          v: bytes[p + 1]! & 15,
          tq: bytes[p + 2]!,
          blocksX: 0,
          blocksY: 0,
          plane: none,
          coefs: new Int16Array(0),
          pred: 0,
        };
      });
      if (!components.every((c) => c.h >= 1 && c.h <= 4 && c.v >= 1 && c.v <= 4))
        throw corrupt("a component's sampling factors are out of range");
      hmax = Math.max(...components.map((c) => c.h));
      vmax = Math.max(...components.map((c) => c.v));
      mcusX = Math.ceil(width / (8 * hmax));
      mcusY = Math.ceil(height / (8 * vmax));
      for (const c of components) {
        c.blocksX = mcusX * c.h;
        c.blocksY = mcusY * c.v;
        c.plane = new Uint8Array(c.blocksX * n * c.blocksY * n);
        // A progressive image's coefficients arrive in several scans: they are held until the last.
        if (progressive) c.coefs = new Int16Array(c.blocksX * c.blocksY * 64);
      }
    } else if (marker === 0xdd) {
      restartInterval = u16(seg);
    } else if (marker === 0xee && len >= 14 && String.fromCharCode(...bytes.subarray(seg, seg + 5)) === "Adobe") {
      adobeTransform = bytes[seg + 11]!;
    } else if (marker === 0xda) {
      if (!components.length) throw corrupt("the image data comes before the frame header");
      if (scans >= MAX_SCANS) throw corrupt(`it has more than ${MAX_SCANS} scans`);
      const count = bytes[seg]!;
      const scan = Array.from({ length: count }, (_, i) => {
        const c = components.find((x) => x.id === bytes[seg + 1 + 2 * i]);
        if (!c) throw corrupt("a scan names a component the frame does not have");
        c.dc = dcTables[bytes[seg + 2 + 2 * i]! >> 4] ?? c.dc;
        c.ac = acTables[bytes[seg + 2 + 2 * i]! & 15] ?? c.ac;
        return c;
      });
      ss = bytes[seg + 1 + 2 * count]!;
      se = bytes[seg + 2 + 2 * count]!;
      ah = bytes[seg + 3 + 2 * count]! >> 4;
      al = bytes[seg + 3 + 2 * count]! & 15;
      const needsDc = !progressive || (ss === 0 && !ah);
      const needsAc = !progressive || ss > 0;
      if (scan.some((c) => (needsDc && !c.dc) || (needsAc && !c.ac))) throw corrupt("a scan's Huffman table is missing");
      off = decodeScan(scan, next);
      scans++;
      continue;
    } else if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      throw corrupt("lossless and arithmetic-coded JPEGs are not read at this size");
    }
    off = next;
  }
  if (!scans) throw corrupt("it holds no image data");
  if (components.length !== 1 && components.length !== 3) throw corrupt(`${components.length} colour components are not read at this size`);
  if (progressive) {
    for (const c of components) {
      for (let by = 0; by < c.blocksY; by++)
        for (let bx = 0; bx < c.blocksX; bx++) writeBlock(c, c.coefs, (by * c.blocksX + bx) * 64, bx, by);
      c.coefs = new Int16Array(0);
    }
  }
  return toRgba(components, width, height, n, hmax, vmax, adobeTransform);
}

/** The scaled planes as RGBA (YCbCr converted unless the file says its components are RGB), subsampled planes by nearest sample. */
function toRgba(
  components: Component[],
  width: number,
  height: number,
  n: number,
  hmax: number,
  vmax: number,
  adobe: number | null,
): RgbaImage {
  const size = scaledSize(width, height, n);
  const data = new Uint8Array(size.width * size.height * 4);
  const rgb = components.length === 3 && (adobe === 0 || components.map((c) => String.fromCharCode(c.id)).join("") === "RGB");
  const cols = components.map((c) => Int32Array.from({ length: size.width }, (_, x) => Math.floor((x * c.h) / hmax)));
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
  for (let y = 0, o = 0; y < size.height; y++) {
    const rowOf = components.map((c) => Math.floor((y * c.v) / vmax) * c.blocksX * n);
    for (let x = 0; x < size.width; x++, o += 4) {
      const a = components[0]!.plane[rowOf[0]! + cols[0]![x]!]!;
      if (components.length === 1) {
        data[o] = data[o + 1] = data[o + 2] = a;
      } else {
        const b = components[1]!.plane[rowOf[1]! + cols[1]![x]!]!;
        const c = components[2]!.plane[rowOf[2]! + cols[2]![x]!]!;
        if (rgb) {
          data[o] = a;
          data[o + 1] = b;
          data[o + 2] = c;
        } else {
          data[o] = clamp(a + 1.402 * (c - 128));
          data[o + 1] = clamp(a - 0.344136 * (b - 128) - 0.714136 * (c - 128));
          data[o + 2] = clamp(a + 1.772 * (b - 128));
        }
      }
      data[o + 3] = 255;
    }
  }
  return { ...size, data };
}
