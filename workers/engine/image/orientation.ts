import type { GrayImage } from "./gray";

/**
 * EXIF / TIFF Orientation (tag 274): how the stored pixels map onto the upright picture.
 * 1 upright, 2 mirrored left-right, 3 turned 180°, 4 mirrored top-bottom, 5 transposed,
 * 6 to be turned 90° clockwise, 7 transversed, 8 to be turned 90° counter-clockwise.
 */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export function asOrientation(value: number | undefined): Orientation {
  return value !== undefined && Number.isInteger(value) && value >= 1 && value <= 8 ? (value as Orientation) : 1;
}

/** The upright picture of pixels stored with `orientation`. */
export function applyOrientation(img: GrayImage, orientation: Orientation): GrayImage {
  if (orientation === 1) return img;
  const turned = orientPixels(img.data, img.width, img.height, orientation);
  return { width: turned.width, height: turned.height, data: turned.data };
}

/** The upright picture of RGBA pixels (4 bytes a pixel) stored with `orientation`. */
export function applyOrientationRgba<T extends { width: number; height: number; data: Uint8Array }>(img: T, orientation: Orientation): T {
  if (orientation === 1) return img;
  const words = new Uint32Array(img.data.buffer.slice(img.data.byteOffset, img.data.byteOffset + img.width * img.height * 4));
  const turned = orientPixels(words, img.width, img.height, orientation);
  return { ...img, width: turned.width, height: turned.height, data: new Uint8Array(turned.data.buffer) };
}

/** `applyOrientation` on any one-element-a-pixel raster. */
function orientPixels<A extends Uint8Array | Uint32Array>(src: A, w: number, h: number, orientation: Orientation) {
  const swap = orientation >= 5;
  const ow = swap ? h : w;
  const oh = swap ? w : h;
  const out = (src instanceof Uint32Array ? new Uint32Array(ow * oh) : new Uint8Array(ow * oh)) as A;
  // For each output pixel (x, y), the stored pixel it shows.
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      let sx: number, sy: number;
      switch (orientation) {
        case 2:
          sx = w - 1 - x;
          sy = y;
          break;
        case 3:
          sx = w - 1 - x;
          sy = h - 1 - y;
          break;
        case 4:
          sx = x;
          sy = h - 1 - y;
          break;
        case 5:
          sx = y;
          sy = x;
          break;
        case 6:
          sx = y;
          sy = h - 1 - x;
          break;
        case 7:
          sx = w - 1 - y;
          sy = h - 1 - x;
          break;
        default:
          sx = w - 1 - y;
          sy = x;
          break; // 8
      }
      out[y * ow + x] = src[sy * w + sx]!;
    }
  }
  return { width: ow, height: oh, data: out };
}

/**
 * The Orientation of a JPEG's EXIF block (APP1 "Exif"), 1 when it has none. Reads only the
 * markers before the first scan.
 */
export function jpegOrientation(b: Uint8Array): Orientation {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let off = 2;
  while (off + 4 <= b.length && b[off] === 0xff) {
    const marker = b[off + 1]!;
    if (marker === 0xda || marker === 0xd9) break;
    if (marker === 0xff || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      off += marker === 0xff ? 1 : 2;
      continue;
    }
    const len = dv.getUint16(off + 2);
    const start = off + 4;
    if (marker === 0xe1 && len >= 16 && start + len - 2 <= b.length && String.fromCharCode(...b.subarray(start, start + 4)) === "Exif") {
      return asOrientation(tiffOrientation(b.subarray(start + 6, start + len - 2)));
    }
    off += 2 + len;
  }
  return 1;
}

/** Orientation (tag 274) of the first directory of a TIFF structure (an EXIF block is one). */
function tiffOrientation(t: Uint8Array): number | undefined {
  if (t.length < 8) return undefined;
  const dv = new DataView(t.buffer, t.byteOffset, t.byteLength);
  const le = t[0] === 0x49;
  const ifd = dv.getUint32(4, le);
  if (ifd + 2 > t.length) return undefined;
  const count = dv.getUint16(ifd, le);
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > t.length) return undefined;
    if (dv.getUint16(e, le) === 274 && dv.getUint16(e + 2, le) === 3) return dv.getUint16(e + 8, le);
  }
  return undefined;
}
