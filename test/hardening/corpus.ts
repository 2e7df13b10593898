import { PDFDocument, PDFHexString, PDFName } from "pdf-lib";
import { renderTextPng } from "../helpers/text-image";

/**
 * Hostile files and strings, generated at run time so the corpus needs no fixtures and every
 * defect is reproducible from this file alone.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const ascii = (s: string) => new TextEncoder().encode(s);

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, data.length);
  head.set(ascii(type), 4);
  const crc = new Uint8Array(4);
  new DataView(crc.buffer).setUint32(0, crc32(concat(ascii(type), data)));
  return concat(head, data, crc);
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A well-formed PNG of a few hundred bytes whose header claims width × height (8-bit grey):
 * decoding it would allocate width × height bytes, the classic decompression bomb.
 */
export async function pngClaiming(width: number, height: number): Promise<Uint8Array> {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  // A few rows of zeros; the rest of the claimed image is simply missing.
  const idat = await deflate(new Uint8Array(Math.min(width + 1, 1 << 16) * 4));
  return concat(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", idat),
    pngChunk("IEND", new Uint8Array()),
  );
}

/** A baseline JPEG header (SOI, JFIF, SOF0 with the given size) and nothing after: no tables, no scan. */
export function jpegHeaderOnly(width: number, height: number): Uint8Array {
  const sof = [
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ];
  const jfif = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  return new Uint8Array([0xff, 0xd8, ...jfif, ...sof]);
}

/** A little-endian TIFF whose first IFD offset points far past the end of the file. */
export function tiffDanglingIfd(): Uint8Array {
  return new Uint8Array([0x49, 0x49, 0x2a, 0x00, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0]);
}

/** A TIFF whose single IFD declares a 30000 × 30000 strip image with no strip data. */
export function tiffClaiming(width: number, height: number): Uint8Array {
  const entries: [number, number, number, number][] = [
    [256, 4, 1, width], // ImageWidth (LONG)
    [257, 4, 1, height], // ImageLength
    [258, 3, 1, 8], // BitsPerSample
    [259, 3, 1, 1], // Compression: none
    [262, 3, 1, 1], // Photometric: black is zero
    [273, 4, 1, 8], // StripOffsets → the header itself
    [277, 3, 1, 1], // SamplesPerPixel
    [278, 4, 1, height], // RowsPerStrip
    [279, 4, 1, width * height], // StripByteCounts (far beyond the file)
  ];
  const out = new Uint8Array(8 + 2 + entries.length * 12 + 4);
  const v = new DataView(out.buffer);
  out.set([0x49, 0x49, 0x2a, 0x00]);
  v.setUint32(4, 8, true);
  v.setUint16(8, entries.length, true);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    v.setUint16(at, tag, true);
    v.setUint16(at + 2, type, true);
    v.setUint32(at + 4, count, true);
    if (type === 3) v.setUint16(at + 8, value, true);
    else v.setUint32(at + 8, value >>> 0, true);
  });
  return out;
}

export async function validPng(): Promise<Uint8Array> {
  return renderTextPng(["Hostile input corpus"]);
}

export async function blankPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) pdf.addPage([200, 200]);
  return pdf.save({ useObjectStreams: true });
}

/**
 * A PDF whose trailer names a standard security handler (/Encrypt, RC4 40-bit dictionary):
 * pdf-lib cannot encrypt, but a reader must treat the document as encrypted all the same.
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]);
  const pad = PDFHexString.of("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a");
  const encrypt = pdf.context.obj({ Filter: PDFName.of("Standard"), V: 1, R: 2, Length: 40, P: -4, O: pad, U: pad });
  pdf.context.trailerInfo.Encrypt = pdf.context.register(encrypt);
  pdf.context.trailerInfo.ID = pdf.context.obj([
    PDFHexString.of("00112233445566778899aabbccddeeff"),
    PDFHexString.of("00112233445566778899aabbccddeeff"),
  ]);
  return pdf.save({ useObjectStreams: false });
}

/** Cuts a file to a fraction of its length. */
export function truncated(bytes: Uint8Array, fraction = 0.5): Uint8Array {
  return bytes.slice(0, Math.max(1, Math.floor(bytes.length * fraction)));
}

