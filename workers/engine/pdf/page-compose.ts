import { OPS } from "pdfjs-dist";
import { luma, type GrayImage, type RgbaImage } from "../image/gray";
import { clipMask, clipPath, type ClipPath } from "./clip-mask";
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

/** pdf.js operators that show text. */
export const SHOW_TEXT = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);

export type PdfOperatorList = Awaited<ReturnType<PDFPageProxy["getOperatorList"]>>;

/** A page raster in progress: gray pixels on white, plus the area images covered. */
export interface ComposedPage {
  image: GrayImage;
  /** Image draws on the page (scans, masks, figures). */
  images: number;
  /** Fraction of the page area covered by images (0–1, overlaps counted once per pixel). */
  coverage: number;
  /** Image draws clipped by text, drawn here without the clip. */
  clipped: number;
}

/** An image as 8-bit gray, with the pixels it leaves transparent (null: none). */
interface GrayPixels {
  width: number;
  height: number;
  gray: Uint8Array;
  opaque: Uint8Array | null;
}

/** A colour as red, green and blue (0–255). */
type Rgb = readonly [number, number, number];

/** Which plane of an image to draw: its gray (luma), or one of its red, green and blue channels. */
type Plane = "gray" | 0 | 1 | 2;

/**
 * Converts one plane of what pdf.js decoded to 8-bit values once, so drawing reads plain arrays.
 * Stencil masks (1 bit, Decode already applied by pdf.js): 0 paints the fill colour, 1 leaves the
 * page. RGBA (soft masks arrive applied as alpha): mostly transparent pixels let the page show.
 */
function planePixels(img: PdfImage, mask: boolean, fill: Rgb, plane: Plane): GrayPixels | null {
  const { width: w, height: h, kind, data } = img;
  if (!data || w < 1 || h < 1) return null;
  const n = w * h;
  const gray = new Uint8Array(n);
  const paint = plane === "gray" ? luma(fill[0], fill[1], fill[2]) : fill[plane];
  let opaque: Uint8Array | null = null;
  if (mask || kind === 1) {
    // A byte at a time: eight pixels from one read.
    const row = (w + 7) >> 3;
    if (mask) opaque = new Uint8Array(n);
    for (let v = 0; v < h; v++) {
      for (let u0 = 0, i = v * row, o = v * w; u0 < w; u0 += 8, i++, o += 8) {
        const byte = data[i]!;
        const end = Math.min(8, w - u0);
        if (!mask) for (let k = 0; k < end; k++) gray[o + k] = ((byte >> (7 - k)) & 1) * 255;
        else if (byte !== 255)
          for (let k = 0; k < end; k++)
            if (!((byte >> (7 - k)) & 1)) {
              gray[o + k] = paint;
              opaque![o + k] = 1;
            }
      }
    }
  } else {
    const step = kind === 2 ? 3 : 4;
    if (step === 4) opaque = new Uint8Array(n);
    for (let o = 0, i = 0; o < n; o++, i += step) {
      gray[o] = plane === "gray" ? luma(data[i]!, data[i + 1]!, data[i + 2]!) : data[i + plane]!;
      if (opaque) opaque[o] = data[i + 3]! >= 128 ? 1 : 0;
    }
  }
  return { width: w, height: h, gray, opaque };
}

/**
 * Draws an image into `out` through `ctm` (image space: the unit square, row 0 at the top, as
 * PDF draws images). Each output pixel takes the mean of up to 4×4 image samples, so scans stored
 * at a higher resolution than the raster keep thin strokes. The inverse transform is split into
 * per-column and per-row terms computed once, so the inner loop only adds and reads arrays; an
 * image drawn upright or turned by quarters (a scan filling its page) reads its samples straight
 * from per-column and per-row offsets. Answers how many pixels it covered that were not yet.
 */
