import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { sha256Hex } from "../lib/crypto";
import { LIMITS } from "../lib/limits";
import { ApiError } from "./errors";
import { rowsWritten } from "../db/written";

/** An in-flight claim older than this is taken to belong to a request that died; a repeat may take it over. */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * What makes two requests "the same": method, path, query and the body's content. Multipart bodies
 * are compared by their fields (name, value, file name, size and SHA-256), not their bytes, since
 * every client picks a fresh boundary.
 */
async function fingerprint(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const query = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`);
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  const parts = [c.req.method, url.pathname, query.join("&"), type];
  if (type === "multipart/form-data" || type === "application/x-www-form-urlencoded") {
    const form = await c.req.formData();
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") parts.push(`${name}=s:${await sha256Hex(value)}`);
      else parts.push(`${name}=f:${value.name}:${value.size}:${await sha256Hex(new Uint8Array(await value.arrayBuffer()))}`);
    }
  } else if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    parts.push(await sha256Hex(await c.req.text()));
  }
  return sha256Hex(parts.join("\n"));
}

interface StoredKey {
  request_hash: string;
  status: "in_flight" | "done";
  response_status: number | null;
  response_body: string | null;
}

/** The request header of routes that accept an `Idempotency-Key`, for their OpenAPI description. */
export const IdempotencyHeader = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .optional()
    .openapi({ description: "Repeating the request with the same key returns the original response without new work or charge (24 h)." }),
});

/**
 * `Idempotency-Key` support for a route that creates something (jobs, payments), after `requireAuth`.
 * Per account and key: the first request runs and its successful (2xx) response is stored for
 * LIMITS.idempotency_key_ttl_seconds; a repeat of the same request gets that response again
 * (header `Idempotent-Replayed: true`) without running; the same key with a different request is
 * 409 `idempotency_key_reused`; a repeat while the first still runs is 409 `idempotency_in_flight`
 * (retryable). A failed first request frees the key, since it did no work.
 */
export function idempotent(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header("Idempotency-Key");
    if (key === undefined) return next();
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError("validation_error", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
        details: { fields: [{ location: "header", field: "idempotency-key", message: "1 to 255 visible ASCII characters" }] },
      });
    }
    const userId = c.get("auth").userId;
    const hash = await fingerprint(c);
    const d1 = c.env.DB;
    const now = Date.now();
    // Claim the key: a new row, or take over one that expired or whose request died in flight.
    const claim = await d1
      .prepare(
        `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, status, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, 'in_flight', ?, ?)
         ON CONFLICT (user_id, key) DO UPDATE SET method = excluded.method, path = excluded.path, request_hash = excluded.request_hash,
           status = 'in_flight', response_status = NULL, response_body = NULL, resource_id = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
         WHERE idempotency_keys.expires_at <= ? OR (idempotency_keys.status = 'in_flight' AND idempotency_keys.created_at <= ?)
         RETURNING key`,
      )
      .bind(
        userId,
        key,
        c.req.method,
        c.req.path,
        hash,
        now,
        now + LIMITS.idempotency_key_ttl_seconds * 1000,
        now,
        now - ABANDONED_AFTER_MS,
      )
      .run();

    if (rowsWritten(claim) !== 1) {
      const row = await d1
        .prepare("SELECT request_hash, status, response_status, response_body FROM idempotency_keys WHERE user_id = ? AND key = ?")
        .bind(userId, key)
        .first<StoredKey>();
      if (row && row.request_hash !== hash) {
        throw new ApiError(
          "idempotency_key_reused",
          "This Idempotency-Key was used with a different request; use a new key for a new request.",
        );
      }
      if (!row || row.status === "in_flight" || row.response_status === null) {
        throw new ApiError("idempotency_in_flight", "A request with this Idempotency-Key is still being processed; retry shortly.", {
          headers: { "Retry-After": "1" },
        });
      }
      return new Response(row.response_body, {
        status: row.response_status,
        headers: { "Content-Type": "application/json", "Idempotent-Replayed": "true" },
      });
    }

    const release = () =>
      d1
        .prepare("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND request_hash = ? AND status = 'in_flight'")
        .bind(userId, key, hash)
        .run();
    try {
      await next();
    } catch (err) {
      await release();
      throw err;
    }
    if (c.res.status >= 200 && c.res.status < 300) {
      const text = await c.res.clone().text();
      let resourceId: string | null = null;
      try {
        const id = (JSON.parse(text) as { id?: unknown }).id;
        resourceId = typeof id === "string" ? id : null;
      } catch {
        resourceId = null;
      }
      await d1
        .prepare(
          "UPDATE idempotency_keys SET status = 'done', response_status = ?, response_body = ?, resource_id = ? WHERE user_id = ? AND key = ? AND request_hash = ?",
        )
        .bind(c.res.status, text, resourceId, userId, key, hash)
        .run();
    } else {
      await release();
    }
  };
}
