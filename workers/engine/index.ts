import { WorkerEntrypoint } from "cloudflare:workers";
import type {
  Box,
  BuildExportsInput,
  BuiltExport,
  DetectInput,
  DetectResult,
  EngineHealth,
  ExtractTablesInput,
  ExtractTablesResult,
  InpaintInput,
  InpaintResult,
  InspectInput,
  InspectResult,
  OcrMode,
  PageText,
  PreprocessInput,
  PreprocessResult,
  RecognizeInput,
  RecognizeResult,
  ReocrInput,
  ReocrResult,
  TypesetInput,
  TypesetResult,
} from "./contract";
import type { EngineEnv } from "./env";
import { engineError, guarded } from "./errors";
import { buildAll, isExportFormat } from "./exports/build";
import { loadDocument } from "./exports/document";
import { inpaintPage } from "./inpaint/inpaint-page";
import { typesetPage } from "./typeset/typeset-page";
import { probeRaster } from "./image/headers";
import { canHoldText, inkFraction, TEXT_INK_FROM } from "./image/ink";
import { normalisePage, normaliseSource } from "./image/preprocess";
import { encodeGrayPng } from "./image/png";
import { sniffFormat } from "./image/sniff";
import { loadSourcePage } from "./image/source-page";
import { detectLayout, layoutOfText } from "./layout/detect";
import { extractPageTables } from "./layout/tables";
import { autoOrTrialLanguage, resolveLanguages, trialLanguage } from "./ocr/languages";
import { requireLanguages, seededFonts, seededLanguages } from "./ocr/models";
import { loadPageGray, ocrRasterFromGray } from "./ocr/page-raster";
import { countChars, countWords } from "./ocr/page-text";
import { mergeTextLayer } from "./ocr/merge-layer";
import { recognizeWith } from "./ocr/recognize";
import { largestHeap } from "./ocr/tesseract";
import { clampBox, normalisedSize, reocrRect, textLayerIn } from "./ocr/reocr";
import { pdfPageCount } from "./pdf/pages";
import { keptReading, pageMetadata, readingKeyFor, readPageMeta, readTextLayer, textLayerKeyFor, type KeptReading, type PageMeta } from "./storage/page-meta";
import { readBytes, writeJson, writeObject } from "./storage/r2";

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

function requireOcrMode(mode: unknown): OcrMode {
  if (mode === undefined) return "auto";
  if (mode === "auto" || mode === "force" || mode === "redo") return mode;
  throw engineError("validation_error", "ocrMode must be auto, force or redo.");
}

/** The engine's RPC surface, reached through the api Worker's `ENGINE` service binding. */
export default class Engine extends WorkerEntrypoint<EngineEnv> {
  override async fetch(): Promise<Response> {
    return Response.json({ error: { code: "not_found", message: "The engine is reached over RPC only.", retryable: false, details: {} } }, { status: 404 });
  }

  /** Seeded OCR languages and fonts; ok when at least one language can be recognised. */
  async health(): Promise<EngineHealth> {
    return guarded("internal_error", "Listing models failed", async () => {
      const [ocrLanguages, fonts] = await Promise.all([seededLanguages(this.env.MODELS), seededFonts(this.env.MODELS)]);
      return { ok: ocrLanguages.length > 0, ocrLanguages, fonts };
    });
  }

  /** Sniffs an upload's format from its bytes and counts its pages, without decoding pixels. */
  async inspect(input: InspectInput): Promise<InspectResult> {
    const sourceKey = requireKey(input?.sourceKey, "sourceKey");
    return guarded("internal_error", "Inspecting the file failed", async () => {
      const bytes = await readBytes(this.env.FILES, sourceKey);
      if (bytes.length === 0) throw engineError("unsupported_media_type", "The file is empty.");
      const format = sniffFormat(bytes);
      if (!format) throw engineError("unsupported_media_type", "The file is not a PNG, JPEG, WebP, GIF, BMP, TIFF, PBM/PGM/PPM or PDF (judged from its bytes).");
      const pages = format === "pdf" ? await pdfPageCount(bytes) : probeRaster(bytes, format).pages;
      return { format, pages, bytes: bytes.length };
    });
  }

  /** Reads a source file and sniffs it; unreadable formats are `[unsupported_media_type]`. */
  private async source(sourceKey: string) {
    const bytes = await readBytes(this.env.FILES, sourceKey);
    const format = sniffFormat(bytes);
    if (!format) throw engineError("unsupported_media_type", "The file is not an image or PDF the engine reads.");
    return { bytes, format };
  }

