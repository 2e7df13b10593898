import type { TestProject } from "vitest/node";
// Node-side renderers: resvg draws text in real fonts (Latin and CJK), which the Workers test pool cannot.
import {
  languagePageSvg,
  renderPng,
  renderRgba,
  RESVG_LANGUAGES,
  ruledTableSvg,
  TEXTS,
  textPageSvg,
  vectorPdf,
} from "../bench/ocr-render.mjs";
import { readdirSync, readFileSync } from "node:fs";
import { writeTiff } from "./tiff-writer.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Engine test inputs rendered from known text, base64 by name (see fixtures-global-setup.ts). */
    engineFixtures: Record<string, string>;
    /** The files of test/fixtures/real (real documents, origins in its README), base64 by file name. */
    realFixtures: Record<string, string>;
  }
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");

function gray(svg: string): { width: number; height: number; pixels: Uint8Array; rgb: Uint8Array } {
  const { width, height, rgba } = renderRgba(svg);
  const pixels = new Uint8Array(width * height);
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < pixels.length; i++) {
    pixels[i] = (rgba[i * 4]! * 77 + rgba[i * 4 + 1]! * 150 + rgba[i * 4 + 2]! * 29) >> 8;
    rgb.set([rgba[i * 4]!, rgba[i * 4 + 1]!, rgba[i * 4 + 2]!], i * 3);
  }
  return { width, height, pixels, rgb };
}

/** The text every TIFF page carries (page n adds its number, so pages can be told apart). */
export const TIFF_LINES = (n: number) => [`Page ${n} of the multi page scan.`, "Compressed strips decode to the same text."];

/** A Netpbm text image (P1–P3) of a gray raster, one pixel a token, with a comment in its header. */
function netpbmText(
  magic: string,
  img: { width: number; height: number; pixels: Uint8Array },
  token: (v: number) => string,
  maxval?: number,
): Uint8Array {
  const rows: string[] = [];
  for (let y = 0; y < img.height; y++) rows.push(Array.from(img.pixels.subarray(y * img.width, (y + 1) * img.width), token).join(" "));
  return new TextEncoder().encode(
    `${magic}\n# written by the test setup\n${img.width} ${img.height}\n${maxval === undefined ? "" : `${maxval}\n`}${rows.join("\n")}\n`,
  );
}

