import type { TestProject } from "vitest/node";
// Node-side renderers: resvg draws text in real fonts (Latin and CJK), which the Workers test pool cannot.
import { CJK_FONT, renderPng, renderRgba, ruledTableSvg, TEXTS, textPageSvg, vectorPdf } from "../bench/ocr-render.mjs";
import { readdirSync, readFileSync } from "node:fs";
import { modelFiles } from "../../scripts/models.mjs";
import { writeTiff } from "./tiff-writer.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Engine test inputs rendered from known text, base64 by name (see fixtures-global-setup.ts). */
    engineFixtures: Record<string, string>;
    /** Every OCR model of scripts/models.mjs by R2 key, base64 (the shared setup seeds eng only). */
    engineModels: Record<string, string>;
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

export default async function setup(project: TestProject) {
  const f: Record<string, string> = {};
  const page = (lines: string[], opts: Parameters<typeof textPageSvg>[1] = {}) => textPageSvg(lines, { dpi: 200, ...opts });

  for (const [lang, lines] of Object.entries(TEXTS)) {
    const cjk = lang === "jpn" || lang === "chi_sim";
    f[`lang_${lang}`] = b64(renderPng(page(lines, { font: cjk ? CJK_FONT : "DejaVu Serif", pt: cjk ? 18 : 12 }).svg));
  }
  for (const rotate of [90, 180, 270] as const) f[`rotated_${rotate}`] = b64(renderPng(page(TEXTS.eng, { rotate }).svg));
  f.skewed = b64(renderPng(page(TEXTS.eng, { skew: 3 }).svg));

  const tiffPages = [1, 2, 3, 4].map((n) => gray(page(TIFF_LINES(n), { pt: 14 }).svg));
  const [p1, p2, p3, p4] = tiffPages as [ReturnType<typeof gray>, ReturnType<typeof gray>, ReturnType<typeof gray>, ReturnType<typeof gray>];
  f.tiff_multi = b64(
    writeTiff([
      { ...p1, samples: 1, compression: "none" },
      { ...p2, samples: 1, compression: "lzw" },
      { ...p3, samples: 1, compression: "packbits" },
      { ...p4, samples: 3, pixels: p4.rgb, compression: "deflate" },
    ]),
  );
  // Page 2's LZW data is garbage, page 3 uses CCITT G4: only those pages fail.
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
    { spans: [{ row: 0, col: 1, rowSpan: 1, colSpan: 2 }, { row: 3, col: 1, rowSpan: 1, colSpan: 2 }] },
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

  const vector = textPageSvg(["Vector outlines only, no text layer.", "The browser draws this page."], { dpi: 300, pt: 16, height: 900 });
  f.pdf_vector = b64(await vectorPdf(vector.svg, vector.width, vector.height));
  f.scan_png = b64(renderPng(page(["A scanned page inside a PDF file.", "Its image is read by OCR."], { pt: 14 }).svg));

  // Real documents from other projects' test suites (origins in test/fixtures/real/README.md).
  const realDir = new URL("../fixtures/real/", import.meta.url);
  for (const name of readdirSync(realDir)) if (name !== "README.md") f[`real/${name}`] = readFileSync(new URL(name, realDir)).toString("base64");

  project.provide("engineFixtures", f);
  const models: Record<string, string> = {};
  for (const { key, file } of modelFiles()) if (key.startsWith("tessdata/")) models[key] = readFileSync(file).toString("base64");
  project.provide("engineModels", models);
}
