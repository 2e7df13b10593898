import type { InputFormat, PagePath, PageText } from "../contract";
import { engineError } from "../errors";
import { assertPageImagesFit, hasTextLayer, largestPageImage, openPage, openPdf, pageSize, singlePagePdf, textItems, viewportTransform } from "../pdf/document";
import { rasterizePdfPage } from "../pdf/rasterize";
import { drawnRules } from "../pdf/drawn-rules";
import { textLayerPage } from "../pdf/text-layer";
import { decodeToGray } from "./decode";
import type { GrayImage } from "./gray";
import { assertInk } from "./ink";
import { MAX_PAGE_SIDE } from "./limits";

/** One page of an upload as pixels, with the way its text is to be obtained. */
export interface SourcePage {
  image: GrayImage;
  path: PagePath;
  /** `text_layer` pages: the exact text, boxes in `image` coordinates. */
  textLayer?: PageText;
  /** `text_layer` pages: false when no browser could draw the page and `image` is a blank canvas of its size. */
  rendered: boolean;
}

/** PDF pages are drawn at 300 dpi, fitted within MAX_PAGE_SIDE (an A4 page gives 2480x3508). */
function pdfScale(size: { width: number; height: number }): number {
  return Math.min(300 / 72, MAX_PAGE_SIDE / Math.max(size.width, size.height));
}

async function pdfSourcePage(bytes: Uint8Array, page: number, browser: unknown): Promise<SourcePage> {
  const doc = await openPdf(bytes);
  try {
    const p = await openPage(doc, page);
    const size = pageSize(p);
    const scale = pdfScale(size);
    const width = Math.max(1, Math.round(size.width * scale));
    const height = Math.max(1, Math.round(size.height * scale));
    const items = await textItems(p);
    if (hasTextLayer(items)) {
      const viewport = viewportTransform(p, scale);
      const textLayer = { ...textLayerPage(items, viewport, width, height), rules: await drawnRules(p, viewport, width, height) };
      // The page image is only for the editor and renderer: without a browser, a blank canvas of
      // the page's size keeps the coordinates right and the text exact.
      let image: GrayImage | null = null;
      try {
        image = browser ? await rasterizePdfPage(browser, await singlePagePdf(bytes, page), scale) : null;
      } catch {
        image = null;
      }
      return { image: image ?? { width, height, data: new Uint8Array(width * height).fill(255) }, path: "text_layer", textLayer, rendered: image !== null };
    }
    const images = await assertPageImagesFit(bytes, page);
    if (images > 0) {
      const scan = await largestPageImage(doc, page);
      if (scan) {
        assertInk(scan, page, "a scanned image");
        return { image: scan, path: "ocr", rendered: true };
      }
    }
    const image = await rasterizePdfPage(browser, await singlePagePdf(bytes, page), scale);
    // Images pdf.js could not extract (an undecodable encoding) that the browser drew blank too.
    if (images > 0) assertInk(image, page, "an image");
    return { image, path: "rasterized", rendered: true };
  } finally {
    // Frees the document's parsed objects and decoded images held by pdf.js.
    await doc.cleanup().catch(() => {});
  }
}

/**
 * Reads page `page` of an upload: raster formats are decoded (TIFF page by page); PDF pages use
 * their text layer, else their scanned image, else a browser rendering.
 */
export async function loadSourcePage(bytes: Uint8Array, format: InputFormat, page: number, browser: unknown): Promise<SourcePage> {
  if (!Number.isInteger(page) || page < 0) throw engineError("validation_error", "page must be a zero-based page index.");
  if (format === "pdf") return pdfSourcePage(bytes, page, browser);
  return { image: await decodeToGray(bytes, format, page), path: "ocr", rendered: true };
}
