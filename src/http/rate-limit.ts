import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { sha256Hex } from "../lib/crypto";
import { LIMITS } from "../lib/limits";
import { sessionTokenOf } from "./auth";
import { ApiError } from "./errors";

/**
 * Rate limiting with a Workers Rate Limiting binding (`RL_AUTH`, `RL_API`, `RL_SHARE`).
 * `key` returns the counters this request counts against (for instance the client IP and the
 * account being signed into); any one of them over its limit answers 429 `rate_limited` with
 * `Retry-After`. The binding counts per Cloudflare location within its period, so the limit is a
 * brake on abuse, not an exact quota.
 */
export function rateLimit(opts: {
  binding: (env: Env) => RateLimit;
  key: (c: Context<AppEnv>) => Promise<(string | null)[]> | (string | null)[];
  /** The binding's period (wrangler.toml `simple.period`), sent as Retry-After. */
  periodSeconds: number;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const limiter = opts.binding(c.env);
    for (const key of await opts.key(c)) {
      if (key === null) continue;
      const { success } = await limiter.limit({ key });
      if (!success) {
        throw new ApiError("rate_limited", `Too many requests; try again in ${opts.periodSeconds} seconds.`, {
          details: { retry_after_seconds: opts.periodSeconds },
          headers: { "Retry-After": String(opts.periodSeconds) },
        });
      }
    }
    await next();
  };
}

/** The client address as Cloudflare reports it; null when unknown (local runs), so no shared bucket forms. */
export function clientIp(c: Context<AppEnv>): string | null {
  return c.req.header("CF-Connecting-IP") ?? null;
}

/**
 * A field of the JSON body, for keys that follow the account being acted on. Hono caches the
 * parsed body, so the route's validator reads it again for free; a body that is not JSON gives null.
 */
export async function jsonField(c: Context<AppEnv>, field: string): Promise<string | null> {
  try {
    const body: unknown = await c.req.json();
    const value = body && typeof body === "object" ? (body as Record<string, unknown>)[field] : undefined;
    return typeof value === "string" ? value.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * The credential a request presents, hashed so no secret becomes a limiter key: the API key from
 * `Authorization`, else the session cookie, else the client IP (null locally: no shared bucket).
 * Counting the presented credential rather than the resolved account keeps the brake in front of
 * the database, so a flood of requests with a bogus key is refused before any lookup.
 */
async function credentialKey(c: Context<AppEnv>): Promise<string | null> {
  const header = c.req.header("Authorization");
  if (header) return `api:cred:${await sha256Hex(header.trim())}`;
  const session = sessionTokenOf(c);
  if (session) return `api:session:${await sha256Hex(session)}`;
  const ip = clientIp(c);
  return ip ? `api:ip:${ip}` : null;
}

/**
 * The API's per-credential limit (`RL_API`, LIMITS.api_requests_per_period per
 * LIMITS.api_rate_period_seconds), mounted once on `/api/v1/*`: each API key and each session
 * counts on its own, anonymous requests per client IP.
 */
export const apiRateLimit: MiddlewareHandler<AppEnv> = rateLimit({
  binding: (env) => env.RL_API,
  periodSeconds: LIMITS.api_rate_period_seconds,
  key: async (c) => [await credentialKey(c)],
});
