/**
 * Closed value sets stored in text columns. The database does not enforce them with CHECK
 * constraints (adding a value would need a table rebuild in SQLite); drizzle types every
 * column with them, and the API validates input against the same arrays.
 */

import { EXPORT_FORMATS as ENGINE_EXPORT_FORMATS } from "../../../workers/shared/engine-contract";

export const TOOLS = ["ocr", "translate", "tables", "erase"] as const;
export type Tool = (typeof TOOLS)[number];

/** Pipeline stages after `queued`; `jobs.stage` holds the one running (a subset of the states). */
export const JOB_STAGES = ["preprocessing", "detecting", "recognizing", "translating", "inpainting", "rendering", "exporting"] as const;
export type JobStage = (typeof JOB_STAGES)[number];

/** Terminal job states: a job in one of them is finished (ARCHITECTURE §2). */
export const TERMINAL_JOB_STATUSES = ["completed", "partially_completed", "failed", "cancelled"] as const;

/** Job states in the order the interface lists them: before the pipeline, its stages, then the terminal states. */
export const JOB_STATUSES = ["created", "uploading", "queued", ...JOB_STAGES, ...TERMINAL_JOB_STATUSES] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** single: one upload; batch: parent of one child job per file; rerender: free redraw of a project. */
export const JOB_KINDS = ["single", "batch", "rerender"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_PAGE_STATUSES = ["pending", "processing", "completed", "failed", "cancelled"] as const;
export type JobPageStatus = (typeof JOB_PAGE_STATUSES)[number];

/** processing: its first job runs; ready: results can be edited/exported; failed: no usable page. */
export const PROJECT_STATUSES = ["processing", "ready", "partial", "failed"] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const PAGE_STATUSES = ["pending", "processing", "ready", "failed"] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

/** How the text of a page was obtained: PDF text layer, OCR of an image, or OCR of a rasterised vector page. */
export const PAGE_PATHS = ["text_layer", "ocr", "rasterized", "picture"] as const;
export type PagePath = (typeof PAGE_PATHS)[number];

export const REGION_KINDS = [
  "text",
  "heading",
  "paragraph",
  "caption",
  "list",
  "footnote",
  "header",
  "footer",
  "page_number",
  "bubble",
  "sfx",
  "other",
] as const;
export type RegionKind = (typeof REGION_KINDS)[number];

/** Result of typesetting a translation into its box; null until rendered. */
export const REGION_OVERFLOWS = ["fitted", "shrunk", "overflowing"] as const;
export type RegionOverflow = (typeof REGION_OVERFLOWS)[number];

/** Export formats: the engine's (it builds them; see its contract), and html, which the api stores but the engine does not build. */
export const EXPORT_FORMATS = [...ENGINE_EXPORT_FORMATS, "html"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_STATUSES = ["pending", "processing", "ready", "failed", "expired"] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const AUTH_TOKEN_PURPOSES = [
  "magic_link",
  "verify_email",
  "reset_password",
  "oauth_state",
  "two_factor_challenge",
  "recovery_code",
] as const;
export type AuthTokenPurpose = (typeof AUTH_TOKEN_PURPOSES)[number];

export const AUTH_METHODS = ["password", "magic_link", "oauth", "reset_password", "register"] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/**
 * Ledger entry kinds. `amount` changes the balance, `reserved_delta` changes the reservation:
 * grant/purchase/subscription/refund: amount > 0; hold: reserved_delta > 0 (amount 0);
 * release: reserved_delta < 0 (amount 0); charge: amount < 0 (with reserved_delta < 0 when it
 * consumes a hold); adjustment: either sign.
 */
export const LEDGER_KINDS = ["grant", "purchase", "hold", "release", "charge", "refund", "adjustment", "subscription"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const PAYMENT_PROVIDERS = ["stripe", "sandbox"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_KINDS = ["credits", "subscription"] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export const PAYMENT_STATUSES = ["pending", "completed", "failed", "cancelled", "expired", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ["incomplete", "trialing", "active", "past_due", "cancelled", "expired"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed", "dead"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const IDEMPOTENCY_STATUSES = ["in_flight", "done"] as const;
export type IdempotencyStatus = (typeof IDEMPOTENCY_STATUSES)[number];

export const COMPONENT_STATUSES = ["operational", "degraded", "partial_outage", "major_outage", "maintenance"] as const;
export type ComponentStatus = (typeof COMPONENT_STATUSES)[number];