  /**
   * Reads one page (raster decode, PDF text layer / scan / rendering), turns it upright, deskews
   * it, normalises contrast, fits it within 3508 px and stores it as PNG at outKey. The page's
   * path and transform travel with the image (R2 metadata); a text layer is stored beside it.
   */
  async preprocess(input: PreprocessInput): Promise<PreprocessResult> {
    const sourceKey = requireKey(input?.sourceKey, "sourceKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const page = requirePage(input?.page);
    return guarded("internal_error", "Preprocessing the page failed", async () => {
      const { bytes, format } = await this.source(sourceKey);
      const seeded = await seededLanguages(this.env.MODELS);
      const drawLater = input.pageImage === "background";
      const out = await normalisePage(bytes, format, page, { models: this.env.MODELS, browser: this.env.BROWSER, language: autoOrTrialLanguage(input.languages, seeded), pdf: { languages: input.languages, ocrMode: requireOcrMode(input.ocrMode), drawLater } });
      const textLayerKey = out.textLayer ? textLayerKeyFor(outKey) : null;
      if (out.textLayer && textLayerKey) await writeJson(this.env.FILES, textLayerKey, out.textLayer);
      const metadata = pageMetadata(out.path, out.transform, textLayerKey, out.autoLanguage);
      await writeObject(this.env.FILES, outKey, out.png, "image/png", metadata);
      // The page as drawn replaces its blank canvas when ready; the job does not wait for it (its
      // stages read the text layer). A drawing that fails leaves the canvas, as without a browser.
      const draw = out.draw;
      if (draw) {
        const { width, height } = out.image;
        const later = async () => {
          const image = await draw();
          if (image.width === width && image.height === height) await writeObject(this.env.FILES, outKey, await encodeGrayPng(image), "image/png", metadata);
        };
        this.ctx.waitUntil(later().catch(() => {}));
      }
      return {
        key: outKey,
        width: out.image.width,
        height: out.image.height,
        rotation: out.transform.rotation,
        path: out.path,
        skew: out.transform.skew,
        transform: out.transform,
      };
    });
  }

  /** OCR of a normalised page image in `languages` (`auto` resolved on the page). */
  private async read(pageKey: string, meta: PageMeta, languages: string[]): Promise<KeptReading> {
    const gray = await loadPageGray(this.env.FILES, pageKey);
    const langs = await resolveLanguages(this.env.MODELS, languages, gray, meta.autoLanguage);
    const page = { ...(await recognizeWith(this.env.MODELS, ocrRasterFromGray(gray), langs)), path: meta.path };
    return { etag: meta.etag, requested: languages, languages: langs, page };
  }

  /** Layout analysis: blocks → lines → words in reading order, written as `PageLayout` JSON. */
  async detect(input: DetectInput): Promise<DetectResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const languages = input?.languages === undefined ? undefined : await requireLanguages(this.env.MODELS, input.languages);
    const meta = await guarded("internal_error", "Reading the page image failed", () => readPageMeta(this.env.FILES, pageKey));
    return guarded("ocr_failed", "Layout analysis failed", async () => {
      let layout;
      if (meta.path === "text_layer") layout = layoutOfText(await readTextLayer(this.env.FILES, meta));
      else if (languages) {
        // Recognition follows: read the page once, the layout from the reading's own analysis.
        const reading = await this.read(pageKey, meta, languages);
        await writeJson(this.env.FILES, readingKeyFor(pageKey), reading);
        layout = { ...layoutOfText(reading.page), path: meta.path };
      } else {
        const seeded = await seededLanguages(this.env.MODELS);
        if (seeded.length === 0) throw engineError("unsupported_language", "No OCR model is installed.");
        const raster = ocrRasterFromGray(await loadPageGray(this.env.FILES, pageKey));
        layout = { ...(await detectLayout(this.env.MODELS, raster, trialLanguage(undefined, seeded))), path: meta.path };
      }
      await writeJson(this.env.FILES, outKey, layout);
      const lines = layout.blocks.flatMap((b) => b.items);
      return { key: outKey, regions: layout.blocks.length, lines: lines.length, words: lines.reduce((n, l) => n + l.words.length, 0), path: layout.path };
    });
  }