function drawImage(out: GrayImage, covered: Uint8Array, ctm: Matrix, img: GrayPixels, mask: Uint8Array | null): number {
  const { width: W, height: H } = out;
  const [a, b, c, d, e, f] = ctm;
  const det = a * d - b * c;
  if (!det) return 0;
  const corners = [
    [e, f],
    [a + e, b + f],
    [c + e, d + f],
    [a + c + e, b + d + f],
  ];
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[0]!))));
  const x1 = Math.min(W, Math.ceil(Math.max(...corners.map((p) => p[0]!))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[1]!))));
  const y1 = Math.min(H, Math.ceil(Math.max(...corners.map((p) => p[1]!))));
  if (x0 >= x1 || y0 >= y1) return 0;
  // Inverse of ctm: device → unit square.
  const ia = d / det,
    ib = -b / det,
    ic = -c / det,
    id = a / det;
  const ie = -(ia * e + ic * f),
    iff = -(ib * e + id * f);
  const { width: iw, height: ih, gray, opaque } = img;
  // Image pixels per device pixel along each axis decide the supersampling.
  const n = Math.max(1, Math.min(4, Math.round(Math.max(iw / Math.hypot(a, b), ih / Math.hypot(c, d)))));
  const cols = (x1 - x0) * n,
    rows = (y1 - y0) * n;
  const sX = new Float64Array(cols),
    tX = new Float64Array(cols),
    sY = new Float64Array(rows),
    tY = new Float64Array(rows);
  for (let k = 0; k < cols; k++) {
    const px = x0 + (k + 0.5) / n;
    sX[k] = ia * px;
    tX[k] = ib * px;
  }
  for (let k = 0; k < rows; k++) {
    const py = y0 + (k + 0.5) / n;
    sY[k] = ic * py + ie;
    tY[k] = id * py + iff;
  }
  // Image column of s and row offset of t (unit square), −1 outside it.
  const column = (s: number) => (s < 0 || s >= 1 ? -1 : Math.min(iw - 1, (s * iw) | 0));
  const rowAt = (t: number) => (t < 0 || t >= 1 ? -1 : Math.min(ih - 1, ((1 - t) * ih) | 0) * iw);
  const data = out.data;
  let added = 0;
  // The image pixel of sample (kx, ky), −1 outside the image.
  let sample = (kx: number, ky: number) => {
    const s = sX[kx]! + sY[ky]!;
    const t = tX[kx]! + tY[ky]!;
    return s < 0 || s >= 1 || t < 0 || t >= 1 ? -1 : rowAt(t) + column(s);
  };
  const upright = b === 0 && c === 0;
  if (upright || (a === 0 && d === 0)) {
    // One of s and t varies with the column only, the other with the row only (the terms that
    // would vary with the other axis are zeros): a sample's pixel is a column offset plus a row
    // offset, the same as computed above.
    const colOff = new Int32Array(cols),
      rowOff = new Int32Array(rows);
    for (let k = 0; k < cols; k++) colOff[k] = upright ? column(sX[k]! + sY[0]!) : rowAt(tX[k]! + tY[0]!);
    for (let k = 0; k < rows; k++) rowOff[k] = upright ? rowAt(tX[0]! + tY[k]!) : column(sX[0]! + sY[k]!);
    if (n === 1) {
      // One sample a pixel (a scan at the raster's resolution or below): copied where opaque.
      for (let y = y0; y < y1; y++) {
        const r = rowOff[y - y0]!;
        if (r < 0) continue;
        for (let x = x0, o = y * W + x0; x < x1; x++, o++) {
          const q = colOff[x - x0]!;
          if (q < 0 || (mask && !mask[o])) continue;
          added += 1 - covered[o]!;
          covered[o] = 1;
          if (!opaque || opaque[r + q]) data[o] = gray[r + q]!;
        }
      }
      return added;
    }
    sample = (kx, ky) => (rowOff[ky]! < 0 || colOff[kx]! < 0 ? -1 : rowOff[ky]! + colOff[kx]!);
  }
  for (let y = y0; y < y1; y++) {
    const ky = (y - y0) * n;
    for (let x = x0; x < x1; x++) {
      const kx = (x - x0) * n;
      let sum = 0,
        count = 0,
        seen = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const i = sample(kx + sx, ky + sy);
          if (i < 0) continue;
          seen++;
          if (opaque && !opaque[i]) continue;
          sum += gray[i]!;
          count++;
        }
      }
      const o = y * W + x;
      if (!seen || (mask && !mask[o])) continue;
      added += 1 - covered[o]!;
      covered[o] = 1;
      // Partly transparent samples blend with what lies under them.
      if (count) data[o] = Math.round((sum + data[o]! * (seen - count)) / seen);
    }
  }
  return added;
}