/** Keeps the first `keep` bytes (the signature) and overwrites the rest with a repeating pattern. */
export function scrambled(bytes: Uint8Array, keep: number): Uint8Array {
  const out = bytes.slice();
  for (let i = keep; i < out.length; i++) out[i] = (i * 131 + 17) & 0xff;
  return out;
}

/** Strings that have broken parsers, queries, markup and file systems. */
export const HOSTILE_STRINGS: Record<string, string> = {
  sql_quote: "x' OR '1'='1' --",
  sql_union: "%' UNION SELECT key_hash, id FROM api_keys; --",
  sql_like: "%_%\\%",
  html: '<script>alert("x")</script><img src=x onerror=alert(1)>',
  path_traversal: "../../../../etc/passwd",
  path_traversal_encoded: "..%2F..%2F..%2Fetc%2Fpasswd",
  nul: "before\u0000after",
  rtl_override: "invoice\u202Etxt.exe",
  zero_width: "a\u200Bb\uFEFFc",
  emoji_astral: "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩‍👩‍👧‍👦",
  lone_surrogate: "bad\uD800pair",
  combining: "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
  json_breaker: '"}],{"tool":"erase"',
  control: "line\r\nbreak\ttab\u0007bell",
  huge_10kb: "A".repeat(10 * 1024),
};

/** One value of each JSON type (and the edges of numbers and containers), for every field of every body. */
export const JSON_VALUES: Record<string, unknown> = {
  null: null,
  true: true,
  false: false,
  zero: 0,
  negative: -1,
  fraction: 1.5,
  huge_number: 1e308,
  empty_string: "",
  string: "x",
  empty_array: [],
  array_of_null: [null],
  empty_object: {},
  nested_object: { a: { b: [1, "2", null] } },
};

/** Percent-encodings that do not decode (a lone `%`, a cut sequence, an invalid UTF-8 sequence, an encoded NUL). */
export const BROKEN_PERCENT: Record<string, string> = {
  cut_utf8: "%E0%A4%A",
  lone_percent: "%",
  bad_hex: "%zz",
  invalid_utf8: "%C0%AF",
  overlong_nul: "%C0%80",
};

/** Declared charsets of a JSON body: UTF-8 spellings that must be read, and others that must be refused (415). */
export const JSON_CHARSETS: { contentType: string; encode: (text: string) => Uint8Array; accepted: boolean }[] = [
  { contentType: "application/json; charset=utf-8", encode: (t) => new TextEncoder().encode(t), accepted: true },
  { contentType: 'application/json; charset="UTF-8"', encode: (t) => new TextEncoder().encode(t), accepted: true },
  { contentType: "application/json;charset=utf8", encode: (t) => new TextEncoder().encode(t), accepted: true },
  { contentType: "application/json; charset=utf-16", encode: utf16le, accepted: false },
  { contentType: "application/json; charset=UTF-16BE", encode: (t) => utf16le(t).map((_, i, a) => a[i ^ 1]!), accepted: false },
  { contentType: "application/json; charset=iso-8859-1", encode: (t) => new TextEncoder().encode(t), accepted: false },
  { contentType: "application/json; charset=", encode: (t) => new TextEncoder().encode(t), accepted: false },
];

/** UTF-16LE with its byte-order mark, as a client declaring charset=utf-16 would send. */
function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) new DataView(out.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
  return out;
}

/** A JSON text preceded by the UTF-8 byte-order mark (EF BB BF), as some editors and Windows tools write it. */
export function withUtf8Bom(text: string): Uint8Array {
  return concat(new Uint8Array([0xef, 0xbb, 0xbf]), new TextEncoder().encode(text));
}
