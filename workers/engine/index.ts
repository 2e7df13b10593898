import { WorkerEntrypoint } from "cloudflare:workers";
import type {
  BuildExportsInput,
  BuiltExport,
  DetectInput,
  DetectResult,
  EngineHealth,
  InspectInput,
  InspectResult,
  PageText,
  PreprocessInput,
  PreprocessResult,
  RecognizeInput,
  RecognizeResult,
} from "./contract";
import type { EngineEnv } from "./env";
import { engineError, guarded } from "./errors";
import { isTextExportFormat, writeTextExport } from "./exports/text-exports";
import { probeRaster } from "./image/headers";
import { normalisePage } from "./image/preprocess";
import { sniffFormat } from "./image/sniff";
import { detectLayout } from "./layout/detect";
import { requireLanguages, seededFonts, seededLanguages } from "./ocr/models";
import { loadOcrRaster } from "./ocr/page-raster";
import { countChars, countWords } from "./ocr/page-text";
import { recognizePage } from "./ocr/recognize";
import { pdfPageCount } from "./pdf/pages";
import { readBytes, readJson, writeJson, writeObject } from "./storage/r2";

function requireKey(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 1024) {
    throw engineError("validation_error", `${field} must be a non-empty R2 key.`);
  }
  return value;
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
      if (!format) throw engineError("unsupported_media_type", "The file is not a PNG, JPEG, WebP, GIF, BMP, TIFF or PDF (judged from its bytes).");
      const pages = format === "pdf" ? await pdfPageCount(bytes) : probeRaster(bytes, format).pages;
      return { format, pages, bytes: bytes.length };
    });
  }

  /** Decodes one page, grayscales it, fits it within 3508 px and stores it as PNG at outKey. */
  async preprocess(input: PreprocessInput): Promise<PreprocessResult> {
    const sourceKey = requireKey(input?.sourceKey, "sourceKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const page = input?.page;
    if (!Number.isInteger(page) || page < 0) throw engineError("validation_error", "page must be a zero-based page index.");
    return guarded("internal_error", "Preprocessing the page failed", async () => {
      const bytes = await readBytes(this.env.FILES, sourceKey);
      const format = sniffFormat(bytes);
      if (!format) throw engineError("unsupported_media_type", "The file is not an image or PDF the engine reads.");
      const out = await normalisePage(bytes, format, page);
      await writeObject(this.env.FILES, outKey, out.png, "image/png");
      return { key: outKey, width: out.image.width, height: out.image.height, rotation: out.rotation };
    });
  }

  /** Layout analysis: text blocks and their lines, written as `PageLayout` JSON. */
  async detect(input: DetectInput): Promise<DetectResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const raster = await guarded("internal_error", "Reading the page image failed", () => loadOcrRaster(this.env.FILES, pageKey));
    return guarded("ocr_failed", "Layout analysis failed", async () => {
      const seeded = await seededLanguages(this.env.MODELS);
      const fallback = seeded.includes("eng") ? "eng" : seeded[0];
      if (!fallback) throw engineError("unsupported_language", "No OCR model is installed.");
      const layout = await detectLayout(this.env.MODELS, raster, fallback);
      await writeJson(this.env.FILES, outKey, layout);
      return { key: outKey, regions: layout.blocks.length, lines: layout.blocks.reduce((n, b) => n + b.lines.length, 0) };
    });
  }

  /** Recognises a page's text, written as `PageText` JSON. */
  async recognize(input: RecognizeInput): Promise<RecognizeResult> {
    const pageKey = requireKey(input?.pageKey, "pageKey");
    const outKey = requireKey(input?.outKey, "outKey");
    const languages = await requireLanguages(this.env.MODELS, input?.languages);
    const raster = await guarded("internal_error", "Reading the page image failed", () => loadOcrRaster(this.env.FILES, pageKey));
    return guarded("ocr_failed", "Recognition failed", async () => {
      const page = await recognizePage(this.env.MODELS, raster, languages);
      await writeJson(this.env.FILES, outKey, page);
      return { key: outKey, regions: page.regions.length, words: countWords(page), chars: countChars(page), confidence: page.confidence };
    });
  }

  /** Builds the text exports (txt, json) of a document from its pages' `PageText`. */
  async buildExports(input: BuildExportsInput): Promise<BuiltExport[]> {
    const keys = input?.pageTextKeys;
    if (!Array.isArray(keys) || keys.length === 0) throw engineError("validation_error", "pageTextKeys must list at least one page.");
    keys.forEach((k, i) => requireKey(k, `pageTextKeys[${i}]`));
    const formats = input?.formats;
    if (!Array.isArray(formats) || formats.length === 0) throw engineError("validation_error", "formats must list at least one export format.");
    for (const f of formats) if (!isTextExportFormat(String(f))) throw engineError("validation_error", `Unknown export format ${JSON.stringify(f)}.`);
    const outPrefix = typeof input.outPrefix === "string" ? input.outPrefix : "";
    const baseName = input.baseName;
    if (typeof baseName !== "string" || !/^[^/\\\x00-\x1f]{1,200}$/.test(baseName) || baseName === "." || baseName === "..") {
      throw engineError("validation_error", "baseName must be a file name without slashes.");
    }
    return guarded("internal_error", "Building exports failed", async () => {
      const pages: PageText[] = [];
      for (const key of keys) pages.push(await readJson<PageText>(this.env.FILES, key, "page text"));
      const built: BuiltExport[] = [];
      for (const format of new Set(formats)) built.push(await writeTextExport(this.env.FILES, pages, format, outPrefix, baseName));
      return built;
    });
  }
}
