// Renders known text into images and PDFs (Node, @resvg/resvg-js with fonts from node_modules), for
// the engine's tests and the OCR benchmark: ground truth is what was drawn.
import { Resvg } from "@resvg/resvg-js";
import { PDFDocument, rgb } from "pdf-lib";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fontFiles } from "../../scripts/models.mjs";
import { ocrModel } from "../../workers/shared/ocr-models.ts";
import { unshapedScript } from "../../workers/shared/shaping.ts";
import { textDirection } from "../../workers/shared/text-direction.ts";

import { TEXTS } from "./ocr-texts.mjs";

export { TEXTS };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const nm = (p) => path.join(root, "node_modules", p);

export const FONT_FILES = [
  nm("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  nm("dejavu-fonts-ttf/ttf/DejaVuSerif.ttf"),
  nm("dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf"),
  ...fontFiles()
    .filter((f) => f.key.startsWith("fonts/Noto"))
    .map((f) => f.file),
];

/** Font families by script: Latin text comes in three faces, CJK in Noto Sans SC. */
export const LATIN_FONTS = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"];
export const CJK_FONT = "NotoSansSC";

/** Languages of TEXTS whose script resvg draws correctly (Devanagari it garbles: see workers/shared/shaping.ts). */
export const RESVG_LANGUAGES = Object.keys(TEXTS).filter((l) => !unshapedScript(TEXTS[l].join("")));

/** A language's test page: its face, 18 pt for CJK and 14 pt for the other non-Latin scripts, columns for vertical models. */
export function languagePageSvg(lang, lines, opts = {}) {
  const script = ocrModel(lang)?.script;
  const pt = script === "Han" || script === "Japanese" ? 18 : script === "Latin" || script === "Cyrillic" ? 12 : 14;
  return textPageSvg(lines, { font: fontFor(lang) ?? "DejaVu Serif", pt, vertical: !!ocrModel(lang)?.vertical, ...opts });
}

/** The face a language's test page is set in (Noto for the scripts DejaVu lacks or draws poorly). */
export function fontFor(lang) {
  const script = ocrModel(lang)?.script;
  const noto = {
    Arabic: "Noto Sans Arabic",
    Hebrew: "Noto Sans Hebrew",
    Devanagari: "Noto Sans Devanagari",
    Hangul: "Noto Sans KR",
    Han: CJK_FONT,
    Japanese: CJK_FONT,
  };
  return noto[script] ?? null;
}

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * An SVG page of text lines. `dpi` sets the pixel size of an A4-width page and a 12 pt face;
 * `rotate` turns the whole page clockwise by 90/180/270; `skew` tilts the text by degrees.
 */
/**
 * Right-to-left lines (Arabic, Hebrew: by their first letter) are aligned on the right margin;
 * `vertical` sets each line as a column of upright characters, the first column on the right
 * (vertical CJK).
 */
/** @param {string[]} lines @param {{ font?: string, dpi?: number, pt?: number, rotate?: number, skew?: number, height?: number, vertical?: boolean }} [opts] */
export function textPageSvg(
  lines,
  { font = "DejaVu Sans", dpi = 300, pt = 12, rotate = 0, skew = 0, height = undefined, vertical = false } = {},
) {
  const px = (pt * dpi) / 72;
  const width = Math.round(8.27 * dpi);
  const margin = Math.round(0.8 * dpi);
  const step = Math.round(px * 1.6);
  const longest = Math.max(...lines.map((l) => [...l].length));
  const h =
    height ??
    (vertical
      ? Math.round(2 * margin + longest * px * 1.1)
      : Math.max(Math.round(2 * margin + lines.length * step), Math.round(2.5 * dpi)));
  const glyph = (x, y, s, anchor = "start") =>
    `<text x="${x}" y="${y}" font-family="${font}" font-size="${px}" text-anchor="${anchor}">${esc(s)}</text>`;
  const text = vertical
    ? lines
        .flatMap((l, i) => [...l].map((c, j) => glyph(width - margin - i * step - px / 2, margin + px + j * px * 1.1, c, "middle")))
        .join("")
    : // resvg lays every paragraph out left to right: a closing right-to-left mark keeps a line's
      // final full stop at its left end, where right-to-left text puts it.
      lines
        .map((l, i) =>
          textDirection(l) === "rtl"
            ? glyph(width - margin, margin + px + i * step, `${l}\u200f`, "end")
            : glyph(margin, margin + px + i * step, l),
        )
        .join("");
  const body = `<g transform="rotate(${skew} ${width / 2} ${h / 2})">${text}</g>`;
  const turned = rotate === 90 || rotate === 270;
  const W = turned ? h : width;
  const H = turned ? width : h;
  const place =
    rotate === 90
      ? `translate(${h} 0) rotate(90)`
      : rotate === 180
        ? `translate(${width} ${h}) rotate(180)`
        : rotate === 270
          ? `translate(0 ${width}) rotate(270)`
          : "";
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/><g transform="${place}">${body}</g></svg>`,
    width: W,
    height: H,
  };
}

/**
 * A table drawn with rules. `rows` is a grid of cell texts; `spans` lists merged cells
 * `{row, col, rowSpan, colSpan}` (their text is the top-left entry; covered entries are ignored).
 */
/** @param {string[][]} rows @param {{ spans?: { row: number, col: number, rowSpan: number, colSpan: number }[], colWidth?: number, rowHeight?: number, font?: string, px?: number, margin?: number, rules?: boolean }} [opts] */
export function ruledTableSvg(
  rows,
  { spans = [], colWidth = 420, rowHeight = 110, font = "DejaVu Sans", px = 46, margin = 150, rules = true } = {},
) {
  const nr = rows.length;
  const nc = rows[0].length;
  const width = margin * 2 + nc * colWidth;
  const height = margin * 2 + nr * rowHeight;
  const covered = new Set();
  const spanAt = new Map(spans.map((s) => [`${s.row},${s.col}`, s]));
  for (const s of spans)
    for (let r = s.row; r < s.row + s.rowSpan; r++)
      for (let c = s.col; c < s.col + s.colSpan; c++) if (r !== s.row || c !== s.col) covered.add(`${r},${c}`);
  let out = "";
  for (let r = 0; r < nr; r++) {
    for (let c = 0; c < nc; c++) {
      if (covered.has(`${r},${c}`)) continue;
      const s = spanAt.get(`${r},${c}`) ?? { rowSpan: 1, colSpan: 1 };
      const x = margin + c * colWidth;
      const y = margin + r * rowHeight;
      const w = s.colSpan * colWidth;
      const h = s.rowSpan * rowHeight;
      if (rules) out += `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="black" stroke-width="4"/>`;
      out += `<text x="${x + 24}" y="${y + h / 2 + px * 0.35}" font-family="${font}" font-size="${px}">${esc(rows[r][c])}</text>`;
    }
  }
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="white"/>${out}</svg>`,
    width,
    height,
  };
}

