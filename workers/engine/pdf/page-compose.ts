import { OPS } from "pdfjs-dist";
import type { GrayImage } from "../image/gray";
import type { PDFPageProxy } from "./pdfjs";

/** What pdf.js hands over for a decoded image (`kind`: 1 = 1 bit gray, 2 = RGB, 3 = RGBA). */
interface PdfImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray | null;
}

type Matrix = [number, number, number, number, number, number];

const mul = (m: Matrix, n: number[]): Matrix => [
  m[0] * n[0]! + m[2] * n[1]!,
  m[1] * n[0]! + m[3] * n[1]!,
  m[0] * n[2]! + m[2] * n[3]!,
  m[1] * n[2]! + m[3] * n[3]!,
  m[0] * n[4]! + m[2] * n[5]! + m[4],
  m[1] * n[4]! + m[3] * n[5]! + m[5],
];

export type PdfOperatorList = Awaited<ReturnType<PDFPageProxy["getOperatorList"]>>;

/** A page raster in progress: gray pixels on white, plus the area images covered. */
export interface ComposedPage {
  image: GrayImage;
  /** Image draws on the page (scans, masks, figures). */
  images: number;
  /** Fraction of the page area covered by images (0–1, overlaps counted once per pixel). */
  coverage: number;
}

/** Gray value and opacity of image pixel (u, v), or null when it is transparent. */
type Sampler = (u: number, v: number) => number;

const TRANSPARENT = -1;

function sampler(img: PdfImage, mask: boolean, fill: number): Sampler | null {
  const { width: w, kind, data } = img;
  if (!data) return null;
  if (mask) {
    // Stencil masks (1 bit, Decode already applied by pdf.js): 0 paints the fill colour.
    const row = (w + 7) >> 3;
    return (u, v) => ((data[v * row + (u >> 3)]! >> (7 - (u & 7))) & 1 ? TRANSPARENT : fill);
  }
  if (kind === 1) {
    const row = (w + 7) >> 3;
    return (u, v) => ((data[v * row + (u >> 3)]! >> (7 - (u & 7))) & 1 ? 255 : 0);
  }
  if (kind === 2) {
    return (u, v) => {
      const i = (v * w + u) * 3;
      return (data[i]! * 77 + data[i + 1]! * 150 + data[i + 2]! * 29) >> 8;
    };
  }
  // RGBA: soft masks (SMask) arrive applied as alpha; mostly transparent pixels let the page show.
  return (u, v) => {
    const i = (v * w + u) * 4;
    const a = data[i + 3]!;
    if (a < 128) return TRANSPARENT;
    return (data[i]! * 77 + data[i + 1]! * 150 + data[i + 2]! * 29) >> 8;
  };
}

/**
 * Draws an image into `out` through `ctm` (image space: the unit square, row 0 at the top, as
 * PDF draws images). Each output pixel takes the mean of up to 4×4 image samples, so scans stored
 * at a higher resolution than the raster keep thin strokes.
 */
function drawImage(out: GrayImage, covered: Uint8Array, ctm: Matrix, img: PdfImage, sample: Sampler): void {
  const { width: W, height: H } = out;
  const [a, b, c, d, e, f] = ctm;
  const det = a * d - b * c;
  if (!det || img.width < 1 || img.height < 1) return;
  const corners = [[e, f], [a + e, b + f], [c + e, d + f], [a + c + e, b + d + f]];
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[0]!))));
  const x1 = Math.min(W, Math.ceil(Math.max(...corners.map((p) => p[0]!))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[1]!))));
  const y1 = Math.min(H, Math.ceil(Math.max(...corners.map((p) => p[1]!))));
  if (x0 >= x1 || y0 >= y1) return;
  // Inverse of ctm: device → unit square.
  const ia = d / det, ib = -b / det, ic = -c / det, id = a / det;
  const ie = -(ia * e + ic * f), iff = -(ib * e + id * f);
  const iw = img.width, ih = img.height;
  // Image pixels per device pixel along each axis decide the supersampling.
  const n = Math.max(1, Math.min(4, Math.round(Math.max(iw / Math.hypot(a, b), ih / Math.hypot(c, d)))));
  const step = 1 / n;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      let sum = 0, count = 0, seen = 0;
      for (let sy = 0; sy < n; sy++) {
        const py = y + (sy + 0.5) * step;
        for (let sx = 0; sx < n; sx++) {
          const px = x + (sx + 0.5) * step;
          const s = ia * px + ic * py + ie;
          const t = ib * px + id * py + iff;
          if (s < 0 || s >= 1 || t < 0 || t >= 1) continue;
          seen++;
          const g = sample(Math.min(iw - 1, Math.floor(s * iw)), Math.min(ih - 1, Math.floor((1 - t) * ih)));
          if (g === TRANSPARENT) continue;
          sum += g;
          count++;
        }
      }
      if (!seen) continue;
      const o = y * W + x;
      covered[o] = 1;
      // Partly transparent samples blend with what lies under them.
      if (count) out.data[o] = Math.round((sum + out.data[o]! * (seen - count)) / seen);
    }
  }
}

