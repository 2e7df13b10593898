import { WorkerEntrypoint } from "cloudflare:workers";
import type {
  Band,
  Box,
  BuildExportsInput,
  BuiltExport,
  DetectInput,
  DrawPageInput,
  DrawPageResult,
  DetectResult,
  EngineHealth,
  ExtractTablesInput,
  ExtractTablesResult,
  InpaintInput,
  InpaintResult,
  InspectInput,
  InspectResult,
  OcrMode,
  PageKind,
  PreprocessInput,
  PreprocessResult,
  RecognizeInput,
  RecognizeResult,
  ReocrInput,
  ReocrResult,
  TypesetInput,
  TypesetResult,
} from "../shared/engine-contract";
import type { EngineEnv } from "./env";
import { engineError, guarded } from "./errors";
import { buildAll, isExportFormat } from "./exports/build";
import { loadDocument } from "./exports/document";
import { probeRaster } from "./image/headers";
import { sniffFormat } from "./image/sniff";
import { inpaintPage } from "./inpaint/inpaint-page";
import { requireLanguages, seededFonts, seededLanguages } from "./ocr/models";
import { tesseractBuild } from "./ocr/tesseract";
import { drawPendingPage, preprocessPage } from "./page/preprocess";
import { detectPage, recognizeBand, recognizePage } from "./page/read";
import { reocrPage } from "./page/reocr";
import { extractTables } from "./page/tables";
import { pdfPageCount } from "./pdf/pages";
import { readPageMeta, type PageMeta } from "./storage/page-meta";
import { readBytes } from "./storage/r2";
import { typesetPage } from "./typeset/typeset-page";

function requireKey(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 1024) {
    throw engineError("validation_error", `${field} must be a non-empty R2 key.`);
  }
  return value;
}

function requirePage(page: unknown): number {
  if (!Number.isInteger(page) || (page as number) < 0) throw engineError("validation_error", "page must be a zero-based page index.");
  return page as number;
}

function requireBox(b: unknown, field: string): Box {
  const v = b as Box | null;
  if (!v || ![v.x, v.y, v.w, v.h].every((n) => typeof n === "number" && Number.isFinite(n)) || v.w < 0 || v.h < 0) {
    throw engineError("validation_error", `${field} must be a box {x, y, w, h} with finite numbers.`);
  }
  return { x: v.x, y: v.y, w: v.w, h: v.h };
}

/** A part of a page to read (`recognize`'s `band`): rows, or a rectangle. */
function requireBand(b: Band): Band {
  if (b.w === undefined) {
    const rows = requireBox({ ...b, x: 0, w: 0 }, "band");
    return { y: rows.y, h: rows.h };
  }
  return requireBox(b, "band");
}

function requireCount(n: unknown, field: string): number {
  if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 64)
    throw engineError("validation_error", `${field} must be a whole number from 1 to 64.`);
  return n as number;
}

function requireOcrMode(mode: unknown): OcrMode {
  if (mode === undefined) return "auto";
  if (mode === "auto" || mode === "force" || mode === "redo") return mode;
  throw engineError("validation_error", "ocrMode must be auto, force or redo.");
}

function requirePageKind(kind: unknown): PageKind {
  if (kind === undefined) return "auto";
  if (kind === "auto" || kind === "document" || kind === "picture") return kind;
  throw engineError("validation_error", "pageKind must be auto, document or picture.");
}

/** The engine's RPC surface, reached through the api Worker's `ENGINE` service binding. */
export default class Engine extends WorkerEntrypoint<EngineEnv> {
  override async fetch(): Promise<Response> {
    return Response.json(
      { error: { code: "not_found", message: "The engine is reached over RPC only.", retryable: false, details: {} } },
      { status: 404 },
    );
  }

  /** Seeded OCR languages and fonts; ok when at least one language can be recognised. */
  async health(): Promise<EngineHealth> {
    return guarded("internal_error", "Listing models failed", async () => {
      const [ocrLanguages, fonts] = await Promise.all([seededLanguages(this.env.MODELS), seededFonts(this.env.MODELS)]);
      const build = tesseractBuild();
      return {
        ok: ocrLanguages.length > 0,
        ocrLanguages,
        fonts,
        tesseract: { version: build.tesseract, kernel: build.kernel, module: build.module },
      };
    });
  }

