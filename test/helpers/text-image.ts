import { PhotonImage, Rgba, draw_text_with_color } from "@cf-wasm/photon";

export { characterErrorRate } from "../engine/cer";

export interface RenderOptions {
  /** Glyph size in pixels (photon's embedded Roboto); 32 px gives clean text for tesseract. */
  fontSize?: number;
  /** Margin around the text block, in pixels. */
  margin?: number;
  /** Baseline-to-baseline distance as a multiple of fontSize. */
  lineSpacing?: number;
  /** Canvas width in pixels; defaults to fit the longest line (in every column). */
  width?: number;
  /** Columns side by side, 2 em apart: the lines fill the first column, then the next. */
  columns?: number;
}

/**
 * Renders lines of text, black on white, into a PNG (RGBA, 8-bit) with photon's text drawing,
 * so tests can OCR text whose ground truth they know. Runs in any workerd test worker.
 */
export async function renderTextPng(lines: string[], opts: RenderOptions = {}): Promise<Uint8Array> {
  const fontSize = opts.fontSize ?? 32;
  const margin = opts.margin ?? Math.round(fontSize * 1.5);
  const step = Math.round(fontSize * (opts.lineSpacing ?? 1.6));
  const columns = opts.columns ?? 1;
  const rows = Math.ceil(lines.length / columns);
  const column = Math.ceil(Math.max(1, ...lines.map((l) => l.length)) * fontSize * 0.6) + 2 * fontSize;
  const width = opts.width ?? column * columns - 2 * fontSize + 2 * margin;
  const height = rows * step + 2 * margin;
  const img = new PhotonImage(new Uint8Array(width * height * 4).fill(255), width, height);
  try {
    lines.forEach((line, i) => {
      const [x, y] = [margin + Math.floor(i / rows) * column, margin + (i % rows) * step];
      // A fresh colour per call: wasm-bindgen may take ownership of it.
      draw_text_with_color(img, line, x, y, fontSize, new Rgba(0, 0, 0, 255));
    });
    return img.get_bytes();
  } finally {
    img.free();
  }
}
