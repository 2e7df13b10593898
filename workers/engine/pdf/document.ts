import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFStream } from "pdf-lib";
import { engineError } from "../errors";
import { assertDimensions } from "../image/limits";
import { MAX_IMAGE_PIXELS, registerCache } from "../memory";
import { pdfOpenFailure } from "./open-errors";
import { loadPdf, type PDFDocumentProxy, type PDFPageProxy } from "./pdfjs";

type PdfProxy = PDFDocumentProxy;
export type PdfPageProxy = PDFPageProxy;

/** A text run of the page's text layer, in PDF user space (pdf.js `TextItem`). */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/**
 * The last document pdf-lib parsed in this isolate, by content digest. The pages of a job come
 * here one call each, and parsing a large document takes a second or more (117 pages, 1.8 MB:
 * 0.7–1.6 s) that every page would otherwise pay again, twice (the image-size guard and the
 * single-page copy for the rasteriser). Only the parsed document is kept, never a pending
 * promise (it would belong to another request). Nothing modifies it: pages are copied out of it.
 */
let parsed: { digest: string; doc: PDFDocument } | null = null;

/** Content digests by buffer: one call hashes its upload once, whichever cache asks. */
const digests = new WeakMap<Uint8Array, Promise<string>>();

function digestOf(bytes: Uint8Array): Promise<string> {
  let d = digests.get(bytes);
  if (!d) {
    d = crypto.subtle.digest("SHA-256", bytes).then((h) => [...new Uint8Array(h)].map((b) => b.toString(16).padStart(2, "0")).join(""));
    digests.set(bytes, d);
  }
  return d;
}

/** The document parsed by pdf-lib, shared by the calls that see the same bytes (the page count at intake, the image guard, single-page copies). */
export async function pdfLibDocument(bytes: Uint8Array): Promise<PDFDocument> {
  const digest = await digestOf(bytes);
  if (parsed?.digest === digest) return parsed.doc;
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  parsed = { digest, doc };
  return doc;
}

/** Opens a PDF with pdf.js; see pdfOpenFailure for what unreadable files answer. */
async function openPdf(bytes: Uint8Array): Promise<PdfProxy> {
  try {
    return await loadPdf(bytes);
  } catch (err) {
    throw pdfOpenFailure(err);
  }
}

/**
 * Documents up to this size stay open in the isolate between calls (`withPdf`). pdf.js holds the
 * file, its cross-reference table and the fonts it loaded (the decoded pages are freed after each
 * call); larger files are opened per call.
 */
const MAX_KEPT_PDF_BYTES = 16 * 1024 * 1024;

interface OpenPdf {
  digest: string;
  doc: PdfProxy;
  /** Calls using the document, and pages in use by them. */
  users: number;
  pages: Map<number, number>;
  /** Replaced by another document (or never kept): destroyed when its last user is done. */
  retired: boolean;
}

/**
 * The pdf.js document of the last PDF opened in this isolate, by content digest. The pages of a
 * job arrive one engine call each; opening the document for each of them parsed the file and
 * loaded its fonts again every time (a 15-page file: 15 parses). Kept between requests is the
 * opened document only: nothing pending of one request is awaited by another.
 */
let kept: OpenPdf | null = null;

function retire(entry: OpenPdf): void {
  entry.retired = true;
  if (entry.users === 0) void entry.doc.loadingTask.destroy().catch(() => {});
}

// A large decode or fill makes room first (memory.ts): the kept document goes (once unused) with the OCR engines.
registerCache(() => {
  if (kept) retire(kept);
  kept = null;
});

/**
 * Runs `fn` with the PDF opened by pdf.js, reusing the document this isolate already holds for
 * the same bytes. Unreadable files fail as `openPdf` says.
 */
export async function withPdf<T>(bytes: Uint8Array, fn: (doc: PdfProxy) => Promise<T>): Promise<T> {
  const digest = await digestOf(bytes);
  let entry = kept?.digest === digest && !kept.retired ? kept : null;
  if (!entry) {
    entry = { digest, doc: await openPdf(bytes), users: 0, pages: new Map(), retired: false };
    if (bytes.length <= MAX_KEPT_PDF_BYTES) {
      if (kept) retire(kept);
      kept = entry;
    } else entry.retired = true;
  }
  entry.users++;
  try {
    return await fn(entry.doc);
  } finally {
    entry.users--;
    if (entry.retired && entry.users === 0) await entry.doc.loadingTask.destroy().catch(() => {});
  }
}

/**
 * Runs `fn` on page `page` (zero-based) of a document opened by `withPdf`. Afterwards the page's
 * decoded images and operator lists are freed (the document and its fonts stay), unless another
 * call is still reading the same page.
 */
export async function withPage<T>(doc: PdfProxy, page: number, fn: (p: PdfPageProxy) => Promise<T>): Promise<T> {
  if (!Number.isInteger(page) || page < 0 || page >= doc.numPages) {
    throw engineError("validation_error", `Page ${page} does not exist: the PDF has ${doc.numPages} page(s).`);
  }
  let p: PdfPageProxy;
  try {
    p = await doc.getPage(page + 1);
  } catch (err) {
    throw engineError("corrupt_file", `PDF page ${page + 1} is corrupt: ${err instanceof Error ? err.message : String(err)}`);
  }
  const pages = kept?.doc === doc ? kept.pages : new Map<number, number>();
  pages.set(page, (pages.get(page) ?? 0) + 1);
  try {
    return await fn(p);
  } finally {
    const n = (pages.get(page) ?? 1) - 1;
    if (n > 0) pages.set(page, n);
    else {
      pages.delete(page);
      p.cleanup();
    }
  }
}

