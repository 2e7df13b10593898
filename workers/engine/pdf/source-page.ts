import type { OcrMode } from "../../shared/engine-contract";
import type { GrayImage } from "../image/gray";
import { assertInk, isBlank } from "../image/ink";
import { MAX_PAGE_SIDE } from "../memory";
import { engineError } from "../errors";
import type { SourcePage } from "../image/source-page";
import {
  assertPageImagesFit,
  hasTextLayer,
  type PdfPageProxy,
  type PdfTextItem,
  pageSize,
  singlePagePdf,
  textItems,
  viewportTransform,
  withPage,
  withPdf,
} from "./document";
import { drawnMarks } from "./drawn-rules";
import { composePageImages, imageCoverageBound, SHOW_TEXT, type PdfOperatorList } from "./page-compose";
import { OPS } from "pdfjs-dist";
import { rasterizePdfPage, rasterizePdfPagePng } from "./rasterize";
import { textLayerPage, turnMatrix, uprightTurn } from "./text-layer";
import { mul } from "./matrix";
import { rotateQuarter } from "../image/geometry";
import { visibleTextItems } from "./text-clip";
import { judgeTextLayer } from "./text-plausibility";

/** PDF pages are drawn at 300 dpi, fitted within MAX_PAGE_SIDE (an A4 page gives 2480x3508). */
function pdfScale(size: { width: number; height: number }): number {
  return Math.min(300 / 72, MAX_PAGE_SIDE / Math.max(size.width, size.height));
}

/** Longer side (pixels) of the raster on which the images of a text-layer page are only checked. */
const CHECK_SIDE = 600;

/** Images covering at least this share of the page make it a scan (its raster is the images). */
const SCAN_COVERAGE = 0.5;

/** Images (one, or several composed) covering this share of the page: the page is a scanned sheet. */
const FULL_PAGE = 0.9;

/**
 * A visible text layer on a full-page scan whose runs cover less than this share of the page is
 * text put on the scan (a stamp, a typed header or number), not the page's own text. A page of
 * running text covers a quarter or more; a sparse title page a few percent.
 */
const STAMP_TEXT_SHARE = 0.02;

/** Share of the page area the text runs cover (their advance width times their height, in points). */
function textShare(items: PdfTextItem[], size: { width: number; height: number }): number {
  const area = items.reduce((n, i) => n + Math.abs(i.width) * Math.abs(i.height), 0);
  return area / Math.max(1, size.width * size.height);
}

const VECTOR = new Set<number>([OPS.constructPath, OPS.shadingFill, ...SHOW_TEXT]);
const IMAGE = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintImageMaskXObjectGroup,
  OPS.paintImageXObjectRepeat,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageMaskXObjectRepeat,
]);

/**
 * Operators that only set state, group or mark content: a page whose operator list holds nothing
 * else paints nothing (a page without contents, or contents that only set colours). Anything not
 * listed here counts as painting, so an operator this list does not know is never taken for blank.
 */
const STATE_ONLY = new Set<number>([
  OPS.dependency,
  OPS.setLineWidth,
  OPS.setLineCap,
  OPS.setLineJoin,
  OPS.setMiterLimit,
  OPS.setDash,
  OPS.setRenderingIntent,
  OPS.setFlatness,
  OPS.setGState,
  OPS.save,
  OPS.restore,
  OPS.transform,
  OPS.beginText,
  OPS.endText,
  OPS.setCharSpacing,
  OPS.setWordSpacing,
  OPS.setHScale,
  OPS.setLeading,
  OPS.setFont,
  OPS.setTextRenderingMode,
  OPS.setTextRise,
  OPS.moveText,
  OPS.setLeadingMoveText,
  OPS.setTextMatrix,
  OPS.nextLine,
  OPS.setStrokeColorSpace,
  OPS.setFillColorSpace,
  OPS.setStrokeColor,
  OPS.setStrokeColorN,
  OPS.setFillColor,
  OPS.setFillColorN,
  OPS.setStrokeGray,
  OPS.setFillGray,
  OPS.setStrokeRGBColor,
  OPS.setFillRGBColor,
  OPS.setStrokeCMYKColor,
  OPS.setFillCMYKColor,
  OPS.markPoint,
  OPS.markPointProps,
  OPS.beginMarkedContent,
  OPS.beginMarkedContentProps,
  OPS.endMarkedContent,
  OPS.beginCompat,
  OPS.endCompat,
  OPS.paintFormXObjectBegin,
  OPS.paintFormXObjectEnd,
  OPS.beginGroup,
  OPS.endGroup,
]);