  /** Sniffs an upload's format from its bytes and counts its pages, without decoding pixels. */
  async inspect(input: InspectInput): Promise<InspectResult> {
    const sourceKey = requireKey(input?.sourceKey, "sourceKey");
    return guarded("internal_error", "Inspecting the file failed", async () => {
      const bytes = await readBytes(this.env.FILES, sourceKey);
      if (bytes.length === 0) throw engineError("unsupported_media_type", "The file is empty.");
      const format = sniffFormat(bytes);
      if (!format)
        throw engineError(
          "unsupported_media_type",
          "The file is not a PNG, JPEG, WebP, GIF, BMP, TIFF, PBM/PGM/PPM or PDF (judged from its bytes).",
        );
      const pages = format === "pdf" ? await pdfPageCount(bytes) : probeRaster(bytes, format).pages;
      return { format, pages, bytes: bytes.length };
    });
  }

  /** One page read into a normalised page image (page/preprocess.ts). */
  async preprocess(input: PreprocessInput): Promise<PreprocessResult> {
    const sourceKey = requireKey(input?.sourceKey, "sourceKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const page = requirePage(input?.page);
    const ocrMode = requireOcrMode(input?.ocrMode);
    const keys = input.readOutKeys;
    const readOutKeys = keys && { layout: requireKey(keys.layout, "readOutKeys.layout"), text: requireKey(keys.text, "readOutKeys.text") };
    // Languages are checked where they are used: a text-layer page's reading needs well-formed
    // names but no model; an OCR page's models are checked by detect and recognize.
    const pageKind = requirePageKind(input.pageKind);
    const req = { sourceKey, outKey, page, ocrMode, pageKind, languages: input.languages, pageImage: input.pageImage, readOutKeys };
    return guarded("internal_error", "Preprocessing the page failed", () => preprocessPage(this.env, req));
  }

  /** Draws a text-layer page left as a blank canvas by `preprocess` (page/preprocess.ts). */
  async drawPage(input: DrawPageInput): Promise<DrawPageResult> {
    const sourceKey = requireKey(input?.sourceKey, "sourceKey");
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const page = requirePage(input?.page);
    return guarded("rasterizer_unavailable", "Drawing the page failed", () => drawPendingPage(this.env, sourceKey, page, pageKey));
  }

  /** A page image's record (path, transform, text layer), read before any work on the page. */
  private meta(pageKey: string): Promise<PageMeta> {
    return guarded("internal_error", "Reading the page image failed", () => readPageMeta(this.env.FILES, pageKey));
  }

  /** Layout analysis of a page image (page/read.ts). */
  async detect(input: DetectInput): Promise<DetectResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const languages = input?.languages === undefined ? undefined : await requireLanguages(this.env.MODELS, input.languages);
    const most = input.split === undefined ? undefined : requireCount(input.split, "split");
    const bandTexts = input.bandTexts?.map((k, i) => requireKey(k, `bandTexts[${i}]`));
    if (bandTexts?.length === 0) throw engineError("validation_error", "bandTexts must list at least one band reading.");
    if ((most !== undefined || bandTexts) && !languages) throw engineError("validation_error", "split and bandTexts need languages.");
    const pictureLanguages =
      input.pictureLanguages === undefined ? undefined : await requireLanguages(this.env.MODELS, input.pictureLanguages);
    const meta = await this.meta(pageKey);
    return guarded("ocr_failed", "Layout analysis failed", () =>
      detectPage(this.env, pageKey, meta, outKey, languages, { most, bandTexts }, pictureLanguages),
    );
  }

