/**
 * The one error catalogue: every failure the API answers carries one of these codes,
 * with the HTTP status and retryable flag fixed here and nowhere else.
 */
export const ERROR_CATALOGUE = {
  bad_request: { status: 400, retryable: false, description: "The request is malformed." },
  invalid_json: { status: 400, retryable: false, description: "The body is not valid JSON." },
  invalid_token: { status: 400, retryable: false, description: "The link or token is unknown or was already used." },
  invalid_two_factor_code: {
    status: 400,
    retryable: false,
    description: "The two-factor or recovery code is wrong, outside its time window, or already used.",
  },
  oauth_failed: {
    status: 400,
    retryable: false,
    description: "Sign-in with the identity provider failed; details.reason says which check refused it (state, code, id_token, email).",
  },
  invalid_signature: {
    status: 400,
    retryable: false,
    description: "A signed request (payment provider webhook) carries a missing, wrong or stale signature.",
  },
  unauthorized: { status: 401, retryable: false, description: "No valid credentials were sent." },
  invalid_api_key: { status: 401, retryable: false, description: "The API key is unknown, revoked or expired." },
  share_password_required: {
    status: 401,
    retryable: false,
    description: "The share link is password-protected; send the password as the `password` query parameter.",
  },
  invalid_credentials: { status: 401, retryable: false, description: "The email or password is wrong." },
  two_factor_required: {
    status: 401,
    retryable: false,
    description: "Sign-in waits for the two-factor code (POST /api/v1/auth/2fa/verify); the pending session grants nothing else.",
  },
  insufficient_credits: { status: 402, retryable: false, description: "The wallet does not hold enough credits for the job." },
  page_limit_exceeded: {
    status: 402,
    retryable: false,
    description: "The document has more pages than the plan allows; details: pages, limit, plan.",
  },
  forbidden: { status: 403, retryable: false, description: "The credentials do not allow this operation." },
  share_password_invalid: { status: 403, retryable: false, description: "The password sent for the share link is wrong." },
  csrf_failed: { status: 403, retryable: false, description: "A cookie-authenticated unsafe request lacked a valid CSRF token." },
  not_found: { status: 404, retryable: false, description: "The resource does not exist or belongs to another account." },
  route_not_found: { status: 404, retryable: false, description: "No route matches the path." },
  method_not_allowed: { status: 405, retryable: false, description: "The path exists but not with this method." },
  conflict: { status: 409, retryable: false, description: "The resource is in a state that does not allow the operation." },
  email_taken: { status: 409, retryable: false, description: "An account with this email already exists." },
  invalid_transition: { status: 409, retryable: false, description: "The job cannot move to the requested state from its current one." },
  idempotency_key_reused: { status: 409, retryable: false, description: "The Idempotency-Key was used before with a different request." },
  idempotency_in_flight: { status: 409, retryable: true, description: "A request with this Idempotency-Key is still being processed." },
  link_expired: { status: 410, retryable: false, description: "The link or token has expired or was revoked." },
  payload_too_large: { status: 413, retryable: false, description: "The upload or body exceeds the size limit." },
  image_too_large: {
    status: 413,
    retryable: false,
    description: "The image's pixel dimensions exceed the limit (decompression-bomb guard).",
  },
  unsupported_media_type: {
    status: 415,
    retryable: false,
    description:
      "The file's content is not a supported format (sniffed from its bytes), or the body's Content-Type is not one the operation accepts (JSON bodies are UTF-8).",
  },
  validation_error: {
    status: 422,
    retryable: false,
    description: "The request failed validation; details.fields lists each failing field.",
  },
  corrupt_file: { status: 422, retryable: false, description: "The file is truncated or corrupt." },
  encrypted_document: {
    status: 422,
    retryable: false,
    description: "The PDF is protected by a password; remove the protection (save or print it without a password) and upload it again.",
  },
  empty_page_image: {
    status: 422,
    retryable: false,
    description:
      "A page came out blank although the document draws an image or text on it (its content could not be decoded); the page fails and is not charged.",
  },
  no_text_found: {
    status: 422,
    retryable: false,
    description:
      "Recognition found no text on a page that holds ink (a picture, handwriting, or a script other than the requested languages); the page fails and is not charged.",
  },
  unsupported_language: { status: 422, retryable: false, description: "No configured provider serves this language." },
  unsupported_language_pair: { status: 422, retryable: false, description: "No configured translator serves this language pair." },
  rate_limited: { status: 429, retryable: true, description: "Too many requests; see the Retry-After header." },
  internal_error: { status: 500, retryable: true, description: "An unexpected error; the request id identifies it in the logs." },
  stage_unavailable: { status: 501, retryable: false, description: "A pipeline stage of this tool is not available in this deployment." },
  ocr_failed: { status: 500, retryable: true, description: "Recognition failed on a page." },
  rasterizer_unavailable: {
    status: 503,
    retryable: true,
    description: "A vector-only PDF page needs Browser Rendering, which cannot be reached right now.",
  },
  provider_unavailable: {
    status: 503,
    retryable: true,
    description: "A translation or payment provider cannot serve the request right now.",
  },
  engine_unavailable: { status: 503, retryable: true, description: "The processing engine cannot be reached." },
  service_unavailable: { status: 503, retryable: true, description: "A dependency the service needs is down." },
} as const satisfies Record<string, { status: number; retryable: boolean; description: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}

/** A failure with a catalogued code; `onError` turns it into the envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { details?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = opts.details ?? {};
    this.headers = opts.headers ?? {};
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }
}

export interface ErrorBody {
  error: { code: string; message: string; retryable: boolean; details: Record<string, unknown>; request_id: string };
}

export function errorBody(code: ErrorCode, message: string, requestId: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, retryable: ERROR_CATALOGUE[code].retryable, details, request_id: requestId } };
}