/** True when every text drawing operation uses an invisible rendering mode (3 or 7): an OCR layer over a scan. */
function onlyInvisibleText(ops: PdfOperatorList): boolean {
  let mode = 0;
  const stack: number[] = [];
  let shown = 0;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i]!;
    if (fn === OPS.save) stack.push(mode);
    else if (fn === OPS.restore) mode = stack.pop() ?? mode;
    else if (fn === OPS.setTextRenderingMode) mode = Number((ops.argsArray[i] as number[])[0]);
    else if (SHOW_TEXT.has(fn)) {
      if (mode !== 3 && mode !== 7) return false;
      shown++;
    }
  }
  return shown > 0;
}

/** Page `page` of a PDF drawn whole by the browser at `scale` pixels per point (what a viewer shows). */
export async function drawPdfPage(browser: unknown, bytes: Uint8Array, page: number, scale: number): Promise<GrayImage> {
  return rasterizePdfPage(browser, await singlePagePdf(bytes, page), scale);
}

/** `drawPdfPage` as the browser's 8-bit gray PNG. */
export async function drawPdfPagePng(browser: unknown, bytes: Uint8Array, page: number, scale: number): Promise<Uint8Array> {
  return rasterizePdfPagePng(browser, await singlePagePdf(bytes, page), scale);
}

/**
 * A text item holding control characters is a glyph run its font gives no Unicode for: the rest
 * of it decodes as stray symbols too (py-pdf's habibi.pdf: "\u0003ϲΒϴΒ ˴" beside its Arabic). A
 * layer trusted as a whole (such runs are at most 5 % of its characters) is taken without them.
 */
const GLYPH_RUN_WITHOUT_UNICODE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;

export interface PdfPageOptions {
  browser: unknown;
  languages?: string[];
  ocrMode?: OcrMode;
  /** Text-layer pages: leave the browser's drawing of the page for later (`SourcePage.drawScale`). */
  drawLater?: boolean;
}

/**
 * Reads one PDF page the way a viewer shows it. A plausible text layer is taken as the page's
 * text (unless `ocrMode` says otherwise); other pages are recognised from a raster: the page's
 * images composed in the engine (scans in any encoding pdf.js decodes, masks, several strips), or,
 * for pages drawn with vector graphics only, a Browser Rendering of the page.
 */
export async function pdfSourcePage(bytes: Uint8Array, page: number, opts: PdfPageOptions): Promise<SourcePage> {
  // The document stays open for the job's next pages in this isolate; the page is freed after.
  // Pages are drawn at `pdfScale` pixels per point: 72 points to the inch.
  return withPdf(bytes, (doc) =>
    withPage(doc, page, async (p) => ({ ...(await readPdfPage(bytes, page, p, opts)), resolution: 72 * pdfScale(pageSize(p)) })),
  );
}

