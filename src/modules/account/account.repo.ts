import type { AccountRows } from "../../db/account-rows";
import type { DB } from "../../db/client";
import { rowsWritten } from "../../db/written";
import * as auth from "../auth/auth.repo";
import * as payments from "../billing/payments.repo";
import * as subscriptions from "../billing/subscriptions.repo";
import * as usage from "../billing/usage.repo";
import * as wallet from "../billing/wallet.repo";
import * as exportFiles from "../exports/exports.repo";
import * as glossaries from "../glossaries/glossaries.repo";
import * as jobs from "../jobs/jobs.repo";
import * as pages from "../projects/pages.repo";
import * as projects from "../projects/projects.repo";
import * as shares from "../shares/shares.repo";
import * as memory from "../translation-memory/translation-memory.repo";
import * as webhooks from "../webhooks/webhooks.repo";

/**
 * Account-wide reads and erasure span every table an account owns: the data export must see all
 * of it (each owning repo declares its tables' queries, run here in one batch), and erasure must
 * miss none of it (the user row's cascade).
 */

/** Columns that hold secrets or their hashes: never part of an export. */
const SECRET_COLUMNS = new Set(["password_hash", "totp_secret", "totp_last_step", "token_hash", "key_hash", "secret", "previous_secret"]);

/**
 * Every table holding the account's data, section by section in the export's order: each owning
 * repo declares the queries of its own tables (`?1` = user id).
 */
const OWNED_DATA: AccountRows = {
  ...auth.ACCOUNT_ROWS,
  ...projects.ACCOUNT_ROWS,
  ...pages.ACCOUNT_ROWS,
  ...jobs.ACCOUNT_ROWS,
  ...exportFiles.ACCOUNT_ROWS,
  ...shares.ACCOUNT_ROWS,
  ...wallet.ACCOUNT_ROWS,
  ...payments.ACCOUNT_ROWS,
  ...subscriptions.ACCOUNT_ROWS,
  ...usage.ACCOUNT_ROWS,
  ...webhooks.ACCOUNT_ROWS,
  ...glossaries.ACCOUNT_ROWS,
  ...memory.ACCOUNT_ROWS,
};

/** Tables the export reads (the first table of each query), for the check that no owned table is missed. */
export const EXPORTED_TABLES = new Set(Object.values(OWNED_DATA).map((q) => /FROM (\w+)/.exec(q)![1]!));

function withoutSecrets(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !SECRET_COLUMNS.has(k)));
}

/** Every owned table's rows (secret columns removed), keyed by section name. */
export async function readAccountData(db: DB, userId: string): Promise<Record<string, Record<string, unknown>[]>> {
  const d1 = db.$client;
  const names = Object.keys(OWNED_DATA);
  const results = await d1.batch(names.map((n) => d1.prepare(OWNED_DATA[n]!).bind(userId)));
  return Object.fromEntries(names.map((n, i) => [n, (results[i]?.results ?? []).map((r) => withoutSecrets(r as Record<string, unknown>))]));
}

/**
 * Closes the account at once: `deleted_at` makes every credential lookup fail (they all require a
 * live user) and every session and key is revoked, before the slower erasure runs.
 */
export async function closeAccount(db: DB, userId: string, now: number): Promise<boolean> {
  const d1 = db.$client;
  const [closed] = await d1.batch([
    d1.prepare("UPDATE users SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL RETURNING id").bind(now, now, userId),
    d1.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(now, userId),
    d1.prepare("UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(now, userId),
  ]);
  return rowsWritten(closed) === 1;
}

/** Deletes the user row; every owned row goes with it (all foreign keys to users cascade). */
export async function eraseAccountRows(db: DB, userId: string): Promise<void> {
  const d1 = db.$client;
  // Tokens not tied to a user id (a magic link for the address) are erased by address.
  await d1.batch([
    d1.prepare("DELETE FROM auth_tokens WHERE email = (SELECT email FROM users WHERE id = ?)").bind(userId),
    d1.prepare("DELETE FROM users WHERE id = ?").bind(userId),
  ]);
}