export default async function setup(project: TestProject) {
  const f: Record<string, string> = {};
  const page = (lines: string[], opts: Parameters<typeof textPageSvg>[1] = {}) => textPageSvg(lines, { dpi: 200, ...opts });

  for (const lang of RESVG_LANGUAGES)
    f[`lang_${lang}`] = b64(renderPng(languagePageSvg(lang, (TEXTS as Record<string, string[]>)[lang]!, { dpi: 200 }).svg));
  // At 300 dpi, the eng model read this page upside down more confidently than upright.
  f.lang_heb_300 = b64(renderPng(languagePageSvg("heb", TEXTS.heb, { dpi: 300 }).svg));
  // At 300 dpi tesseract splits Hangul words into syllables; its own text output keeps the word spaces.
  f.lang_kor_300 = b64(renderPng(languagePageSvg("kor", TEXTS.kor, { dpi: 300 }).svg));
  // At 300 dpi the Natsume columns read as lines fit Arabic or Hangul better than any model fits them upright-as-lines.
  f.lang_jpn_vert_300 = b64(renderPng(languagePageSvg("jpn_vert", TEXTS.jpn_vert, { dpi: 300 }).svg));
  // At 300 dpi tesseract-wasm's mode 5 splits these Hangul columns (native tesseract does not).
  f.lang_kor_vert_300 = b64(renderPng(languagePageSvg("kor_vert", TEXTS.kor_vert, { dpi: 300 }).svg));
  // A page in two languages: English lines, then Arabic ones (DejaVu Sans draws both).
  f.mixed_eng_ara = b64(renderPng(page([...TEXTS.eng.slice(0, 2), ...TEXTS.ara.slice(0, 2)], { pt: 14 }).svg));
  for (const rotate of [90, 180, 270] as const) f[`rotated_${rotate}`] = b64(renderPng(page(TEXTS.eng, { rotate }).svg));
  f.skewed = b64(renderPng(page(TEXTS.eng, { skew: 3 }).svg));

  const tiffPages = [1, 2, 3, 4].map((n) => gray(page(TIFF_LINES(n), { pt: 14 }).svg));
  const [p1, p2, p3, p4] = tiffPages as [
    ReturnType<typeof gray>,
    ReturnType<typeof gray>,
    ReturnType<typeof gray>,
    ReturnType<typeof gray>,
  ];
  f.tiff_multi = b64(
    writeTiff([
      { ...p1, samples: 1, compression: "none" },
      { ...p2, samples: 1, compression: "lzw" },
      { ...p3, samples: 1, compression: "packbits" },
      { ...p4, samples: 3, pixels: p4.rgb, compression: "deflate" },
    ]),
  );
  // Page 2's LZW data is garbage, page 3 claims CCITT G4 for uncompressed pixels: only those pages fail.
  f.tiff_damaged = b64(
    writeTiff([
      { ...p1, samples: 1, compression: "lzw" },
      { ...p2, samples: 1, compression: "lzw", raw: new Uint8Array(4000).map((_, i) => (i * 97 + 13) & 0xff) },
      { ...p3, samples: 1, compression: "none", compressionCode: 4 },
    ]),
  );

  const table = ruledTableSvg(
    [
      ["Region", "Q1 sales", ""],
      ["North", "120", "130"],
      ["South", "95", "101"],
      ["Total", "215", ""],
    ],
    {
      spans: [
        { row: 0, col: 1, rowSpan: 1, colSpan: 2 },
        { row: 3, col: 1, rowSpan: 1, colSpan: 2 },
      ],
    },
  );
  f.table_ruled = b64(renderPng(table.svg));
  const borderless = ruledTableSvg(
    [
      ["Item", "Qty", "Price"],
      ["Apples", "12", "3.40"],
      ["Pears", "7", "2.10"],
      ["Plums", "30", "5.75"],
    ],
    { rules: false, colWidth: 480 },
  );
  f.table_borderless = b64(renderPng(borderless.svg));
  // A fully ruled 4 x 3 table at 1020 x 504 px.
  const items = ruledTableSvg(
    [
      ["Item", "Quantity", "Price"],
      ["Rye", "12", "4.25"],
      ["Wheat", "2", "3.10"],
      ["Barley", "1", "2.80"],
    ],
    { colWidth: 300, rowHeight: 96, margin: 60, px: 40 },
  );
  f.table_items = b64(renderPng(items.svg));

  const vector = textPageSvg(["Vector outlines only, no text layer.", "The browser draws this page."], { dpi: 300, pt: 16, height: 900 });
  f.pdf_vector = b64(await vectorPdf(vector.svg, vector.width, vector.height));
  f.scan_png = b64(renderPng(page(["A scanned page inside a PDF file.", "Its image is read by OCR."], { pt: 14 }).svg));

  // A picture without text: a dark disc and a shaded bar (ink that recognition must not pass as an empty page).
  f.shapes_png = b64(
    renderPng(
      `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#fff"/><circle cx="250" cy="300" r="150" fill="#141414"/><rect x="500" y="150" width="200" height="300" fill="#333"/></svg>`,
    ),
  );
  // The same page in each Netpbm text encoding (P1 bits, P2 gray, P3 colour); binary ones come from real files.
  const simple = gray(page(["Netpbm text encodings read too."], { dpi: 100, pt: 22 }).svg);
  f.pbm_p1 = b64(netpbmText("P1", simple, (v) => (v < 128 ? "1" : "0")));
  f.pgm_p2 = b64(netpbmText("P2", simple, (v) => String(v), 255));
  f.ppm_p3 = b64(netpbmText("P3", simple, (v) => `${v} ${v} ${v}`, 255));

  project.provide("engineFixtures", f);
  const realDir = new URL("../fixtures/real/", import.meta.url);
  project.provide(
    "realFixtures",
    Object.fromEntries(
      readdirSync(realDir)
        .filter((n) => n !== "README.md")
        .map((n) => [n, readFileSync(new URL(n, realDir)).toString("base64")]),
    ),
  );
}
