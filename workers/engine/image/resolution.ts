import type { InputFormat } from "../../shared/engine-contract";
import { tiffPageResolution } from "./tiff";

/**
 * Resolution stated by a raster file, in pixels per inch, or null where it states none: a PNG's
 * pHYs chunk (in metres), a JPEG's JFIF density (inches or centimetres), a TIFF page's
 * X/YResolution (ResolutionUnit inches by default, or centimetres), a BMP's pixels per metre. GIF,
 * WebP and PNM files state none. Pixels much taller than wide, or the reverse (a fax's 204 × 98),
 * give none: one figure cannot describe them.
 */
export function declaredResolution(bytes: Uint8Array, format: InputFormat, page = 0): number | null {
  try {
    const xy = STATED[format]?.(bytes, page);
    if (!xy) return null;
    const [x, y] = xy;
    return x > 0 && y > 0 && Math.abs(x - y) <= 0.05 * y ? y : null;
  } catch {
    // Headers were checked when the file was decoded; a stated resolution is only ever a hint.
    return null;
  }
}

/** Longest side (inches) a page may measure at its stated resolution: up to A2 (23.4 in). */
const MAX_PAGE_INCHES = 24;

/** Resolutions tesseract takes as given; outside them it estimates its own (its kMin/MaxCredibleResolution). */
const MIN_CREDIBLE_PPI = 70;
const MAX_CREDIBLE_PPI = 2400;

/**
 * A stated resolution believed for an image of `width` × `height` pixels, or null. Cameras and
 * screenshots state 72 or 96 ppi whatever they show: such a statement makes a 4000-pixel photo 55
 * inches long, which no page is, and is not believed; tesseract then estimates the resolution from
 * the text's size, as it does when none is stated.
 */
export function credibleResolution(ppi: number | null, width: number, height: number): number | null {
  if (!ppi || ppi < MIN_CREDIBLE_PPI || ppi > MAX_CREDIBLE_PPI) return null;
  return Math.max(width, height) / ppi <= MAX_PAGE_INCHES ? ppi : null;
}

/** A raster's pixels per inch as tesseract takes them: rounded, and 0 (estimate them) where unknown or not credible. */
export function credibleDpi(dpi: number | undefined): number {
  return dpi && dpi >= MIN_CREDIBLE_PPI && dpi <= MAX_CREDIBLE_PPI ? Math.round(dpi) : 0;
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

const PER_METRE = 0.0254;

function pngResolution(b: Uint8Array): [number, number] | null {
  const dv = view(b);
  for (let off = 8; off + 12 <= b.length;) {
    const len = dv.getUint32(off);
    const type = String.fromCharCode(...b.subarray(off + 4, off + 8));
    if (type === "IDAT" || type === "IEND") return null;
    if (type === "pHYs" && len === 9) {
      return b[off + 16] === 1 ? [dv.getUint32(off + 8) * PER_METRE, dv.getUint32(off + 12) * PER_METRE] : null;
    }
    off += 12 + len;
  }
  return null;
}

function jfifResolution(b: Uint8Array): [number, number] | null {
  const dv = view(b);
  // JFIF's APP0 segment follows the start-of-image marker.
  if (b.length < 20 || dv.getUint16(2) !== 0xffe0 || String.fromCharCode(...b.subarray(6, 11)) !== "JFIF\0") return null;
  const unit = b[13];
  const per = unit === 1 ? 1 : unit === 2 ? 2.54 : 0;
  return per ? [dv.getUint16(14) * per, dv.getUint16(16) * per] : null;
}

function bmpResolution(b: Uint8Array): [number, number] | null {
  const dv = view(b);
  // BITMAPINFOHEADER and later: pixels per metre at bytes 38 and 42; the old core header has none.
  if (b.length < 46 || dv.getUint32(14, true) < 40) return null;
  return [dv.getInt32(38, true) * PER_METRE, dv.getInt32(42, true) * PER_METRE];
}

/** The X and Y resolution each format's header states. */
const STATED: Partial<Record<InputFormat, (bytes: Uint8Array, page: number) => [number, number] | null>> = {
  png: pngResolution,
  jpeg: jfifResolution,
  bmp: bmpResolution,
  tiff: tiffPageResolution,
};
