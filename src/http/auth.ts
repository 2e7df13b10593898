import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { API_KEY_PREFIX, hashApiKey } from "../modules/auth/api-keys";
import { findApiKeyByHash, touchApiKey } from "../modules/auth/auth.repo";
import { ApiError } from "./errors";

/** last_used_at is written at most once a minute per key, keeping reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves the caller from `Authorization: Bearer lik_live_…` and sets `auth`.
 * Every protected route uses it; an unknown, revoked or expired key is 401 `invalid_api_key`.
 */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("Authorization");
  if (!header) throw new ApiError("unauthorized", "Send an API key as `Authorization: Bearer lik_live_…`.");
  const key = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!key || !key.startsWith(API_KEY_PREFIX)) throw new ApiError("invalid_api_key", "The Authorization header does not carry a lik_live_ API key.");
  const now = Date.now();
  const row = await findApiKeyByHash(c.get("db"), await hashApiKey(key));
  if (!row || (row.expiresAt !== null && row.expiresAt <= now)) throw new ApiError("invalid_api_key", "The API key is unknown, revoked or expired.");
  if (row.lastUsedAt === null || now - row.lastUsedAt > TOUCH_INTERVAL_MS) c.executionCtx.waitUntil(touchApiKey(c.get("db"), row.id, now));
  c.set("auth", { userId: row.userId, plan: row.plan, via: "api_key", credentialId: row.id });
  await next();
};
