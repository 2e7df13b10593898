import type { DB } from "../../db/client";
import { rowsWritten } from "../../db/written";

/**
 * Account-wide reads and erasure span every table an account owns, so they live here rather than
 * in each domain's repo: the data export must see all of it, and erasure must miss none of it.
 */

/** Columns that hold secrets or their hashes: never part of an export. */
const SECRET_COLUMNS = new Set(["password_hash", "totp_secret", "totp_last_step", "token_hash", "key_hash", "secret", "previous_secret"]);

/** Every table holding the account's data, with the query that selects its rows (`?1` = user id). */
const OWNED_DATA: Record<string, string> = {
  sessions: "SELECT * FROM sessions WHERE user_id = ?1 ORDER BY created_at, id",
  identities: "SELECT * FROM oauth_identities WHERE user_id = ?1 ORDER BY created_at, id",
  api_keys: "SELECT * FROM api_keys WHERE user_id = ?1 ORDER BY created_at, id",
  folders: "SELECT * FROM folders WHERE user_id = ?1 ORDER BY created_at, id",
  projects: "SELECT * FROM projects WHERE user_id = ?1 ORDER BY created_at, id",
  pages: "SELECT pg.* FROM pages pg JOIN projects p ON p.id = pg.project_id WHERE p.user_id = ?1 ORDER BY pg.project_id, pg.page_index",
  regions:
    "SELECT r.* FROM regions r JOIN projects p ON p.id = r.project_id WHERE p.user_id = ?1 ORDER BY r.page_id, r.reading_order, r.id",
  tables: "SELECT t.* FROM tables t JOIN projects p ON p.id = t.project_id WHERE p.user_id = ?1 ORDER BY t.page_id, t.id",
  table_cells:
    "SELECT c.* FROM table_cells c JOIN tables t ON t.id = c.table_id JOIN projects p ON p.id = t.project_id WHERE p.user_id = ?1 ORDER BY c.table_id, c.row, c.col",
  jobs: "SELECT * FROM jobs WHERE user_id = ?1 ORDER BY created_at, id",
  exports: "SELECT * FROM exports WHERE user_id = ?1 ORDER BY created_at, id",
  shares: "SELECT * FROM shares WHERE user_id = ?1 ORDER BY created_at, id",
  wallet: "SELECT * FROM wallets WHERE user_id = ?1",
  ledger: "SELECT * FROM ledger_entries WHERE user_id = ?1 ORDER BY created_at, id",
  payments: "SELECT * FROM payments WHERE user_id = ?1 ORDER BY created_at, id",
  subscriptions: "SELECT * FROM subscriptions WHERE user_id = ?1 ORDER BY created_at, id",
  usage: "SELECT * FROM usage_daily WHERE user_id = ?1 ORDER BY day, tool",
  webhooks: "SELECT * FROM webhook_endpoints WHERE user_id = ?1 ORDER BY created_at, id",
  webhook_deliveries: "SELECT * FROM webhook_deliveries WHERE user_id = ?1 ORDER BY created_at, id",
  glossaries: "SELECT * FROM glossaries WHERE user_id = ?1 ORDER BY created_at, id",
  glossary_terms:
    "SELECT gt.* FROM glossary_terms gt JOIN glossaries g ON g.id = gt.glossary_id WHERE g.user_id = ?1 ORDER BY gt.glossary_id, gt.position",
  translation_memory: "SELECT * FROM translation_memory WHERE user_id = ?1 ORDER BY created_at, id",
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