  /** A page's text, recognised or from its text layer (page/read.ts). */
  async recognize(input: RecognizeInput): Promise<RecognizeResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const languages = await requireLanguages(this.env.MODELS, input?.languages);
    const band = input.band && requireBand(input.band);
    const meta = await this.meta(pageKey);
    return guarded("ocr_failed", "Recognition failed", () =>
      band ? recognizeBand(this.env, pageKey, meta, outKey, languages, band) : recognizePage(this.env, pageKey, meta, outKey, languages),
    );
  }

  /** A page's tables and their cells' text (page/tables.ts). */
  async extractTables(input: ExtractTablesInput): Promise<ExtractTablesResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const textOutKey = input?.textOutKey === undefined ? undefined : requireKey(input.textOutKey, "textOutKey");
    const languages = await requireLanguages(this.env.MODELS, input?.languages);
    const meta = await this.meta(pageKey);
    return guarded("ocr_failed", "Table extraction failed", () => extractTables(this.env, pageKey, meta, outKey, textOutKey, languages));
  }

  /** One rectangle read again from the original upload at full resolution (page/reocr.ts). */
  async reocr(input: ReocrInput): Promise<ReocrResult> {
    const sourceKey = requireKey(input?.sourceKey, "sourceKey");
    const page = requirePage(input?.page);
    const languages = await requireLanguages(this.env.MODELS, input?.languages);
    const pageKey = input?.pageKey ? requireKey(input.pageKey, "pageKey") : undefined;
    const meta = pageKey ? await this.meta(pageKey) : null;
    return guarded("ocr_failed", "Re-recognition failed", () => reocrPage(this.env, sourceKey, page, meta, pageKey, input.box, languages));
  }

  /**
   * Builds export files from an `ExportDocument` (documentKey: pages with images, edited regions,
   * tables) or from recognition output (pageTextKeys): text, layout XML, office, PDF, images, ZIP.
   */
  async buildExports(input: BuildExportsInput): Promise<BuiltExport[]> {
    const documentKey = input?.documentKey === undefined ? undefined : requireKey(input.documentKey, "documentKey");
    const keys = input?.pageTextKeys;
    if (!documentKey) {
      if (!Array.isArray(keys) || keys.length === 0)
        throw engineError("validation_error", "pageTextKeys must list at least one page (or give documentKey).");
      keys.forEach((k, i) => requireKey(k, `pageTextKeys[${i}]`));
    }
    const formats = input?.formats;
    if (!Array.isArray(formats) || formats.length === 0)
      throw engineError("validation_error", "formats must list at least one export format.");
    for (const f of formats)
      if (!isExportFormat(String(f))) throw engineError("validation_error", `Unknown export format ${JSON.stringify(f)}.`);
    const content = input.content ?? "source";
    if (content !== "source" && content !== "translation") throw engineError("validation_error", "content must be source or translation.");
    const outPrefix = typeof input.outPrefix === "string" ? input.outPrefix : "";
    const baseName = input.baseName;
    if (typeof baseName !== "string" || !/^[^/\\\x00-\x1f]{1,200}$/.test(baseName) || baseName === "." || baseName === "..") {
      throw engineError("validation_error", "baseName must be a file name without slashes.");
    }
    return guarded("internal_error", "Building exports failed", async () => {
      const doc = await loadDocument(this.env.FILES, { documentKey, pageTextKeys: keys }, baseName);
      return buildAll(this.env.FILES, doc, formats, content, outPrefix, baseName);
    });
  }

  /**
   * Removes the text of a page's regions: glyph masks filled from the surrounding background,
   * written as mask and clean plate; then re-reads each cleaned region to flag leftover text.
   */
  async inpaint(input: InpaintInput): Promise<InpaintResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    requireKey(input?.maskKey, "maskKey");
    requireKey(input?.cleanKey, "cleanKey");
    if (input.sourceKey !== undefined) requireKey(input.sourceKey, "sourceKey");
    if (!Array.isArray(input.regions)) throw engineError("validation_error", "regions must be an array of boxes.");
    const regions = input.regions.map((r, i) => ({
      ...r,
      box: requireBox(r?.box, `regions[${i}].box`),
      lines: Array.isArray(r?.lines) ? r.lines.map((l, j) => requireBox(l, `regions[${i}].lines[${j}]`)) : undefined,
    }));
    return guarded("internal_error", "Removing the text failed", () => inpaintPage(this.env, { ...input, pageKey, regions }));
  }

  /** Draws each region's text (fitted, wrapped, aligned, coloured) onto a background; reports overflow per region. */
  async typeset(input: TypesetInput): Promise<TypesetResult> {
    const backgroundKey = requireKey(input?.backgroundKey, "backgroundKey");
    const outKey = requireKey(input?.outKey, "outKey");
    if (!Array.isArray(input.regions)) throw engineError("validation_error", "regions must be an array.");
    const regions = input.regions.map((r, i) => ({ ...r, text: String(r?.text ?? ""), box: requireBox(r?.box, `regions[${i}].box`) }));
    return guarded("internal_error", "Typesetting failed", () => typesetPage(this.env, { ...input, backgroundKey, outKey, regions }));
  }
}
