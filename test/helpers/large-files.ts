import { PDFDocument } from "pdf-lib";

export const MiB = 1024 * 1024;

/** `n` random bytes: data no compression shrinks. */
export function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  // getRandomValues fills at most 64 KiB a call.
  for (let at = 0; at < n; at += 65536) crypto.getRandomValues(out.subarray(at, Math.min(n, at + 65536)));
  return out;
}

/** Payload bytes of one APP15 segment: a segment's length field (16 bits) counts itself too. */
const SEGMENT = 65533;

/**
 * The JPEG with at least `extra` bytes of random data in APP15 segments after its start marker:
 * still the same image to every decoder (application segments are skipped), as large as a scan at
 * a high resolution and quality, and as incompressible.
 */
export function paddedJpeg(jpeg: Uint8Array, extra: number): Uint8Array {
  const count = Math.ceil(extra / (SEGMENT + 4));
  const out = new Uint8Array(jpeg.length + count * (SEGMENT + 4));
  out.set(jpeg.subarray(0, 2));
  const noise = randomBytes(count * SEGMENT);
  let at = 2;
  for (let i = 0; i < count; i++, at += SEGMENT + 4) {
    out.set([0xff, 0xef, (SEGMENT + 2) >> 8, (SEGMENT + 2) & 0xff], at);
    out.set(noise.subarray(i * SEGMENT, (i + 1) * SEGMENT), at + 4);
  }
  out.set(jpeg.subarray(2), at);
  return out;
}

/**
 * A scanned document of `pages` JPEG pages (each `jpeg`, padded) of about `size` bytes in all, as
 * img2pdf makes them: each page one image, drawn at its pixel size.
 */
export async function scannedJpegPdf(jpeg: Uint8Array, pages: number, size: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const image = await pdf.embedJpg(paddedJpeg(jpeg, Math.floor(size / pages) - jpeg.length - 2048));
    pdf.addPage([image.width, image.height]).drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  }
  return pdf.save({ useObjectStreams: false });
}

/** SHA-256 of `bytes`, hex: large bodies are compared by digest. */
export async function digest(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}
