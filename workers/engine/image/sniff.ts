import type { InputFormat } from "../../shared/engine-contract";

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  return sig.every((b, i) => bytes[at + i] === b);
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The input format from the file's magic bytes, or null when it is none we accept. */
export function sniffFormat(bytes: Uint8Array): InputFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("BM")) && bytes.length >= 26) return "bmp";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  // Netpbm: P1–P6, then whitespace or a comment before the width.
  if (bytes.length >= 3 && bytes[0] === 0x50 && bytes[1]! >= 0x31 && bytes[1]! <= 0x36 && /[\s#]/.test(String.fromCharCode(bytes[2]!)))
    return "pnm";
  // PDF: the header may follow a little junk (the spec tolerates it within the first 1024 bytes).
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (head.includes("%PDF-")) return "pdf";
  return null;
}