function parseFill(args: unknown[]): Rgb {
  const c = args[0];
  if (typeof c === "string" && /^#[0-9a-f]{6}$/i.test(c)) {
    const v = parseInt(c.slice(1), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  if (args.length === 3 && args.every((x) => typeof x === "number")) {
    const k = (args as number[]).every((x) => x <= 1) ? 255 : 1;
    return (args as number[]).map((x) => Math.round(x * k)) as unknown as Rgb;
  }
  return BLACK;
}

const BLACK: Rgb = [0, 0, 0];

function resolveObject(page: PDFPageProxy, id: string): Promise<PdfImage | null> {
  const store = id.startsWith("g_") ? page.commonObjs : page.objs;
  return new Promise((resolve) => store.get(id, (obj: unknown) => resolve((obj as PdfImage) ?? null)));
}

/**
 * Composes every image the page draws (scans, several strips, stencil masks, images with soft
 * masks, images inside form XObjects) onto a white gray raster, at `scale` pixels per PDF point
 * with the page's /Rotate applied, as a viewer would show them. Vector paths and text are not
 * drawn: a page's text comes from its text layer. Images painted through text used as a clipping
 * path (text rendering modes 4–7: lettering filled with a picture or colour separations) are
 * counted in `clipped`: this raster shows them unclipped, not as a viewer does. Null when the
 * page draws no image.
 */
export async function composePageImages(page: PDFPageProxy, ops: PdfOperatorList, scale: number): Promise<ComposedPage | null> {
  const composed = await composePlane(page, ops, scale, "gray");
  if (!composed) return null;
  const { image, images, clipped, covered } = composed;
  return { image, images, clipped, coverage: covered / (image.width * image.height) };
}

/**
 * `composePageImages` in colour, as RGBA on white: each of red, green and blue composed in turn
 * into one plane (a page's images are decoded once, on the first). Null when the page draws no image.
 */
export async function composePageColour(page: PDFPageProxy, ops: PdfOperatorList, scale: number): Promise<RgbaImage | null> {
  let rgba: RgbaImage | null = null;
  for (const plane of [0, 1, 2] as const) {
    const composed = await composePlane(page, ops, scale, plane);
    if (!composed) return null;
    const { width, height, data } = composed.image;
    rgba ??= { width, height, data: new Uint8Array(width * height * 4).fill(255) };
    for (let o = 0, i = plane; o < data.length; o++, i += 4) rgba.data[i] = data[o]!;
  }
  return rgba;
}

/** One plane of the page's images composed (`composePageImages`), with the number of pixels they `covered`. */
async function composePlane(
  page: PDFPageProxy,
  ops: PdfOperatorList,
  scale: number,
  plane: Plane,
): Promise<(Omit<ComposedPage, "coverage"> & { covered: number }) | null> {
  const viewport = page.getViewport({ scale });
  const W = Math.max(1, Math.round(viewport.width));
  const H = Math.max(1, Math.round(viewport.height));
  let out: GrayImage | null = null;
  let covered: Uint8Array | null = null;
  // The mask of each list of clipping paths in force, made when an image is first drawn under it.
  const masks = new WeakMap<readonly ClipPath[], Uint8Array | null>();
  const maskOf = (list: readonly ClipPath[]) => {
    if (list.length === 0) return null;
    if (!masks.has(list)) masks.set(list, clipMask(list, W, H));
    return masks.get(list)!;
  };
  let images = 0,
    clipped = 0,
    area = 0;
  await visitImages(page, ops, viewport.transform.slice(0, 6) as Matrix, async (m, image, mask, fill, textClip, clips) => {
    const img = await image();
    const px = img && planePixels(img, mask, fill, plane);
    if (!px) return;
    out ??= { width: W, height: H, data: new Uint8Array(W * H).fill(255) };
    covered ??= new Uint8Array(W * H);
    area += drawImage(out, covered, m, px, maskOf(clips));
    images++;
    if (textClip) clipped++;
  });
  if (!out) return null;
  return { image: out, images, clipped, covered: area };
}

/**
 * An upper bound of `composePageImages`' coverage without decoding or drawing a pixel: the areas
 * of the images' outlines on the page (clipped to it) summed, as a share of the page.
 */
export async function imageCoverageBound(page: PDFPageProxy, ops: PdfOperatorList): Promise<number> {
  const viewport = page.getViewport({ scale: 1 });
  const W = viewport.width;
  const H = viewport.height;
  let area = 0;
  await visitImages(page, ops, viewport.transform.slice(0, 6) as Matrix, async ([a, b, c, d, e, f]) => {
    const xs = [e, a + e, c + e, a + c + e];
    const ys = [f, b + f, d + f, b + d + f];
    const w = Math.min(W, Math.max(...xs)) - Math.max(0, Math.min(...xs));
    const h = Math.min(H, Math.max(...ys)) - Math.max(0, Math.min(...ys));
    if (w > 0 && h > 0) area += w * h;
  });
  return area / Math.max(1e-9, W * H);
}

/** Where an image is drawn (device matrix of its unit square), its pixels on demand, and the state it is drawn in. */
type ImageVisitor = (
  ctm: Matrix,
  image: () => Promise<PdfImage | null>,
  mask: boolean,
  fill: Rgb,
  textClip: boolean,
  clips: readonly ClipPath[],
) => Promise<void>;

/** Walks the page's operators with the graphics state images are drawn in, calling `visit` for each image drawn. */
async function visitImages(page: PDFPageProxy, ops: PdfOperatorList, start: Matrix, visit: ImageVisitor): Promise<void> {
  let ctm = start;
  let fill = BLACK;
  // Text clipping: the rendering mode inside BT/ET, whether text was shown in it, and whether a
  // text clip is in force (set at ET, undone by the enclosing restore).
  let mode = 0,
    shown = false,
    textClip = false;
  // Clipping paths in force (a new array at each clip, so saved states keep theirs).
  let clips: readonly ClipPath[] = [];
  let pendingClip: "nonzero" | "evenodd" | null = null;
  const stack: { ctm: Matrix; fill: Rgb; mode: number; textClip: boolean; clips: readonly ClipPath[] }[] = [];
  const draw = (m: Matrix, img: PdfImage | null | (() => Promise<PdfImage | null>), mask: boolean) =>
    visit(m, typeof img === "function" ? img : async () => img, mask, fill, textClip, clips);
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i]!;
    const args = (ops.argsArray[i] ?? []) as unknown[];
    if (SHOW_TEXT.has(fn)) {
      shown = true;
      continue;
    }
    switch (fn) {
      case OPS.save:
        stack.push({ ctm, fill, mode, textClip, clips });
        break;
      case OPS.restore:
        ({ ctm, fill, mode, textClip, clips } = stack.pop() ?? { ctm, fill, mode, textClip, clips });
        break;
      case OPS.transform:
        ctm = mul(ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push({ ctm, fill, mode, textClip, clips });
        if (Array.isArray(args[0])) ctm = mul(ctm, args[0] as number[]);
        break;
      case OPS.paintFormXObjectEnd:
        ({ ctm, fill, mode, textClip, clips } = stack.pop() ?? { ctm, fill, mode, textClip, clips });
        break;
      case OPS.clip:
        pendingClip = "nonzero";
        break;
      case OPS.eoClip:
        pendingClip = "evenodd";
        break;
      case OPS.constructPath: {
        // pdf.js gives `W n` as the clip op followed by the path it applies to.
        const data = (args[1] as ArrayLike<number>[] | undefined)?.[0];
        if (pendingClip && data) clips = [...clips, clipPath(data, ctm, pendingClip === "evenodd")];
        pendingClip = null;
        break;
      }
      case OPS.setTextRenderingMode:
        mode = Number(args[0]);
        break;
      case OPS.beginText:
        shown = false;
        break;
      case OPS.endText:
        if (shown && mode >= 4) textClip = true;
        break;
      case OPS.setFillRGBColor:
      case OPS.setFillGray:
        fill = parseFill(args);
        break;
      case OPS.paintImageXObject:
        await draw(ctm, () => resolveObject(page, String(args[0])), false);
        break;
      case OPS.paintInlineImageXObject:
        await draw(ctm, args[0] as PdfImage, false);
        break;
      case OPS.paintImageMaskXObject:
        await draw(ctm, args[0] as PdfImage, true);
        break;
      case OPS.paintImageMaskXObjectGroup:
        for (const img of args[0] as (PdfImage & { transform: number[] })[]) await draw(mul(ctm, img.transform), img, true);
        break;
      case OPS.paintImageXObjectRepeat: {
        // Resolved once for all its positions.
        let img: Promise<PdfImage | null> | null = null;
        const once = () => (img ??= resolveObject(page, String(args[0])));
        const [sx, sy, positions] = [args[1] as number, args[2] as number, args[3] as number[]];
        for (let p = 0; p + 1 < positions.length; p += 2)
          await draw(mul(ctm, [sx, 0, 0, sy, positions[p]!, positions[p + 1]!]), once, false);
        break;
      }
    }
  }
}
