import { env, exports } from "cloudflare:workers";
import { mintApiKey } from "../../src/modules/auth/api-keys";
import { newId } from "../../src/lib/ids";

/** Calls the api Worker exactly as a client would. */
export function api(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`http://127.0.0.1:8787${path}`, init));
}

/** Reads a JSON body; a failing assertion prints the whole response. */
export async function body<T = any>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`expected JSON, got ${res.status}: ${text.slice(0, 500)}`);
  }
}

/** Seeds an account with a wallet (credits granted through the ledger) and an API key. */
export async function seedAccount(opts: { credits?: number; plan?: string } = {}) {
  const userId = newId("usr");
  const { key, hash, prefix } = await mintApiKey();
  const now = Date.now();
  const credits = opts.credits ?? 100;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, email, plan, locale, created_at, updated_at) VALUES (?, ?, ?, 'en', ?, ?)").bind(
      userId,
      `${userId}@example.com`,
      opts.plan ?? "free",
      now,
      now,
    ),
    env.DB.prepare("INSERT INTO wallets (user_id, balance, reserved, updated_at) VALUES (?, ?, 0, ?)").bind(userId, credits, now),
    env.DB.prepare(
      "INSERT INTO ledger_entries (id, user_id, kind, amount, reserved_delta, balance_after, reserved_after, reason, dedupe_key, created_at) VALUES (?, ?, 'grant', ?, 0, ?, 0, 'test grant', ?, ?)",
    ).bind(newId("led"), userId, credits, credits, `grant:${userId}`, now),
    env.DB.prepare(
      "INSERT INTO api_keys (id, user_id, name, prefix, key_hash, scopes, created_at) VALUES (?, ?, 'test', ?, ?, '[]', ?)",
    ).bind(newId("key"), userId, prefix, hash, now),
  ]);
  const auth = { Authorization: `Bearer ${key}` };
  return { userId, key, auth };
}

/** Polls a job until it reaches a terminal state (the spec's client loop, faster). */
export async function waitForJob(jobId: string, auth: Record<string, string>, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await body(await api(`/api/v1/jobs/${jobId}`, { headers: auth }));
    if (["completed", "partially_completed", "failed", "cancelled"].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits, if need be, for the next window of a rate limit of `periodSeconds`: local counters live in
 * windows aligned to the wall clock, and a test that spends an allowance must do so inside one.
 * Returns at once when at least `needMs` of the current window are left.
 */
export async function startOfWindow(periodSeconds: number, needMs: number): Promise<void> {
  const periodMs = periodSeconds * 1000;
  const left = periodMs - (Date.now() % periodMs);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}