export function renderPng(svg) {
  const r = new Resvg(svg, { font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" } });
  return r.render().asPng();
}

/** RGBA pixels of a rendering (for encoders that need raw pixels). */
export function renderRgba(svg) {
  const r = new Resvg(svg, { font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" } }).render();
  return { width: r.width, height: r.height, rgba: r.pixels };
}

/**
 * A vector-only PDF page: the SVG's text becomes outlines (resvg's simplified SVG), drawn as
 * paths with pdf-lib. The page has no text layer and no image.
 */
export async function vectorPdf(svg, width, height) {
  const flat = new Resvg(svg, { font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" } }).toString();
  const doc = await PDFDocument.create();
  const scale = 72 / 300;
  const page = doc.addPage([width * scale, height * scale]);
  for (const m of flat.matchAll(/<path fill="#000000"[^>]*? d="([^"]+)"/g)) {
    page.drawSvgPath(m[1], { x: 0, y: height * scale, scale, color: rgb(0, 0, 0), borderWidth: 0 });
  }
  return doc.save();
}

/**
 * A page of text lines rendered by Chromium (HarfBuzz shaping), for scripts resvg cannot shape
 * (Devanagari): the same geometry as textPageSvg, the face loaded from its TTF file. PNG bytes.
 */
export async function renderHtmlPng(lines, { fontFile, dpi = 300, pt = 14 }) {
  const { chromium } = await import("playwright-core");
  const px = (pt * dpi) / 72;
  const width = Math.round(8.27 * dpi);
  const margin = Math.round(0.8 * dpi);
  const height = Math.max(Math.round(2 * margin + lines.length * px * 1.6), Math.round(2.5 * dpi));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    const font = `@font-face { font-family: page; src: url(data:font/ttf;base64,${(await import("node:fs")).readFileSync(fontFile).toString("base64")}); }`;
    const body = lines.map((l) => `<div>${esc(l)}</div>`).join("");
    await page.setContent(
      `<html><head><style>${font} body { margin: ${margin}px; background: white; font: ${px}px/1.6 page; color: black; }</style></head><body>${body}</body></html>`,
    );
    await page.evaluate(() => document.fonts.ready);
    return await page.screenshot({ type: "png" });
  } finally {
    await browser.close();
  }
}
