/**
 * The engine's RPC contract, shared by the engine Worker and the api Worker.
 * Payloads stay small: R2 keys, boxes, text and counts, never page bitmaps.
 */

/** Input formats recognised by their magic bytes. */
export type InputFormat = "png" | "jpeg" | "webp" | "gif" | "bmp" | "tiff" | "pdf";

/** Axis-aligned box in page pixel coordinates of the normalised page image. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface InspectInput {
  /** R2 FILES key of the uploaded file. */
  sourceKey: string;
}

export interface InspectResult {
  format: InputFormat;
  pages: number;
  bytes: number;
}

export interface PreprocessInput {
  sourceKey: string;
  /** Zero-based page index inside the source document. */
  page: number;
  /** R2 FILES key where the normalised page image (PNG) is written. */
  outKey: string;
}

export interface PreprocessResult {
  key: string;
  width: number;
  height: number;
  /** Clockwise rotation applied to make text upright. */
  rotation: 0 | 90 | 180 | 270;
}

export interface DetectInput {
  /** R2 FILES key of the normalised page image. */
  pageKey: string;
  /** R2 FILES key where the layout (JSON `PageLayout`) is written. */
  outKey: string;
}

export interface DetectResult {
  key: string;
  regions: number;
  lines: number;
}

/** Layout found by detection: text blocks with their line boxes, in reading order. */
export interface PageLayout {
  width: number;
  height: number;
  blocks: { box: Box; lines: Box[] }[];
}

export interface RecognizeInput {
  pageKey: string;
  /** Tesseract language codes, e.g. ["eng"]; each must be seeded in R2 MODELS. */
  languages: string[];
  /** R2 FILES key where the result (JSON `PageText`) is written. */
  outKey: string;
}

export interface RecognizeResult {
  key: string;
  regions: number;
  words: number;
  chars: number;
  /** Mean word confidence, 0..1. */
  confidence: number;
}

export interface WordText {
  box: Box;
  text: string;
  confidence: number;
}

export interface LineText {
  box: Box;
  text: string;
  confidence: number;
  words: WordText[];
}

export interface RegionText {
  box: Box;
  text: string;
  confidence: number;
  lines: LineText[];
}

/** Recognised text of one page, regions in reading order. */
export interface PageText {
  width: number;
  height: number;
  languages: string[];
  text: string;
  confidence: number;
  regions: RegionText[];
}

export type ExportFormat = "txt" | "json";

export interface BuildExportsInput {
  /** R2 FILES keys of each page's `PageText`, in page order. */
  pageTextKeys: string[];
  formats: ExportFormat[];
  /** R2 FILES key prefix for the files written, e.g. `exports/<job_id>/`. */
  outPrefix: string;
  /** Base name for the files, without extension. */
  baseName: string;
}

export interface BuiltExport {
  format: ExportFormat;
  key: string;
  bytes: number;
  contentType: string;
}

export interface EngineHealth {
  ok: boolean;
  ocrLanguages: string[];
  fonts: string[];
}

/**
 * Errors cross the RPC boundary as plain `Error`s whose message starts with `[code]`;
 * `parseEngineError` recovers the code on the api side.
 */
export function engineErrorMessage(code: string, message: string): string {
  return `[${code}] ${message}`;
}

export function parseEngineError(err: unknown): { code: string; message: string } | null {
  const msg = err instanceof Error ? err.message : String(err);
  const m = /\[([a-z_]+)\] ([\s\S]*)$/.exec(msg);
  return m ? { code: m[1]!, message: m[2]! } : null;
}
