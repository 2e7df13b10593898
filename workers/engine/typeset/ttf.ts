/**
 * The little of a TrueType/OpenType font that layout needs: which characters it has (cmap formats
 * 4 and 12), their advance widths (hmtx), units per em, ascender/descender and its family name.
 * resvg draws the glyphs; measuring here with the same font files keeps line breaks and the size
 * search in step with what is drawn (kerning aside, a fraction of a percent).
 */
export interface FontMetrics {
  family: string;
  unitsPerEm: number;
  ascender: number;
  descender: number;
  /** Height of its capitals in font units (OS/2 version 2 and later), when the font gives it. */
  capHeight?: number;
  /** Advance width in font units of a code point, or undefined when the font lacks it. */
  advance(cp: number): number | undefined;
}

function tables(dv: DataView): Map<string, number> {
  const n = dv.getUint16(4);
  const out = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const rec = 12 + i * 16;
    const tag = String.fromCharCode(dv.getUint8(rec), dv.getUint8(rec + 1), dv.getUint8(rec + 2), dv.getUint8(rec + 3));
    out.set(tag, dv.getUint32(rec + 8));
  }
  return out;
}

function cmapOf(dv: DataView, cmap: number): Map<number, number> {
  const glyphs = new Map<number, number>();
  const n = dv.getUint16(cmap + 2);
  let best = -1;
  let bestFormat = 0;
  for (let i = 0; i < n; i++) {
    const platform = dv.getUint16(cmap + 4 + i * 8);
    const encoding = dv.getUint16(cmap + 6 + i * 8);
    const off = cmap + dv.getUint32(cmap + 8 + i * 8);
    const format = dv.getUint16(off);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    if (format === 12 || (format === 4 && bestFormat !== 12)) {
      best = off;
      bestFormat = format;
    }
  }
  if (best < 0) return glyphs;
  if (bestFormat === 12) {
    const groups = dv.getUint32(best + 12);
    for (let g = 0; g < groups; g++) {
      const p = best + 16 + g * 12;
      const start = dv.getUint32(p),
        end = dv.getUint32(p + 4),
        gid = dv.getUint32(p + 8);
      for (let c = start; c <= end; c++) glyphs.set(c, gid + (c - start));
    }
    return glyphs;
  }
  const segX2 = dv.getUint16(best + 6);
  const ends = best + 14,
    starts = ends + segX2 + 2,
    deltas = starts + segX2,
    ranges = deltas + segX2;
  for (let s = 0; s < segX2 / 2; s++) {
    const end = dv.getUint16(ends + s * 2),
      start = dv.getUint16(starts + s * 2);
    const delta = dv.getInt16(deltas + s * 2),
      rangeOff = dv.getUint16(ranges + s * 2);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let gid: number;
      if (rangeOff === 0) gid = (c + delta) & 0xffff;
      else {
        const g = dv.getUint16(ranges + s * 2 + rangeOff + (c - start) * 2);
        gid = g === 0 ? 0 : (g + delta) & 0xffff;
      }
      if (gid) glyphs.set(c, gid);
    }
  }
  return glyphs;
}

function familyOf(dv: DataView, name: number): string {
  const count = dv.getUint16(name + 2);
  const strings = name + dv.getUint16(name + 4);
  let found = "";
  for (let i = 0; i < count; i++) {
    const r = name + 6 + i * 12;
    const platform = dv.getUint16(r),
      nameId = dv.getUint16(r + 6),
      len = dv.getUint16(r + 8),
      off = dv.getUint16(r + 10);
    if (nameId !== 1) continue;
    if (platform === 3 || platform === 0) {
      let s = "";
      for (let k = 0; k < len; k += 2) s += String.fromCharCode(dv.getUint16(strings + off + k));
      return s;
    }
    if (platform === 1 && !found) for (let k = 0; k < len; k++) found += String.fromCharCode(dv.getUint8(strings + off + k));
  }
  return found;
}

/** Parses the metrics of a TTF/OTF font file. */
export function parseFont(bytes: Uint8Array): FontMetrics {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const t = tables(dv);
  const head = t.get("head"),
    hhea = t.get("hhea"),
    hmtx = t.get("hmtx"),
    cmap = t.get("cmap"),
    name = t.get("name"),
    os2 = t.get("OS/2");
  if (head === undefined || hhea === undefined || hmtx === undefined || cmap === undefined)
    throw new Error("not a TrueType/OpenType font (tables missing)");
  const unitsPerEm = dv.getUint16(head + 18);
  const ascender = dv.getInt16(hhea + 4),
    descender = dv.getInt16(hhea + 6);
  const metrics = dv.getUint16(hhea + 34);
  const glyphs = cmapOf(dv, cmap);
  const lastAdvance = dv.getUint16(hmtx + (metrics - 1) * 4);
  const capHeight = os2 !== undefined && dv.getUint16(os2) >= 2 ? dv.getInt16(os2 + 88) : undefined;
  return {
    family: name !== undefined ? familyOf(dv, name) : "",
    unitsPerEm,
    ascender,
    descender,
    ...(capHeight ? { capHeight } : {}),
    advance(cp) {
      const gid = glyphs.get(cp);
      if (gid === undefined) return undefined;
      return gid < metrics ? dv.getUint16(hmtx + gid * 4) : lastAdvance;
    },
  };
}
