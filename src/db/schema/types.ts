/**
 * Shapes of the JSON columns. They are deliberately open (extra keys allowed) so the API layer's
 * zod schemas stay the source of truth for validation; these only type what the code reads.
 */

/** `jobs.options`: the validated processing options of the request (tool, languages, formats, …). */
export interface JobOptions {
  tool?: string;
  source_language?: string | null;
  target_language?: string | null;
  export_formats?: string[];
  glossary_id?: string | null;
  [key: string]: unknown;
}

/** The public error object (`error.code`, `message`, `retryable`, `details`). */
export interface StoredError {
  code: string;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

/** One result file of a job, as listed in `output.exports`. */
export interface OutputExport {
  export_id?: string;
  format: string;
  key?: string;
  bytes?: number;
  content_type?: string;
  filename?: string;
  [key: string]: unknown;
}

/** `jobs.output`. */
export interface JobOutput {
  exports: OutputExport[];
  project_id?: string | null;
  [key: string]: unknown;
}

/** `job_pages.keys`: R2 keys produced for one page, by artefact (image, mask, clean, render, …). */
export type JobPageKeys = Record<string, string>;

/** `job_events.data`: event-specific payload. */
export type JobEventData = Record<string, unknown>;

/** `regions.style`: typesetting of the translation. */
export interface RegionStyle {
  font_family?: string;
  font_size?: number;
  font_weight?: number | string;
  italic?: boolean;
  color?: string;
  background?: string | null;
  align?: "left" | "center" | "right" | "justify";
  line_height?: number;
  angle?: number;
  [key: string]: unknown;
}

/** `regions.lines`: recognised lines and words inside a region (hOCR, ALTO, searchable PDF). */
export interface RegionLine {
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
  confidence?: number;
  words?: { x: number; y: number; w: number; h: number; text: string; confidence?: number }[];
}

/** `webhook_deliveries.payload`: the exact JSON body sent (signed as its serialisation). */
export type WebhookPayload = Record<string, unknown>;

/** `auth_tokens.data`: purpose-specific state (oauth PKCE verifier and redirect, 2FA session id, …). */
export type AuthTokenData = Record<string, unknown>;

/** `payment_events.payload` and other provider objects kept for audit. */
export type ProviderPayload = Record<string, unknown>;
