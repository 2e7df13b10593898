import { Resvg } from "@cf-wasm/resvg";
import type { Box, TextStyle } from "../../shared/engine-contract";
import type { RgbaImage } from "../inpaint/rgba";
import { faceFor, type Face } from "./fonts";
import { blockExtent, COLUMN_STEP, LINE_GAP, type Layout } from "./layout";
import { textDirection } from "../../shared/text-direction";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Ascent as a share of the em (DejaVu Sans 0.928; Noto Sans CJK 0.88): baselines sit this far below a line's top. */
const ASCENT = 0.9;

/** Runs of characters sharing a face, each as a tspan naming that face's family. */
function runs(chain: Face[], text: string): { face: Face; text: string }[] {
  const out: { face: Face; text: string }[] = [];
  for (const ch of text) {
    const face = /\s/u.test(ch) && out.length ? out[out.length - 1]!.face : faceFor(chain, ch.codePointAt(0)!);
    const last = out[out.length - 1];
    if (last && last.face === face) last.text += ch;
    else out.push({ face, text: ch });
  }
  return out;
}

/** CJK faces have no bold here: a thin stroke in the text colour stands in for it. */
function weightAttrs(face: Face, weight: number, size: number, color: string): string {
  if (weight < 600) return "";
  if (face.bold) return ` font-weight="bold"`;
  return ` stroke="${color}" stroke-width="${(size * 0.04).toFixed(2)}"`;
}

function tspans(chain: Face[], text: string, weight: number, size: number, color: string): string {
  return runs(chain, text)
    .map((r) => `<tspan font-family="${esc(r.face.metrics.family)}"${weightAttrs(r.face, weight, size, color)}>${esc(r.text)}</tspan>`)
    .join("");
}

/**
 * Marks drawn along a horizontal line that a column turns a quarter: the long vowel, dashes,
 * ellipses, brackets and quotation corners (「 turned is the vertical ﹁).
 */
const TURNED = new Set([..."ー〜～—―…‥「」『』（）【】〔〕《》〈〉()[]"]);
/** Marks that sit at the end of a character's cell: in a column, its top right rather than bottom left. */
const TOP_RIGHT = new Set([..."、。，．"]);
/** Shift of a TOP_RIGHT mark in a column, as a share of the em. */
const MARK_SHIFT = 0.6;

/** The SVG transform a character set in a column takes, about its cell's centre (cx, cy). */
function columnTransform(ch: string, cx: number, cy: number, s: number): string {
  if (TURNED.has(ch)) return ` transform="rotate(90 ${cx.toFixed(2)} ${cy.toFixed(2)})"`;
  if (TOP_RIGHT.has(ch)) return ` transform="translate(${(s * MARK_SHIFT).toFixed(2)} ${(-s * MARK_SHIFT).toFixed(2)})"`;
  return "";
}

/**
 * The SVG of one region's text on a transparent canvas the size of the box: lines placed by the
 * measured layout (alignment computed here, not left to the renderer, so what was measured is
 * what is drawn); the block starts where the original's first line did, or is centred vertically
 * when the original's lines are unknown (vertical text: columns centred horizontally).
 */
