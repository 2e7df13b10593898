import type { AccountRows } from "../../db/account-rows";
import type { DB } from "../../db/client";
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
 * Account-wide reads span every table an account owns: the data export must see all of it (each
 * owning repo declares its tables' queries, run here in one batch). Closing and erasing the
 * account are the auth repo's (it owns the users table; erasure is the user row's cascade).
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
