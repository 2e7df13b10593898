import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { ERROR_CATALOGUE, isErrorCode, type ErrorCode } from "../../src/http/errors";

/** Row counts and wallet of one account, plus its objects under uploads/ in R2. */
export interface Snapshot {
  jobs: number;
  projects: number;
  ledger: number;
  uploads: number;
  balance: number;
  reserved: number;
}

async function count(sql: string, userId: string): Promise<number> {
  return (await env.DB.prepare(sql).bind(userId).first<{ n: number }>())!.n;
}

export async function snapshot(userId: string): Promise<Snapshot> {
  const wallet = await env.DB.prepare("SELECT balance, reserved FROM wallets WHERE user_id = ?")
    .bind(userId)
    .first<{ balance: number; reserved: number }>();
  return {
    jobs: await count("SELECT COUNT(*) AS n FROM jobs WHERE user_id = ?", userId),
    projects: await count("SELECT COUNT(*) AS n FROM projects WHERE user_id = ?", userId),
    ledger: await count("SELECT COUNT(*) AS n FROM ledger_entries WHERE user_id = ?", userId),
    uploads: (await env.FILES.list({ prefix: `uploads/${userId}/` })).objects.length,
    balance: wallet!.balance,
    reserved: wallet!.reserved,
  };
}

/** The wallet equals the sum of the ledger (balance = Σ amount, reserved = Σ reserved_delta). */
export async function expectWalletMatchesLedger(userId: string): Promise<void> {
  const w = await env.DB.prepare("SELECT balance, reserved FROM wallets WHERE user_id = ?")
    .bind(userId)
    .first<{ balance: number; reserved: number }>();
  const s = await env.DB.prepare(
    "SELECT COALESCE(SUM(amount), 0) AS balance, COALESCE(SUM(reserved_delta), 0) AS reserved FROM ledger_entries WHERE user_id = ?",
  )
    .bind(userId)
    .first<{ balance: number; reserved: number }>();
  expect({ balance: w!.balance, reserved: w!.reserved }, `wallet of ${userId} against its ledger`).toEqual({
    balance: s!.balance,
    reserved: s!.reserved,
  });
}

/**
 * An error answer as the catalogue defines it: JSON envelope, a catalogued code whose status is
 * the response's, never 5xx, and one of `codes`. Returns the parsed body.
 */
export async function expectRefused(res: Response, codes: readonly ErrorCode[], label: string): Promise<any> {
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${label}: ${res.status} is not a JSON envelope: ${text.slice(0, 300)}`);
  }
  const code = parsed?.error?.code;
  const shown = `${label}: ${res.status} ${text.slice(0, 600)}`;
  expect(typeof code === "string" && isErrorCode(code), `uncatalogued code, ${shown}`).toBe(true);
  expect(res.status, shown).toBe(ERROR_CATALOGUE[code as ErrorCode].status);
  expect(res.status, shown).toBeLessThan(500);
  expect(codes, shown).toContain(code);
  return parsed;
}

/** A success, or a catalogued 4xx among `codes` (never 5xx); returns the status and body. */
export async function expectHandled(res: Response, codes: readonly ErrorCode[], label: string): Promise<{ ok: boolean; body: any }> {
  if (res.ok) {
    const text = await res.text();
    return { ok: true, body: text ? JSON.parse(text) : null };
  }
  return { ok: false, body: await expectRefused(res, codes, label) };
}
