import { PhotonImage, Rgba, draw_text_with_color } from "@cf-wasm/photon";
import { PDFDocument } from "pdf-lib";

/** A small RGBA test picture (gray background, dark text) as a PhotonImage; the caller frees it. */
function picture(width = 160, height = 60): PhotonImage {
  const img = new PhotonImage(new Uint8Array(width * height * 4).fill(230), width, height);
  draw_text_with_color(img, "Hi", 10, 10, 30, new Rgba(0, 0, 0, 255));
  return img;
}

export function pngBytes(width?: number, height?: number): Uint8Array {
  const img = picture(width, height);
  try {
    return img.get_bytes();
  } finally {
    img.free();
  }
}

export function jpegBytes(): Uint8Array {
  const img = picture();
  try {
    return img.get_bytes_jpeg(90);
  } finally {
    img.free();
  }
}

export function webpBytes(): Uint8Array {
  const img = picture();
  try {
    return img.get_bytes_webp();
  } finally {
    img.free();
  }
}

/** The classic 1x1 transparent GIF (43 bytes). */
export const GIF_1X1 = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (c) => c.charCodeAt(0));

/** An uncompressed 24-bit BMP: white with a black square. */
export function bmpBytes(width = 40, height = 30): Uint8Array {
  const row = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + row * height;
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  b[0] = 0x42;
  b[1] = 0x4d;
  dv.setUint32(2, size, true);
  dv.setUint32(10, 54, true);
  dv.setUint32(14, 40, true);
  dv.setInt32(18, width, true);
  dv.setInt32(22, height, true);
  dv.setUint16(26, 1, true);
  dv.setUint16(28, 24, true);
  dv.setUint32(34, row * height, true);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = x > 10 && x < 20 && y > 10 && y < 20 ? 0 : 255;
      b.fill(v, 54 + y * row + x * 3, 54 + y * row + x * 3 + 3);
    }
  }
  return b;
}

/** An uncompressed 8-bit grayscale TIFF (little-endian) with `pages` pages of width x height. */
export function tiffBytes(pages: number, width = 8, height = 4): Uint8Array {
  const entries = 8;
  const ifdSize = 2 + entries * 12 + 4;
  const pixels = width * height;
  const pageSize = ifdSize + pixels;
  const b = new Uint8Array(8 + pages * pageSize);
  const dv = new DataView(b.buffer);
  b.set([0x49, 0x49, 0x2a, 0x00]);
  dv.setUint32(4, 8, true);
  for (let p = 0; p < pages; p++) {
    const ifd = 8 + p * pageSize;
    const data = ifd + ifdSize;
    dv.setUint16(ifd, entries, true);
    const tags: [number, number, number][] = [
      [256, 3, width], // ImageWidth
      [257, 3, height], // ImageLength
      [258, 3, 8], // BitsPerSample
      [259, 3, 1], // Compression: none
      [262, 3, 1], // Photometric: black is zero
      [273, 4, data], // StripOffsets
      [278, 3, height], // RowsPerStrip
      [279, 4, pixels], // StripByteCounts
    ];
    tags.forEach(([tag, type, value], i) => {
      const e = ifd + 2 + i * 12;
      dv.setUint16(e, tag, true);
      dv.setUint16(e + 2, type, true);
      dv.setUint32(e + 4, 1, true);
      if (type === 3) dv.setUint16(e + 8, value, true);
      else dv.setUint32(e + 8, value, true);
    });
    dv.setUint32(ifd + 2 + entries * 12, p + 1 < pages ? ifd + pageSize : 0, true);
    b.fill(200, data, data + pixels);
  }
  return b;
}

export async function pdfBytes(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`Page ${i + 1}`, { x: 50, y: 780, size: 24 });
  return doc.save();
}

/** A valid PNG signature and IHDR declaring width x height, with a token IDAT: no real pixels. */
export function pngHeaderOnly(width: number, height: number): Uint8Array {
  const b = new Uint8Array(8 + 25 + 12 + 1 + 12);
  const dv = new DataView(b.buffer);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  dv.setUint32(8, 13);
  b.set([0x49, 0x48, 0x44, 0x52], 12); // IHDR
  dv.setUint32(16, width);
  dv.setUint32(20, height);
  b.set([8, 6, 0, 0, 0], 24);
  dv.setUint32(33, 1);
  b.set([0x49, 0x44, 0x41, 0x54], 37); // IDAT with one byte (CRCs are not checked here)
  dv.setUint32(46, 0);
  b.set([0x49, 0x45, 0x4e, 0x44], 50); // IEND
  return b;
}
