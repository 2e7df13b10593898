import { engineError } from "../errors";

/**
 * CCITT fax decoding (ITU-T T.4 and T.6), as scanners and fax software store bilevel pages:
 * - `mh`: Modified Huffman runs, each row starting on a byte boundary, no EOL codes
 *   (TIFF compression 2, "CCITT RLE");
 * - `g3`: T.4 with EOL codes, rows one-dimensional, or with `twoD` each row tagged 1D or 2D
 *   after its EOL (TIFF compression 3 and its T4Options);
 * - `g4`: T.6, every row two-dimensional against the row above, no EOLs (TIFF compression 4).
 *
 * Output: packed rows (MSB first, `ceil(width / 8)` bytes a row) where 1 is a black pixel in the
 * fax sense; the caller applies the file's photometric interpretation. The code tables are the
 * ones listed in T.4 §4.1 (terminating, make-up and extended make-up codes) and §4.2 (modes).
 */

export type CcittMode = "mh" | "g3" | "g4";

export interface CcittOptions {
  width: number;
  height: number;
  mode: CcittMode;
  /** g3: rows may be coded two-dimensionally (T4Options bit 0; PDF K > 0). */
  twoD?: boolean;
  /** Bits are stored least significant first in each byte (TIFF FillOrder 2). */
  lsbFirst?: boolean;
}

const corrupt = (why: string) => engineError("corrupt_file", `The CCITT fax data is corrupt: ${why}.`);

// Run-length codes as written in T.4: [code bits, run length].
const WHITE_CODES: [string, number][] = [
  ["00110101", 0],
  ["000111", 1],
  ["0111", 2],
  ["1000", 3],
  ["1011", 4],
  ["1100", 5],
  ["1110", 6],
  ["1111", 7],
  ["10011", 8],
  ["10100", 9],
  ["00111", 10],
  ["01000", 11],
  ["001000", 12],
  ["000011", 13],
  ["110100", 14],
  ["110101", 15],
  ["101010", 16],
  ["101011", 17],
  ["0100111", 18],
  ["0001100", 19],
  ["0001000", 20],
  ["0010111", 21],
  ["0000011", 22],
  ["0000100", 23],
  ["0101000", 24],
  ["0101011", 25],
  ["0010011", 26],
  ["0100100", 27],
  ["0011000", 28],
  ["00000010", 29],
  ["00000011", 30],
  ["00011010", 31],
  ["00011011", 32],
  ["00010010", 33],
  ["00010011", 34],
  ["00010100", 35],
  ["00010101", 36],
  ["00010110", 37],
  ["00010111", 38],
  ["00101000", 39],
  ["00101001", 40],
  ["00101010", 41],
  ["00101011", 42],
  ["00101100", 43],
  ["00101101", 44],
  ["00000100", 45],
  ["00000101", 46],
  ["00001010", 47],
  ["00001011", 48],
  ["01010010", 49],
  ["01010011", 50],
  ["01010100", 51],
  ["01010101", 52],
  ["00100100", 53],
  ["00100101", 54],
  ["01011000", 55],
  ["01011001", 56],
  ["01011010", 57],
  ["01011011", 58],
  ["01001010", 59],
  ["01001011", 60],
  ["00110010", 61],
  ["00110011", 62],
  ["00110100", 63],
  ["11011", 64],
  ["10010", 128],
  ["010111", 192],
  ["0110111", 256],
  ["00110110", 320],
  ["00110111", 384],
  ["01100100", 448],
  ["01100101", 512],
  ["01101000", 576],
  ["01100111", 640],
  ["011001100", 704],
  ["011001101", 768],
  ["011010010", 832],
  ["011010011", 896],
  ["011010100", 960],
  ["011010101", 1024],
  ["011010110", 1088],
  ["011010111", 1152],
  ["011011000", 1216],
  ["011011001", 1280],
  ["011011010", 1344],
  ["011011011", 1408],
  ["010011000", 1472],
  ["010011001", 1536],
  ["010011010", 1600],
  ["011000", 1664],
  ["010011011", 1728],
];

