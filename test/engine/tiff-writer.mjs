// Writes baseline TIFFs (Node) for the engine's tests: 8-bit gray, RGB, palette or CMYK pages, uncompressed, LZW,
// PackBits or Deflate. Encoders follow the TIFF 6.0 specification.
import { deflateSync } from "node:zlib";

/** TIFF LZW: MSB-first codes from 9 bits, Clear first, EOI last, code width grown "early". */
export function lzwEncode(data) {
  const out = [];
  let acc = 0;
  let nacc = 0;
  let width = 9;
  const put = (code) => {
    acc = (acc << width) | code;
    nacc += width;
    while (nacc >= 8) {
      out.push((acc >>> (nacc - 8)) & 0xff);
      nacc -= 8;
    }
    acc &= (1 << nacc) - 1;
  };
  let dict = new Map();
  let next = 258;
  put(256);
  let w = -1;
  for (const c of data) {
    if (w === -1) {
      w = c;
      continue;
    }
    const hit = dict.get(w * 256 + c);
    if (hit !== undefined) {
      w = hit;
      continue;
    }
    put(w);
    dict.set(w * 256 + c, next++);
    // The decoder adds its entries one code later, and widens at (1 << width) - 1: hence 1 << width here.
    if (next >= 1 << width && width < 12) width++;
    if (next >= 4094) {
      put(256);
      dict = new Map();
      next = 258;
      width = 9;
    }
    w = c;
  }
  if (w !== -1) put(w);
  put(257);
  if (nacc > 0) out.push((acc << (8 - nacc)) & 0xff);
  return Uint8Array.from(out);
}

/** PackBits, row by row (runs never cross rows, as the specification asks). */
export function packBitsEncode(data, rowBytes) {
  const out = [];
  for (let r = 0; r < data.length; r += rowBytes) {
    const row = data.subarray(r, r + rowBytes);
    let i = 0;
    while (i < row.length) {
      let run = 1;
      while (i + run < row.length && run < 128 && row[i + run] === row[i]) run++;
      if (run >= 3) {
        out.push(257 - run, row[i]);
        i += run;
        continue;
      }
      let lit = 1;
      while (
        i + lit < row.length &&
        lit < 128 &&
        !(i + lit + 2 < row.length && row[i + lit] === row[i + lit + 1] && row[i + lit] === row[i + lit + 2])
      )
        lit++;
      out.push(lit - 1, ...row.subarray(i, i + lit));
      i += lit;
    }
  }
  return Uint8Array.from(out);
}

const COMPRESSION = { none: 1, lzw: 5, deflate: 8, packbits: 32773 };

/**
 * A multi-page TIFF. Each page: `{ width, height, samples, pixels, compression, rowsPerStrip?, raw? }`
 * (`raw` replaces the encoded strip data, to build damaged pages; `compressionCode` forces a code;
 * `photometric` another interpretation than gray or RGB, with `colorMap`, 3 × 256 values, a palette's).
 */
export function writeTiff(pages) {
  const parts = [];
  let offset = 8;
  const header = new Uint8Array(8);
  header.set([0x49, 0x49, 0x2a, 0x00]);
  parts.push(header);
  const ifdOffsets = [];
  for (const p of pages) {
    const rowBytes = p.width * p.samples;
    const rps = p.rowsPerStrip ?? Math.max(1, Math.floor(8192 / rowBytes));
    const strips = [];
    for (let y = 0; y < p.height; y += rps) {
      const slice = p.pixels.subarray(y * rowBytes, Math.min(p.height, y + rps) * rowBytes);
      const enc =
        p.raw ??
        (p.compression === "lzw"
          ? lzwEncode(slice)
          : p.compression === "packbits"
            ? packBitsEncode(slice, rowBytes)
            : p.compression === "deflate"
              ? deflateSync(slice)
              : slice);
      strips.push(enc);
    }
    const stripOffsets = [];
    for (const s of strips) {
      stripOffsets.push(offset);
      parts.push(s);
      offset += s.length;
      if (offset % 2) {
        parts.push(new Uint8Array(1));
        offset++;
      }
    }
    // Arrays of 16- or 32-bit values (bits per sample, a palette's colour map, strip offsets and counts) after the strips.
    const arr = (values, size = 4) => {
      const b = new Uint8Array(values.length * size);
      const dv = new DataView(b.buffer);
      values.forEach((v, i) => (size === 2 ? dv.setUint16(i * 2, v, true) : dv.setUint32(i * 4, v, true)));
      const at = offset;
      parts.push(b);
      offset += b.length;
      return at;
    };
    const bps = p.samples > 1 ? arr(Array(p.samples).fill(8), 2) : null;
    const colorMapAt = p.colorMap ? arr(p.colorMap, 2) : null;
    const offsAt = strips.length > 1 ? arr(stripOffsets) : null;
    const countsAt = strips.length > 1 ? arr(strips.map((s) => s.length)) : null;
    const tags = [
      [256, 4, 1, p.width],
      [257, 4, 1, p.height],
      [258, 3, p.samples, bps ?? 8],
      [259, 3, 1, p.compressionCode ?? COMPRESSION[p.compression]],
      [262, 3, 1, p.photometric ?? (p.samples === 3 ? 2 : 1)],
      [273, 4, strips.length, offsAt ?? stripOffsets[0]],
      [277, 3, 1, p.samples],
      [278, 4, 1, rps],
      [279, 4, strips.length, countsAt ?? strips[0].length],
      ...(colorMapAt === null ? [] : [[320, 3, p.colorMap.length, colorMapAt]]),
    ];
    const ifd = new Uint8Array(2 + tags.length * 12 + 4);
    const dv = new DataView(ifd.buffer);
    dv.setUint16(0, tags.length, true);
    tags.forEach(([tag, type, count, value], i) => {
      const e = 2 + i * 12;
      dv.setUint16(e, tag, true);
      dv.setUint16(e + 2, type, true);
      dv.setUint32(e + 4, count, true);
      if (type === 3 && count === 1) dv.setUint16(e + 8, value, true);
      else dv.setUint32(e + 8, value, true);
    });
    ifdOffsets.push({ at: offset, buf: ifd, dv });
    parts.push(ifd);
    offset += ifd.length;
  }
  ifdOffsets.forEach((f, i) => f.dv.setUint32(f.buf.length - 4, ifdOffsets[i + 1]?.at ?? 0, true));
  new DataView(header.buffer).setUint32(4, ifdOffsets[0].at, true);
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
