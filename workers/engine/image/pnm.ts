import { engineError } from "../errors";
import { luma, type GrayImage } from "./gray";
import { assertDimensions } from "./limits";

/**
 * Netpbm images: PBM (P1 text, P4 binary bits), PGM (P2, P5) and PPM (P3, P6), decoded straight
 * to 8-bit gray. The header (magic, width, height, maxval; `#` comments allowed) is checked before
 * any pixel is allocated, and binary files must hold all the pixels they declare.
 */

export interface PnmHeader {
  kind: number;
  width: number;
  height: number;
  maxval: number;
  /** Offset of the first pixel byte (binary) or character (text). */
  dataOffset: number;
}

const corrupt = (why: string) => engineError("corrupt_file", `The PBM/PGM/PPM file is truncated or corrupt: ${why}.`);

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

/** Reads unsigned decimal tokens, skipping whitespace and `#` comments. */
class Tokens {
  constructor(
    private readonly b: Uint8Array,
    public pos: number,
  ) {}
  private skip(): void {
    const b = this.b;
    while (this.pos < b.length) {
      if (isSpace(b[this.pos]!)) this.pos++;
      else if (b[this.pos] === 0x23) while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      else break;
    }
  }
  /** The next number; PBM text pixels may run together ("0110"), so `digits` caps its length. */
  number(what: string, digits = 10): number {
    this.skip();
    const b = this.b;
    let v = 0;
    let n = 0;
    while (n < digits && this.pos < b.length && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x39) {
      v = v * 10 + b[this.pos]! - 0x30;
      this.pos++;
      n++;
    }
    if (n === 0) throw corrupt(this.pos >= b.length ? `it ends before its ${what}` : `its ${what} is not a number`);
    return v;
  }
}

export function readPnmHeader(b: Uint8Array): PnmHeader {
  if (b.length < 3 || b[0] !== 0x50 || b[1]! < 0x31 || b[1]! > 0x36) throw corrupt("no P1–P6 signature");
  const kind = b[1]! - 0x30;
  const t = new Tokens(b, 2);
  const width = t.number("width");
  const height = t.number("height");
  const bitmap = kind === 1 || kind === 4;
  const maxval = bitmap ? 1 : t.number("maximum value");
  if (maxval < 1 || maxval > 65535) throw corrupt(`its maximum value ${maxval} is outside 1–65535`);
  // Exactly one whitespace character separates the header from binary pixels.
  if (t.pos >= b.length || !isSpace(b[t.pos]!)) throw corrupt("no pixel data follows the header");
  assertDimensions(width, height, "PBM/PGM/PPM image");
  const header = { kind, width, height, maxval, dataOffset: t.pos + 1 };
  if (kind >= 4) {
    const need = binaryLength(header);
    if (header.dataOffset + need > b.length)
      throw corrupt(`it holds ${b.length - header.dataOffset} of the ${need} pixel bytes its header declares`);
  }
  return header;
}

function binaryLength(h: PnmHeader): number {
  if (h.kind === 4) return Math.ceil(h.width / 8) * h.height;
  const bytes = h.maxval > 255 ? 2 : 1;
  return h.width * h.height * (h.kind === 6 ? 3 : 1) * bytes;
}

/** Decodes a PBM, PGM or PPM image to gray (PBM: 1 is black). */
export function decodePnm(b: Uint8Array): GrayImage {
  const h = readPnmHeader(b);
  const { width, height, maxval, kind } = h;
  const n = width * height;
  const out = new Uint8Array(n);
  const scale = 255 / maxval;
  const channels = kind === 3 || kind === 6 ? 3 : 1;
  if (kind === 4) {
    const rowBytes = Math.ceil(width / 8);
    for (let y = 0; y < height; y++) {
      const row = h.dataOffset + y * rowBytes;
      for (let x = 0; x < width; x++) out[y * width + x] = (b[row + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 0 : 255;
    }
  } else if (kind >= 5) {
    const wide = maxval > 255;
    let p = h.dataOffset;
    const sample = () => {
      const v = wide ? (b[p]! << 8) | b[p + 1]! : b[p]!;
      p += wide ? 2 : 1;
      return Math.min(255, Math.round(v * scale));
    };
    for (let i = 0; i < n; i++) out[i] = channels === 3 ? luma(sample(), sample(), sample()) : sample();
  } else {
    const t = new Tokens(b, h.dataOffset - 1);
    const next = (what: string) => t.number(what, kind === 1 ? 1 : 10);
    for (let i = 0; i < n; i++) {
      if (kind === 1) out[i] = next("pixels") ? 0 : 255;
      else {
        const s = () => Math.min(255, Math.round(next("pixels") * scale));
        out[i] = channels === 3 ? luma(s(), s(), s()) : s();
      }
    }
  }
  return { width, height, data: out };
}