/** `pdfSourcePage` on a page already opened. */
async function readPdfPage(bytes: Uint8Array, page: number, p: PdfPageProxy, opts: PdfPageOptions): Promise<SourcePage> {
  const size = pageSize(p);
  const scale = pdfScale(size);
  const width = Math.max(1, Math.round(size.width * scale));
  const height = Math.max(1, Math.round(size.height * scale));
  const blank = (w: number, h: number): GrayImage => ({ width: w, height: h, data: new Uint8Array(w * h).fill(255) });
  const listed = await textItems(p);
  const mode = opts.ocrMode ?? "auto";
  const rotation = (((p.rotate % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const { images, oversized } = await assertPageImagesFit(bytes, page);
  // pdf.js leaves out images too large to decode here: only the browser draws such a page.
  if (oversized > 0 && !opts.browser)
    throw engineError("image_too_large", `PDF page ${page + 1} holds an image too large to decode without Browser Rendering.`);
  const ops = await p.getOperatorList();
  // Nothing painted: the page is blank as it stands, without composing or drawing it. A page whose
  // resources hold an image never is (pdf.js leaves images too large to decode out of its operators).
  if (listed.length === 0 && images === 0 && ops.fnArray.every((f) => STATE_ONLY.has(f)))
    return { image: blank(width, height), path: "ocr", rendered: true, rotation };
  // Text a clipping path hides is no text of the page, though pdf.js lists it.
  const items = visibleTextItems(listed, ops, viewportTransform(p, scale));
  const invisible = hasTextLayer(items) && onlyInvisibleText(ops);
  const judged = hasTextLayer(items) ? judgeTextLayer(items.map((i) => i.str).join(" "), opts.languages) : null;
  const useLayer = judged !== null && judged.ok && mode !== "force" && !(mode === "redo" && invisible);
  // A layer in another script than asked is kept (OCR in the asked language cannot read it), and said.
  const warnings =
    useLayer && judged.otherScript
      ? {
          warnings: [
            {
              code: "text_layer_other_script",
              message: `Page ${page + 1}'s text layer is written in ${judged.otherScript} script, not in that of ${opts.languages?.join("+")}: it is kept as the page's text. Ask for a language written in ${judged.otherScript} script to have it read that way.`,
            },
          ],
        }
      : {};
  // A page read from its visible text layer whose text is its own (not a stamp on a scan) never
  // shows its images composed: they are composed only to check that they decode, at a low
  // resolution (a full one takes 0.4–1.7 s). A blank result is confirmed at full resolution.
  const checkOnly = useLayer && !invisible && textShare(items, size) >= STAMP_TEXT_SHARE;
  const compose = (s: number) => composePageImages(p, ops, s);
  // Composed or not, such a page is read from its layer; its images are only checked where
  // they could be a scan (SCAN_COVERAGE), which their outlines tell without decoding a pixel.
  const check = !checkOnly || (await imageCoverageBound(p, ops)) >= SCAN_COVERAGE;
  const first =
    check && ops.fnArray.some((f) => IMAGE.has(f))
      ? await compose(checkOnly ? Math.min(scale, CHECK_SIDE / Math.max(size.width, size.height)) : scale)
      : null;
  const composed = checkOnly && first && isBlank(first.image) ? await compose(scale) : first;
  // Images painted through text outlines (colour separations, lettering filled with a picture)
  // compose unclipped, unlike what a viewer shows: such pages are drawn whole, like vector pages.
  const faithful = composed !== null && composed.clipped === 0 && oversized === 0;
  const scan = faithful && composed.coverage >= SCAN_COVERAGE;
  const vectors = ops.fnArray.some((f) => VECTOR.has(f));
  // A page that is its images, composed white: no decoder could read them. A failure, never a
  // blank page passed as read.
  if (faithful && (scan || !vectors)) assertInk(composed.image, page, images > 0 ? "an image" : "a mask");
  if (useLayer) {
    const drawn = viewportTransform(p, scale);
    const layerIn = async (viewport: number[], w: number, h: number) => ({
      ...textLayerPage(
        items.filter((i) => !GLYPH_RUN_WITHOUT_UNICODE.test(i.str)),
        viewport,
        w,
        h,
      ),
      ...(await drawnMarks(p, viewport, w, h)),
    });
    // A scanned sheet with a little visible text on it (a stamp, a typed header): the scan is
    // recognised and the text merged with what OCR reads (the layer's words win where both read
    // the same place). Pages with images beside their real text (figures, decorative bands, a
    // background) are read from their layer.
    if (composed && composed.coverage >= FULL_PAGE && !invisible && textShare(items, size) < STAMP_TEXT_SHARE)
      return { image: composed.image, path: "ocr", textLayer: await layerIn(drawn, width, height), rendered: true, rotation, ...warnings };
    // Text set sideways (a landscape table on a portrait page) is read in its own frame: the
    // page and its layer are turned so that its lines run left to right.
    const turn = uprightTurn(items, drawn);
    const [w, h] = turn % 180 ? [height, width] : [width, height];
    const textLayer = await layerIn(mul(turnMatrix(turn, width, height), drawn), w, h);
    const upright = (image: GrayImage) => rotateQuarter(image, turn);
    const turned = { ...(turn ? { turn } : {}), ...warnings };
    // The page image serves the editor and renderer. A scan under an OCR layer is its images;
    // other pages are drawn by a browser, or left as a blank canvas of the page's size (the
    // coordinates stay right and the text exact).
    if (scan && invisible) return { image: upright(composed.image), path: "text_layer", textLayer, rendered: true, rotation, ...turned };
    if (opts.browser && opts.drawLater)
      return { image: blank(w, h), path: "text_layer", textLayer, rendered: false, rotation, ...turned, drawScale: scale };
    let image: GrayImage | null = null;
    try {
      image = opts.browser ? await drawPdfPage(opts.browser, bytes, page, scale) : null;
    } catch {
      image = null;
    }
    return { image: image ? upright(image) : blank(w, h), path: "text_layer", textLayer, rendered: image !== null, rotation, ...turned };
  }
  // Pages that draw only images need no browser; images beside vector drawing do.
  if (composed && (scan || (faithful && !vectors) || !opts.browser))
    return { image: composed.image, path: "ocr", rendered: true, rotation };
  try {
    const image = await drawPdfPage(opts.browser, bytes, page, scale);
    // Images neither decoder could read, drawn blank by the browser too.
    if (images > 0) assertInk(image, page, "an image");
    return { image, path: "rasterized", rendered: true, rotation };
  } catch (err) {
    // A page with some images still has them when the browser cannot draw the rest.
    if (composed) return { image: composed.image, path: "ocr", rendered: true, rotation };
    throw err;
  }
}
