import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError, errorBody, type ErrorCode, ERROR_CATALOGUE } from "./errors";
import { log } from "../lib/log";

function respond(
  c: Context<AppEnv>,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const requestId = c.get("requestId");
  return c.json(errorBody(code, message, requestId, details), ERROR_CATALOGUE[code].status as 400, {
    ...headers,
    "X-Request-Id": requestId,
  });
}

/** Logs an error nothing catalogued: its stack with the request id (the answer never carries it). */
export function logUnexpected(c: Context<AppEnv>, err: unknown): void {
  log.error("unhandled error", { request_id: c.get("requestId"), path: c.req.path, error: err });
}

/** The single place where failures become the error envelope. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) return respond(c, err.code, err.message, err.details, err.headers);
  if (err instanceof HTTPException) {
    if (err.status === 400 && /JSON/i.test(err.message)) return respond(c, "invalid_json", "The request body is not valid JSON.");
    if (err.status === 400) return respond(c, "bad_request", err.message || "The request is malformed.");
    if (err.status === 413) return respond(c, "payload_too_large", err.message || "The request body is too large.");
    if (err.status === 415)
      return respond(c, "unsupported_media_type", "The body's Content-Type is not one this operation accepts (see the OpenAPI document).");
  }
  logUnexpected(c, err);
  return respond(c, "internal_error", "An unexpected error occurred. Quote the request id when reporting it.");
};

/** Compiles a route path such as `/api/v1/jobs/:job_id` to a matcher. */
function pathMatcher(path: string): RegExp {
  const src = path
    .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
    .replace(/:[A-Za-z0-9_]+/g, "[^/]+")
    .replace(/\*/g, ".*");
  return new RegExp(`^${src}/?$`);
}

/** Unknown paths are 404 `route_not_found`; known paths with another method are 405 with `Allow`. */
export function notFound(routes: () => { method: string; path: string }[]): NotFoundHandler<AppEnv> {
  let compiled: { method: string; re: RegExp }[] | undefined;
  return (c) => {
    compiled ??= routes()
      .filter((r) => r.method !== "ALL")
      .map((r) => ({ method: r.method, re: pathMatcher(r.path) }));
    const allowed = [...new Set(compiled.filter((r) => r.re.test(c.req.path)).map((r) => r.method))];
    if (allowed.length > 0) {
      return respond(
        c,
        "method_not_allowed",
        `${c.req.method} is not allowed on ${c.req.path}.`,
        { allowed },
        { Allow: allowed.join(", ") },
      );
    }
    return respond(c, "route_not_found", `No route for ${c.req.method} ${c.req.path}.`);
  };
}