export function regionSvg(
  chain: Face[],
  layout: Layout,
  box: Box,
  style: Required<Pick<TextStyle, "color" | "align">> & { weight: number },
  firstLineTop: number | null,
): { svg: string; width: number; height: number } {
  const width = Math.max(1, Math.ceil(box.w));
  const height = Math.max(1, Math.ceil(box.h));
  const s = layout.size;
  const parts: string[] = [];
  if (layout.vertical) {
    // Columns right to left, each character centred in its column, one em apart; centred in a
    // balloon, from the box's top otherwise.
    const extent = blockExtent(layout);
    const right = (width + extent) / 2;
    const longest = Math.max(0, ...layout.lines.map((c) => [...c.text].length));
    const top = style.align === "center" ? Math.max(0, (height - longest * s) / 2) : 0;
    layout.lines.forEach((col, i) => {
      const cx = right - s / 2 - i * s * COLUMN_STEP;
      const colTop = layout.tops ? layout.tops[i]! : top;
      [...col.text].forEach((ch, k) => {
        const y = colTop + k * s + s * ASCENT;
        const turn = columnTransform(ch, cx, colTop + k * s + s / 2, s);
        parts.push(
          `<text x="${cx.toFixed(2)}" y="${y.toFixed(2)}" text-anchor="middle"${turn}>${tspans(chain, ch, style.weight, s, style.color)}</text>`,
        );
      });
    });
  } else {
    // Where the original's first line began (documents read from the top), else centred (labels, bubbles).
    const free = Math.max(0, height - blockExtent(layout));
    const top = firstLineTop === null ? free / 2 : Math.min(Math.max(0, firstLineTop), free);
    layout.lines.forEach((line, i) => {
      // Lines placed around background edges keep their places (layout.ts).
      const y = (layout.tops ? layout.tops[i]! : top + i * s * LINE_GAP) + s * ASCENT;
      if (textDirection(line.text) === "rtl") {
        // Right-to-left lines start at the right edge, anchored by the renderer's own shaped width
        // (joined Arabic letters are narrower than their measured isolated forms). resvg lays a line
        // out left to right with bidi reordering inside: a closing right-to-left mark keeps end
        // punctuation at the left end.
        const [x, anchor] = layout.centres
          ? [layout.centres[i]!, "middle"]
          : style.align === "center"
            ? [width / 2, "middle"]
            : [width, "end"];
        parts.push(
          `<text x="${x.toFixed(2)}" y="${y.toFixed(2)}" text-anchor="${anchor}" xml:space="preserve">${tspans(chain, `${line.text}\u200f`, style.weight, s, style.color)}</text>`,
        );
        return;
      }
      const x = layout.centres
        ? layout.centres[i]! - line.width / 2
        : style.align === "center"
          ? (width - line.width) / 2
          : style.align === "right"
            ? width - line.width
            : 0;
      parts.push(
        `<text x="${Math.max(0, x).toFixed(2)}" y="${y.toFixed(2)}" xml:space="preserve">${tspans(chain, line.text, style.weight, s, style.color)}</text>`,
      );
    });
  }
  const group = `<g fill="${style.color}" font-size="${s}">${parts.join("")}</g>`;
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${group}</svg>`,
    width,
    height,
  };
}

/**
 * A region's SVG (`regionSvg`, `width` x `height`) turned by `angle` degrees clockwise about its
 * centre, on a canvas as large as the turned box; `x`, `y`: where that canvas's corner lies from
 * the box's.
 */
export function turnedSvg(svg: string, width: number, height: number, angle: number): { svg: string; x: number; y: number } {
  const t = (angle * Math.PI) / 180;
  const [c, s] = [Math.abs(Math.cos(t)), Math.abs(Math.sin(t))];
  const W = Math.ceil(width * c + height * s);
  const H = Math.ceil(width * s + height * c);
  const inner = svg.slice(svg.indexOf(">") + 1, svg.lastIndexOf("</svg>"));
  const turn = `translate(${W / 2} ${H / 2}) rotate(${angle}) translate(${-width / 2} ${-height / 2})`;
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><g transform="${turn}">${inner}</g></svg>`,
    x: (width - W) / 2,
    y: (height - H) / 2,
  };
}

/** Renders an SVG with resvg (only the faces it uses are loaded) and composites it onto the page at (x, y). */
export async function drawSvg(page: RgbaImage, svg: string, faces: Face[], x: number, y: number): Promise<void> {
  const resvg = await Resvg.async(svg, {
    font: { fontBuffers: faces.map((f) => f.bytes), defaultFontFamily: faces[0]?.metrics.family ?? "DejaVu Sans" },
  });
  try {
    const img = resvg.render();
    try {
      composite(page, img.pixels, img.width, img.height, Math.floor(x), Math.floor(y));
    } finally {
      img.free();
    }
  } finally {
    resvg.free();
  }
}

/** Source-over of premultiplied RGBA (resvg's output) onto the opaque page. */
function composite(page: RgbaImage, src: Uint8Array, w: number, h: number, ox: number, oy: number): void {
  for (let y = 0; y < h; y++) {
    const py = oy + y;
    if (py < 0 || py >= page.height) continue;
    for (let x = 0; x < w; x++) {
      const px = ox + x;
      if (px < 0 || px >= page.width) continue;
      const s = (y * w + x) * 4;
      const a = src[s + 3]!;
      if (a === 0) continue;
      const d = (py * page.width + px) * 4;
      const k = (255 - a) / 255;
      for (let c = 0; c < 3; c++) page.data[d + c] = Math.min(255, Math.round(src[s + c]! + page.data[d + c]! * k));
    }
  }
}