const BLACK_CODES: [string, number][] = [
  ["0000110111", 0],
  ["010", 1],
  ["11", 2],
  ["10", 3],
  ["011", 4],
  ["0011", 5],
  ["0010", 6],
  ["00011", 7],
  ["000101", 8],
  ["000100", 9],
  ["0000100", 10],
  ["0000101", 11],
  ["0000111", 12],
  ["00000100", 13],
  ["00000111", 14],
  ["000011000", 15],
  ["0000010111", 16],
  ["0000011000", 17],
  ["0000001000", 18],
  ["00001100111", 19],
  ["00001101000", 20],
  ["00001101100", 21],
  ["00000110111", 22],
  ["00000101000", 23],
  ["00000010111", 24],
  ["00000011000", 25],
  ["000011001010", 26],
  ["000011001011", 27],
  ["000011001100", 28],
  ["000011001101", 29],
  ["000001101000", 30],
  ["000001101001", 31],
  ["000001101010", 32],
  ["000001101011", 33],
  ["000011010010", 34],
  ["000011010011", 35],
  ["000011010100", 36],
  ["000011010101", 37],
  ["000011010110", 38],
  ["000011010111", 39],
  ["000001101100", 40],
  ["000001101101", 41],
  ["000011011010", 42],
  ["000011011011", 43],
  ["000001010100", 44],
  ["000001010101", 45],
  ["000001010110", 46],
  ["000001010111", 47],
  ["000001100100", 48],
  ["000001100101", 49],
  ["000001010010", 50],
  ["000001010011", 51],
  ["000000100100", 52],
  ["000000110111", 53],
  ["000000111000", 54],
  ["000000100111", 55],
  ["000000101000", 56],
  ["000001011000", 57],
  ["000001011001", 58],
  ["000000101011", 59],
  ["000000101100", 60],
  ["000001011010", 61],
  ["000001100110", 62],
  ["000001100111", 63],
  ["0000001111", 64],
  ["000011001000", 128],
  ["000011001001", 192],
  ["000001011011", 256],
  ["000000110011", 320],
  ["000000110100", 384],
  ["000000110101", 448],
  ["0000001101100", 512],
  ["0000001101101", 576],
  ["0000001001010", 640],
  ["0000001001011", 704],
  ["0000001001100", 768],
  ["0000001001101", 832],
  ["0000001110010", 896],
  ["0000001110011", 960],
  ["0000001110100", 1024],
  ["0000001110101", 1088],
  ["0000001110110", 1152],
  ["0000001110111", 1216],
  ["0000001010010", 1280],
  ["0000001010011", 1344],
  ["0000001010100", 1408],
  ["0000001010101", 1472],
  ["0000001011010", 1536],
  ["0000001011011", 1600],
  ["0000001100100", 1664],
  ["0000001100101", 1728],
];

/** Extended make-up codes, shared by both colours (T.4 table 3). */
const EXTENDED_CODES: [string, number][] = [
  ["00000001000", 1792],
  ["00000001100", 1856],
  ["00000001101", 1920],
  ["000000010010", 1984],
  ["000000010011", 2048],
  ["000000010100", 2112],
  ["000000010101", 2176],
  ["000000010110", 2240],
  ["000000010111", 2304],
  ["000000011100", 2368],
  ["000000011101", 2432],
  ["000000011110", 2496],
  ["000000011111", 2560],
];

const PASS = 100;
const HORIZONTAL = 101;
const EXTENSION = 102;
/** Two-dimensional mode codes (T.4 table 4); vertical modes carry their offset a1 - b1. */
const MODE_CODES: [string, number][] = [
  ["1", 0],
  ["011", 1],
  ["000011", 2],
  ["0000011", 3],
  ["010", -1],
  ["000010", -2],
  ["0000010", -3],
  ["0001", PASS],
  ["001", HORIZONTAL],
  ["0000001", EXTENSION],
];

const LOOKUP_BITS = 13;
const EOL_BITS = 12;

/**
 * A table indexed by the next LOOKUP_BITS bits: `(length << 16) | (value + 8)`, 0 for no code.
 * Refuses code lists where one code is the prefix of another (a mistyped table).
 */
function lookupTable(codes: [string, number][]): Int32Array {
  const table = new Int32Array(1 << LOOKUP_BITS);
  for (const [bits, value] of codes) {
    const len = bits.length;
    const start = parseInt(bits, 2) << (LOOKUP_BITS - len);
    for (let i = 0; i < 1 << (LOOKUP_BITS - len); i++) {
      if (table[start + i] !== 0) throw new Error(`CCITT code ${bits} overlaps another code`);
      table[start + i] = (len << 16) | (value + 8);
    }
  }
  return table;
}

const WHITE = lookupTable([...WHITE_CODES, ...EXTENDED_CODES]);
const BLACK = lookupTable([...BLACK_CODES, ...EXTENDED_CODES]);
const MODES = lookupTable(MODE_CODES);

const REVERSED = (() => {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) {
    let r = 0;
    for (let b = 0; b < 8; b++) if (i & (1 << b)) r |= 0x80 >> b;
    t[i] = r;
  }
  return t;
})();

/** MSB-first bit reader; reads past the end as zeros and says so through `exhausted`. */
class Bits {
  pos = 0;
  private readonly total: number;
  constructor(private readonly data: Uint8Array) {
    this.total = data.length * 8;
  }
  get exhausted(): boolean {
    return this.pos >= this.total;
  }
  peek(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const p = this.pos + i;
      const bit = p < this.total ? (this.data[p >> 3]! >> (7 - (p & 7))) & 1 : 0;
      v = (v << 1) | bit;
    }
    return v;
  }
  skip(n: number): void {
    this.pos += n;
  }
  alignToByte(): void {
    this.pos = (this.pos + 7) & ~7;
  }
  /** Consumes an EOL (at least 11 zeros, then a one: fill bits allowed) if one comes next. */
  eol(): boolean {
    let zeros = 0;
    while (zeros < 4096 && this.pos + zeros < this.total && this.peek1(this.pos + zeros) === 0) zeros++;
    if (zeros < EOL_BITS - 1 || this.pos + zeros >= this.total) return false;
    this.pos += zeros + 1;
    return true;
  }
  private peek1(p: number): number {
    return (this.data[p >> 3]! >> (7 - (p & 7))) & 1;
  }
}

