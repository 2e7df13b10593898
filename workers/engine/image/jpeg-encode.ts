import type { RgbRows } from "./enlarge";
import { concat } from "./streams";

/**
 * Baseline JPEG encoding (JFIF; YCbCr with chroma at full resolution, as photon writes it, so a
 * comic's flat colours keep their edges; the quantisation and Huffman tables of the standard's
 * Annex K) from rows made on demand, eight at a time: an image larger than the engine could hold as
 * one raster (a picture given back at its upload's size) is encoded without being held whole.
 */

// Zig-zag position → natural (row-major) index of an 8 × 8 block.
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57,
  50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

const LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22,
  37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_Q = [
  17,
  18,
  24,
  47,
  99,
  99,
  99,
  99,
  18,
  21,
  26,
  66,
  99,
  99,
  99,
  99,
  24,
  26,
  56,
  99,
  99,
  99,
  99,
  99,
  47,
  66,
  99,
  99,
  99,
  99,
  99,
  99,
  ...new Array<number>(32).fill(99),
];

/** A Huffman table as the DHT segment gives it: codes per length 1–16, then the symbols in code order. */
interface HuffSpec {
  counts: number[];
  symbols: number[];
}

const DC_LUMA: HuffSpec = { counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
const DC_CHROMA: HuffSpec = { counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };

const AC_LUMA: HuffSpec = {
  counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
  symbols: [
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91,
    0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a,
    0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53,
    0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79,
    0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5,
    0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9,
    0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2,
    0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
  ],
};

const AC_CHROMA: HuffSpec = {
  counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
  symbols: [
    0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14,
    0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17,
    0x18, 0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a,
    0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78,
    0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3,
    0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
    0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2,
    0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
  ],
};

/** Codes and their lengths by symbol, from a table's spec (canonical Huffman codes). */
function codesOf(spec: HuffSpec): { code: Uint16Array; size: Uint8Array } {
  const code = new Uint16Array(256);
  const size = new Uint8Array(256);
  let next = 0,
    k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < spec.counts[len - 1]!; i++, k++) {
      code[spec.symbols[k]!] = next++;
      size[spec.symbols[k]!] = len;
    }
    next <<= 1;
  }
  return { code, size };
}

/** A base table scaled to a quality (1–100) as libjpeg scales it, in natural order. */
function scaled(base: number[], quality: number): Uint8Array {
  const s = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  return Uint8Array.from(base, (v) => Math.min(255, Math.max(1, Math.floor((v * s + 50) / 100))));
}

// DCT basis: C[u * 8 + x] = c(u) cos((2x + 1)uπ / 16), with c(0) = √(1/8), c(u) = √(2/8).
const BASIS = Float32Array.from({ length: 64 }, (_, i) => {
  const u = i >> 3,
    x = i & 7;
  return (u === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
});

/** Entropy-coded bytes, 0xFF stuffed, collected in parts. */
class BitSink {
  parts: Uint8Array[] = [];
  private buf = new Uint8Array(1 << 16);
  private at = 0;
  private acc = 0;
  private bits = 0;

  byte(b: number) {
    if (this.at === this.buf.length) (this.parts.push(this.buf), (this.buf = new Uint8Array(1 << 16)), (this.at = 0));
    this.buf[this.at++] = b;
  }

  write(code: number, size: number) {
    this.acc = (this.acc << size) | (code & ((1 << size) - 1));
    this.bits += size;
    while (this.bits >= 8) {
      const b = (this.acc >>> (this.bits - 8)) & 0xff;
      this.byte(b);
      if (b === 0xff) this.byte(0);
      this.bits -= 8;
    }
    this.acc &= (1 << this.bits) - 1;
  }

  /** Pads the last byte with ones and returns every byte written. */
  finish(): Uint8Array[] {
    if (this.bits > 0) this.write(0x7f, 8 - this.bits);
    this.parts.push(this.buf.subarray(0, this.at));
    return this.parts;
  }
}

/** One component's coding state: its tables and the DC value of its previous block. */
interface Component {
  q: Uint8Array;
  dc: ReturnType<typeof codesOf>;
  ac: ReturnType<typeof codesOf>;
  last: number;
}

const bitLength = (v: number) => (v === 0 ? 0 : 32 - Math.clz32(Math.abs(v)));

const tmp = new Float32Array(64);
const coef = new Int32Array(64);

/** Transforms, quantises and codes one 8 × 8 block of level-shifted samples. */
function codeBlock(sink: BitSink, block: Float32Array, c: Component) {
  for (let y = 0; y < 8; y++)
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < 8; x++) s += BASIS[u * 8 + x]! * block[y * 8 + x]!;
      tmp[u * 8 + y] = s;
    }
  for (let v = 0; v < 8; v++)
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < 8; y++) s += BASIS[v * 8 + y]! * tmp[u * 8 + y]!;
      coef[v * 8 + u] = Math.round(s / c.q[v * 8 + u]!);
    }
  const diff = coef[0]! - c.last;
  c.last = coef[0]!;
  const dcSize = bitLength(diff);
  sink.write(c.dc.code[dcSize]!, c.dc.size[dcSize]!);
  if (dcSize) sink.write(diff < 0 ? diff - 1 : diff, dcSize);
  let run = 0;
  for (let k = 1; k < 64; k++) {
    const v = coef[ZIGZAG[k]!]!;
    if (v === 0) {
      run++;
      continue;
    }
    for (; run > 15; run -= 16) sink.write(c.ac.code[0xf0]!, c.ac.size[0xf0]!);
    const size = bitLength(v);
    const sym = (run << 4) | size;
    sink.write(c.ac.code[sym]!, c.ac.size[sym]!);
    sink.write(v < 0 ? v - 1 : v, size);
    run = 0;
  }
  if (run) sink.write(c.ac.code[0]!, c.ac.size[0]!);
}

