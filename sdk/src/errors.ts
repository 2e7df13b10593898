import type { components } from "./schema.js";

/** Every error code the API answers (its error catalogue), plus the client's own. */
export type ApiErrorCode = components["schemas"]["ErrorOut"]["error"]["code"];
export type ClientErrorCode = "network_error" | "invalid_response" | "webhook_signature_invalid";

/**
 * A failed call: the API's error envelope (`code`, `message`, `retryable`, `details`,
 * `request_id`) or a client-side failure (`network_error`: the service could not be reached;
 * `invalid_response`: the answer was not the envelope). Switch on `code`, not on `message`.
 */
export class LingoscanError extends Error {
  readonly code: ApiErrorCode | ClientErrorCode;
  readonly status: number | null;
  readonly retryable: boolean;
  readonly requestId: string | null;
  readonly details: Record<string, unknown>;
  /** Seconds from the Retry-After header, when the API sent one. */
  readonly retryAfter: number | null;

  constructor(init: {
    code: ApiErrorCode | ClientErrorCode;
    message: string;
    status?: number | null;
    retryable: boolean;
    requestId?: string | null;
    details?: Record<string, unknown>;
    retryAfter?: number | null;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "LingoscanError";
    this.code = init.code;
    this.status = init.status ?? null;
    this.retryable = init.retryable;
    this.requestId = init.requestId ?? null;
    this.details = init.details ?? {};
    this.retryAfter = init.retryAfter ?? null;
  }

  /** The same fields under the API's names (for logs and `--json` output). */
  toJSON() {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      retryable: this.retryable,
      request_id: this.requestId,
      details: this.details,
    };
  }
}

type Envelope = components["schemas"]["ErrorOut"];

function isEnvelope(body: unknown): body is Envelope {
  const e = (body as Envelope | null)?.error;
  return typeof e === "object" && e !== null && typeof e.code === "string" && typeof e.retryable === "boolean";
}

/** The error for a non-2xx answer: the envelope when there is one, else a client error naming the status. */
export async function errorFromResponse(res: Response): Promise<LingoscanError> {
  const retryAfterHeader = Number(res.headers.get("Retry-After"));
  const retryAfter = Number.isFinite(retryAfterHeader) && res.headers.has("Retry-After") ? retryAfterHeader : null;
  const text = await res.text().catch(() => "");
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: reported below
  }
  if (isEnvelope(body)) {
    const e = body.error;
    return new LingoscanError({
      code: e.code,
      message: e.message,
      status: res.status,
      retryable: e.retryable,
      requestId: e.request_id,
      details: e.details,
      retryAfter,
    });
  }
  return new LingoscanError({
    code: "invalid_response",
    message: `HTTP ${res.status} without the error envelope: ${text.slice(0, 200)}`,
    status: res.status,
    // A proxy's 502/503/504 in front of the service is worth another try.
    retryable: res.status === 429 || res.status >= 502,
    requestId: res.headers.get("X-Request-Id"),
    retryAfter,
  });
}