function readCode(bits: Bits, table: Int32Array, what: string): number {
  const entry = table[bits.peek(LOOKUP_BITS)]!;
  if (entry === 0) throw corrupt(bits.exhausted ? "the data ends in the middle of a row" : `an unknown ${what} code at bit ${bits.pos}`);
  bits.skip(entry >>> 16);
  return (entry & 0xffff) - 8;
}

/** One run: make-up codes (64 and more) until a terminating code (below 64). */
function readRun(bits: Bits, black: boolean): number {
  let run = 0;
  for (;;) {
    const n = readCode(bits, black ? BLACK : WHITE, black ? "black run" : "white run");
    run += n;
    if (n < 64) return run;
  }
}

/** Row as changing elements (positions where the colour flips, starting white), from 1D runs. */
function decodeRow1D(bits: Bits, width: number, changes: Int32Array): number {
  let n = 0;
  let x = 0;
  let black = false;
  while (x < width) {
    x += readRun(bits, black);
    if (x > width || n >= changes.length) throw corrupt(`a row runs past its width of ${width}`);
    changes[n++] = x;
    black = !black;
  }
  // A row ends white: a final black run closes with a change at `width`, which is not a flip.
  if (n > 0 && changes[n - 1] === width) n--;
  return n;
}

/**
 * Row as changing elements, coded against the reference row `ref` (its `refCount` changes, then
 * `width` twice as sentinels). T.4 §4.2.1.3: a0 starts before the row; b1 is the reference
 * change right of a0 whose colour is opposite a0's; b2 the next one.
 */
function decodeRow2D(bits: Bits, width: number, ref: Int32Array, refCount: number, changes: Int32Array): number {
  ref[refCount] = width;
  ref[refCount + 1] = width;
  let n = 0;
  let a0 = -1;
  let black = false;
  let j = 0; // first reference change right of a0
  while (a0 < width) {
    while (j < refCount && ref[j]! <= a0) j++;
    // Even reference changes turn black: b1 for a white a0 sits at an even index, for black at an odd one.
    const b1i = (j & 1) === (black ? 1 : 0) ? j : j + 1;
    const b1 = ref[Math.min(b1i, refCount)]!;
    const b2 = ref[Math.min(b1i + 1, refCount)]!;
    const mode = readCode(bits, MODES, "mode");
    if (mode === PASS) {
      a0 = b2;
    } else if (mode === HORIZONTAL) {
      const start = Math.max(a0, 0);
      const a1 = start + readRun(bits, black);
      const a2 = a1 + readRun(bits, !black);
      if (a2 > width || n + 2 > changes.length) throw corrupt(`a row runs past its width of ${width}`);
      changes[n++] = a1;
      changes[n++] = a2;
      a0 = a2;
    } else if (mode === EXTENSION) {
      throw engineError("unsupported_media_type", "The CCITT fax data uses uncompressed mode, which the engine does not decode.");
    } else {
      const a1 = b1 + mode;
      if (a1 < Math.max(a0, 0) || a1 > width || n + 1 > changes.length)
        throw corrupt(`a vertical code points outside the row at bit ${bits.pos}`);
      changes[n++] = a1;
      a0 = a1;
      black = !black;
    }
  }
  // Changes at the right edge are not flips inside the row.
  while (n > 0 && changes[n - 1]! >= width) n--;
  return n;
}

function fillRow(out: Uint8Array, rowStart: number, changes: Int32Array, count: number, width: number): void {
  for (let i = 0; i < count; i += 2) {
    const from = changes[i]!;
    const to = i + 1 < count ? changes[i + 1]! : width;
    for (let x = from; x < to; x++) out[rowStart + (x >> 3)]! |= 0x80 >> (x & 7);
  }
}

/** Decodes `height` rows of CCITT fax data into packed rows, 1 = black. */
export function decodeCcitt(input: Uint8Array, opts: CcittOptions): Uint8Array {
  const { width, height, mode } = opts;
  const data = opts.lsbFirst ? input.map((b) => REVERSED[b]!) : input;
  const bits = new Bits(data);
  const rowBytes = Math.ceil(width / 8);
  const out = new Uint8Array(rowBytes * height);
  let ref = new Int32Array(width + 3);
  let cur = new Int32Array(width + 3);
  let refCount = 0; // the row above the first is white: no changes
  for (let y = 0; y < height; y++) {
    let twoD = mode === "g4";
    if (mode === "g3") {
      bits.eol();
      if (opts.twoD) {
        twoD = bits.peek(1) === 0;
        bits.skip(1);
      }
    }
    if (bits.exhausted) throw corrupt(`the data ends after ${y} of ${height} rows`);
    const count = twoD ? decodeRow2D(bits, width, ref, refCount, cur) : decodeRow1D(bits, width, cur);
    fillRow(out, y * rowBytes, cur, count, width);
    [ref, cur] = [cur, ref];
    refCount = count;
    if (mode === "mh") bits.alignToByte();
  }
  return out;
}