function segment(marker: number, body: number[]): Uint8Array {
  return Uint8Array.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body]);
}

function headers(width: number, height: number, qy: Uint8Array, qc: Uint8Array): Uint8Array[] {
  const zig = (q: Uint8Array) => ZIGZAG.map((i) => q[i]!);
  const dht = (cls: number, spec: HuffSpec) => [cls, ...spec.counts, ...spec.symbols];
  return [
    Uint8Array.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0, ...zig(qy), 1, ...zig(qc)]),
    segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]),
    segment(0xc4, [...dht(0x00, DC_LUMA), ...dht(0x10, AC_LUMA), ...dht(0x01, DC_CHROMA), ...dht(0x11, AC_CHROMA)]),
    segment(0xda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]),
  ];
}

/** Encodes a width × height image whose RGB rows `rows` makes, as a baseline JPEG of the given quality. */
export function encodeJpegRows(width: number, height: number, rows: RgbRows, quality = 90): Uint8Array {
  const qy = scaled(LUMA_Q, quality);
  const qc = scaled(CHROMA_Q, quality);
  const luma = { q: qy, dc: codesOf(DC_LUMA), ac: codesOf(AC_LUMA), last: 0 };
  const cb = { q: qc, dc: codesOf(DC_CHROMA), ac: codesOf(AC_CHROMA), last: 0 };
  const cr = { ...cb, last: 0 };
  const sink = new BitSink();
  const strip = new Uint8Array(8 * width * 3);
  const blocks = [new Float32Array(64), new Float32Array(64), new Float32Array(64)] as const;
  for (let y0 = 0; y0 < height; y0 += 8) {
    const n = Math.min(8, height - y0);
    for (let r = 0; r < n; r++) rows(y0 + r, strip, r * width * 3);
    for (let x0 = 0; x0 < width; x0 += 8) {
      // The block's samples, level-shifted; past the image's edge its last row and column repeat.
      for (let j = 0; j < 8; j++)
        for (let i = 0; i < 8; i++) {
          const p = (Math.min(j, n - 1) * width + Math.min(x0 + i, width - 1)) * 3;
          const R = strip[p]!,
            G = strip[p + 1]!,
            B = strip[p + 2]!;
          blocks[0][j * 8 + i] = 0.299 * R + 0.587 * G + 0.114 * B - 128;
          blocks[1][j * 8 + i] = -0.168736 * R - 0.331264 * G + 0.5 * B;
          blocks[2][j * 8 + i] = 0.5 * R - 0.418688 * G - 0.081312 * B;
        }
      codeBlock(sink, blocks[0], luma);
      codeBlock(sink, blocks[1], cb);
      codeBlock(sink, blocks[2], cr);
    }
  }
  return concat([...headers(width, height, qy, qc), ...sink.finish(), Uint8Array.from([0xff, 0xd9])]);
}