  /**
   * Recognises a page's text (or takes its text layer), written as `PageText` JSON. A page with
   * ink on it where recognition finds nothing fails as `[no_text_found]` rather than passing empty.
   */
  async recognize(input: RecognizeInput): Promise<RecognizeResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const languages = await requireLanguages(this.env.MODELS, input?.languages);
    const meta = await guarded("internal_error", "Reading the page image failed", () => readPageMeta(this.env.FILES, pageKey));
    return guarded("ocr_failed", "Recognition failed", async () => {
      let page: PageText;
      if (meta.path === "text_layer") page = { ...(await readTextLayer(this.env.FILES, meta)), languages };
      else {
        const reading = (await keptReading(this.env.FILES, pageKey, meta, languages)) ?? (await this.read(pageKey, meta, languages));
        const langs = reading.languages;
        page = reading.page;
        // A scan with visible text on it: the layer's exact words join what OCR read.
        if (meta.textLayerKey) page = mergeTextLayer(page, await readTextLayer(this.env.FILES, meta));
        // An icon-sized source cannot hold legible text: nothing read there is an empty page.
        const legible = !meta.transform || canHoldText(meta.transform.sourceWidth, meta.transform.sourceHeight);
        if (countChars(page) === 0 && legible && inkFraction(await loadPageGray(this.env.FILES, pageKey)) >= TEXT_INK_FROM) {
          throw engineError("no_text_found", `No text was recognised on the page, though it holds ink (a picture, handwriting, or text in a language other than ${langs.join("+")}). The page is not charged.`);
        }
      }
      await writeJson(this.env.FILES, outKey, page);
      return {
        key: outKey,
        regions: page.regions.length,
        words: countWords(page),
        chars: countChars(page),
        confidence: page.confidence,
        path: page.path ?? "ocr",
        languages: page.languages,
        heapBytes: meta.path === "text_layer" ? 0 : largestHeap(),
        rotation: (((meta.transform?.sourceRotation ?? 0) + (meta.transform?.rotation ?? 0)) % 360) as RecognizeResult["rotation"],
      };
    });
  }

  /**
   * Tables of a page (ruled, rule-framed and borderless), each cell's text, written as `PageTables`
   * JSON; with `textOutKey`, the page text the tables were read from is written too (`PageText`).
   */
  async extractTables(input: ExtractTablesInput): Promise<ExtractTablesResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const textOutKey = input?.textOutKey === undefined ? undefined : requireKey(input.textOutKey, "textOutKey");
    const languages = await requireLanguages(this.env.MODELS, input?.languages);
    const meta = await guarded("internal_error", "Reading the page image failed", () => readPageMeta(this.env.FILES, pageKey));
    return guarded("ocr_failed", "Table extraction failed", async () => {
      const gray = await loadPageGray(this.env.FILES, pageKey);
      const textLayer = meta.path === "text_layer" ? { ...(await readTextLayer(this.env.FILES, meta)), languages } : null;
      const langs = textLayer ? languages : await resolveLanguages(this.env.MODELS, languages, gray);
      const { tables, text } = await extractPageTables(this.env.MODELS, gray, meta.path, textLayer, langs);
      await writeJson(this.env.FILES, outKey, tables);
      if (textOutKey) await writeJson(this.env.FILES, textOutKey, text);
      return {
        key: outKey,
        tables: tables.tables.length,
        cells: tables.tables.reduce((n, t) => n + t.cells.length, 0),
        ...(textOutKey ? { textKey: textOutKey } : {}),
        regions: text.regions.length,
        path: meta.path,
        languages: text.languages,
      };
    });
  }

  /**
   * Recognises one rectangle (normalised page coordinates) from the original upload at full
   * resolution. Pages read from a text layer answer with the layer's words in the rectangle.
   */
  async reocr(input: ReocrInput): Promise<ReocrResult> {
    const sourceKey = requireKey(input?.sourceKey, "sourceKey");
    const page = requirePage(input?.page);
    const languages = await requireLanguages(this.env.MODELS, input?.languages);
    const meta = input?.pageKey ? await guarded("internal_error", "Reading the page image failed", () => readPageMeta(this.env.FILES, requireKey(input.pageKey, "pageKey"))) : null;
    return guarded("ocr_failed", "Re-recognition failed", async () => {
      if (meta?.path === "text_layer" && meta.transform) {
        const size = normalisedSize(meta.transform);
        return textLayerIn(await readTextLayer(this.env.FILES, meta), clampBox(input.box, size.width, size.height));
      }
      const { bytes, format } = await this.source(sourceKey);
      const source = await loadSourcePage(bytes, format, page, this.env.BROWSER);
      const seeded = await seededLanguages(this.env.MODELS);
      // Without the page image's record, orientation and skew are found again (same result, more work).
      const fresh = meta?.transform ? null : await normaliseSource(source, { models: this.env.MODELS, browser: this.env.BROWSER, language: trialLanguage(languages, seeded) });
      const transform = meta?.transform ?? fresh!.transform;
      const size = normalisedSize(transform);
      const box = clampBox(input.box, size.width, size.height);
      if (fresh?.textLayer && fresh.path === "text_layer") return textLayerIn(fresh.textLayer, box);
      return reocrRect(this.env.MODELS, source, transform, box, languages);
    });
  }

  /**
   * Builds export files from an `ExportDocument` (documentKey: pages with images, edited regions,
   * tables) or from recognition output (pageTextKeys): text, layout XML, office, PDF, images, ZIP.
   */
  async buildExports(input: BuildExportsInput): Promise<BuiltExport[]> {
    const documentKey = input?.documentKey === undefined ? undefined : requireKey(input.documentKey, "documentKey");
    const keys = input?.pageTextKeys;
    if (!documentKey) {
      if (!Array.isArray(keys) || keys.length === 0) throw engineError("validation_error", "pageTextKeys must list at least one page (or give documentKey).");
      keys.forEach((k, i) => requireKey(k, `pageTextKeys[${i}]`));
    }
    const formats = input?.formats;
    if (!Array.isArray(formats) || formats.length === 0) throw engineError("validation_error", "formats must list at least one export format.");
    for (const f of formats) if (!isExportFormat(String(f))) throw engineError("validation_error", `Unknown export format ${JSON.stringify(f)}.`);
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
    const regions = input.regions.map((r, i) => ({ ...r, box: requireBox(r?.box, `regions[${i}].box`), lines: Array.isArray(r?.lines) ? r.lines.map((l, j) => requireBox(l, `regions[${i}].lines[${j}]`)) : undefined }));
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
