import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { newId } from "../lib/ids";
import { log, tracing } from "../lib/log";

/**
 * Gives every request a `req_…` id, echoed in `X-Request-Id` and in every error body, and logs
 * one line per API request: request id, user id, method, path, status and duration (deployed
 * environments only: locally wrangler prints its own request lines).
 */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = newId("req");
  c.set("requestId", id);
  const started = Date.now();
  await next();
  c.res.headers.set("X-Request-Id", id);
  if (tracing(c.env) && c.req.path.startsWith("/api/")) {
    log.info("request", {
      request_id: id,
      user_id: c.get("auth")?.userId ?? null,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Date.now() - started,
    });
  }
};