/** The page's text runs, with the spaces pdf.js inserts where it measured word spacing (they tell word gaps from column gutters). */
export async function textItems(page: PdfPageProxy): Promise<PdfTextItem[]> {
  let content;
  try {
    content = await page.getTextContent();
  } catch (err) {
    throw engineError(
      "corrupt_file",
      `The text of PDF page ${page.pageNumber} is corrupt: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return (content.items as Partial<PdfTextItem>[])
    .filter((i): i is PdfTextItem => typeof i.str === "string" && Array.isArray(i.transform))
    .filter((i) => i.str.length > 0 && (i.str.trim().length > 0 || i.width > 0));
}

/** Fewer visible characters than this and a page's text layer is not worth reading (stray page numbers, marks). */
export const TEXT_LAYER_MIN_CHARS = 8;

export function hasTextLayer(items: PdfTextItem[]): boolean {
  return items.reduce((n, i) => n + i.str.replace(/\s+/g, "").length, 0) >= TEXT_LAYER_MIN_CHARS;
}

/**
 * Images above the engine's decode limit (MAX_IMAGE_PIXELS: pdf.js leaves them out here) and up to
 * this size are drawn by the browser renderer, at page resolution, outside the isolate's memory
 * (OCRmyPDF's enormous.pdf: a 9000x9000 scan of 81 megapixels). Larger ones are refused.
 */
const MAX_DRAWN_IMAGE_PIXELS = 100_000_000;

/**
 * Decompression-bomb guard for embedded images, checked from their dictionaries with pdf-lib
 * before pdf.js decodes any pixels (image XObjects of the page and of its form XObjects): how many
 * images the page has, and how many of them only the browser renderer can draw (`oversized`).
 */
export async function assertPageImagesFit(bytes: Uint8Array, page: number): Promise<{ images: number; oversized: number }> {
  let doc: PDFDocument;
  try {
    doc = await pdfLibDocument(bytes);
  } catch (err) {
    throw pdfOpenFailure(err);
  }
  let images = 0;
  let oversized = 0;
  const seen = new Set<unknown>();
  const visit = (resources: PDFDict | undefined, depth: number) => {
    const xobjects = resources?.lookupMaybe(PDFName.of("XObject"), PDFDict);
    if (!xobjects || depth > 4) return;
    for (const [, ref] of xobjects.entries()) {
      const obj = doc.context.lookup(ref);
      if (!(obj instanceof PDFStream || obj instanceof PDFRawStream) || seen.has(obj)) continue;
      seen.add(obj);
      const subtype = obj.dict.lookup(PDFName.of("Subtype"));
      if (subtype === PDFName.of("Image")) {
        const w = obj.dict.lookupMaybe(PDFName.of("Width"), PDFNumber)?.asNumber() ?? 0;
        const h = obj.dict.lookupMaybe(PDFName.of("Height"), PDFNumber)?.asNumber() ?? 0;
        assertDimensions(w, h, `image embedded in PDF page ${page + 1}`, MAX_DRAWN_IMAGE_PIXELS);
        images++;
        if (w * h > MAX_IMAGE_PIXELS) oversized++;
      } else if (subtype === PDFName.of("Form")) {
        visit(obj.dict.lookupMaybe(PDFName.of("Resources"), PDFDict), depth + 1);
      }
    }
  };
  let pages;
  try {
    pages = doc.getPages();
  } catch (err) {
    // pdf-lib cannot read an encrypted document's object streams (an owner password only: pdf.js
    // opens it); pdf.js's own pixel limit (loadPdf) guards its images then.
    if (doc.isEncrypted) return { images: 0, oversized: 0 };
    throw pdfOpenFailure(err);
  }
  const p = pages[page];
  if (!p) throw engineError("validation_error", `Page ${page} does not exist: the PDF has ${pages.length} page(s).`);
  visit(p.node.Resources(), 0);
  return { images, oversized };
}

/** Page size in PDF points as displayed (after /Rotate). */
export function pageSize(page: PdfPageProxy): { width: number; height: number } {
  const vp = page.getViewport({ scale: 1 });
  return { width: vp.width, height: vp.height };
}

/** The viewport transform at `scale`: PDF user space → raster pixels (y down, /Rotate applied). */
export function viewportTransform(page: PdfPageProxy, scale: number): number[] {
  return page.getViewport({ scale }).transform as number[];
}

/** One page of the document as a PDF of its own (for the rasteriser: less to send). */
export async function singlePagePdf(bytes: Uint8Array, page: number): Promise<Uint8Array> {
  const src = await pdfLibDocument(bytes);
  const out = await PDFDocument.create();
  const [copied] = await out.copyPages(src, [page]);
  out.addPage(copied!);
  return out.save();
}