function parseFill(args: unknown[]): number {
  const c = args[0];
  if (typeof c === "string" && /^#[0-9a-f]{6}$/i.test(c)) {
    const v = parseInt(c.slice(1), 16);
    return (((v >> 16) & 255) * 77 + ((v >> 8) & 255) * 150 + (v & 255) * 29) >> 8;
  }
  if (args.length === 3 && args.every((x) => typeof x === "number")) {
    const [r, g, b] = args as number[];
    const k = r! <= 1 && g! <= 1 && b! <= 1 ? 255 : 1;
    return Math.round((r! * 77 + g! * 150 + b! * 29) / 256 * k);
  }
  return 0;
}

function resolveObject(page: PDFPageProxy, id: string): Promise<PdfImage | null> {
  const store = id.startsWith("g_") ? page.commonObjs : page.objs;
  return new Promise((resolve) => store.get(id, (obj: unknown) => resolve((obj as PdfImage) ?? null)));
}

/**
 * Composes every image the page draws (scans, several strips, stencil masks, images with soft
 * masks, images inside form XObjects) onto a white gray raster, at `scale` pixels per PDF point
 * with the page's /Rotate applied, as a viewer would show them. Vector paths and text are not
 * drawn: a page's text comes from its text layer. Null when the page draws no image.
 */
export async function composePageImages(page: PDFPageProxy, ops: PdfOperatorList, scale: number): Promise<ComposedPage | null> {
  const viewport = page.getViewport({ scale });
  const W = Math.max(1, Math.round(viewport.width));
  const H = Math.max(1, Math.round(viewport.height));
  let out: GrayImage | null = null;
  let covered: Uint8Array | null = null;
  let ctm = viewport.transform.slice(0, 6) as Matrix;
  let fill = 0;
  const stack: { ctm: Matrix; fill: number }[] = [];
  let images = 0;
  const draw = (m: Matrix, img: PdfImage | null, mask: boolean) => {
    const s = img && sampler(img, mask, fill);
    if (!img || !s) return;
    out ??= { width: W, height: H, data: new Uint8Array(W * H).fill(255) };
    covered ??= new Uint8Array(W * H);
    drawImage(out, covered, m, img, s);
    images++;
  };
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = (ops.argsArray[i] ?? []) as unknown[];
    switch (fn) {
      case OPS.save:
        stack.push({ ctm, fill });
        break;
      case OPS.restore:
        ({ ctm, fill } = stack.pop() ?? { ctm, fill });
        break;
      case OPS.transform:
        ctm = mul(ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push({ ctm, fill });
        if (Array.isArray(args[0])) ctm = mul(ctm, args[0] as number[]);
        break;
      case OPS.paintFormXObjectEnd:
        ({ ctm, fill } = stack.pop() ?? { ctm, fill });
        break;
      case OPS.setFillRGBColor:
      case OPS.setFillGray:
        fill = parseFill(args);
        break;
      case OPS.paintImageXObject:
        draw(ctm, await resolveObject(page, String(args[0])), false);
        break;
      case OPS.paintInlineImageXObject:
        draw(ctm, args[0] as PdfImage, false);
        break;
      case OPS.paintImageMaskXObject:
        draw(ctm, args[0] as PdfImage, true);
        break;
      case OPS.paintImageMaskXObjectGroup:
        for (const img of args[0] as (PdfImage & { transform: number[] })[]) draw(mul(ctm, img.transform), img, true);
        break;
      case OPS.paintImageXObjectRepeat: {
        const img = await resolveObject(page, String(args[0]));
        const [sx, sy, positions] = [args[1] as number, args[2] as number, args[3] as number[]];
        for (let p = 0; p + 1 < positions.length; p += 2) draw(mul(ctm, [sx, 0, 0, sy, positions[p]!, positions[p + 1]!]), img, false);
        break;
      }
    }
  }
  if (!out || !covered) return null;
  let n = 0;
  for (const v of covered as Uint8Array) n += v;
  return { image: out, images, coverage: n / (W * H) };
}
