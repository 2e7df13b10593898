import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DB } from "../../db/client";
import { deleteOwnRow, newestRows } from "../../db/rows";
import { translationMemory } from "../../db/schema";
import { chunks, queryInChunks } from "../../db/chunks";
import { newId } from "../../lib/ids";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's translation memory, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { translation_memory: ownRows("translation_memory") };

export type EntryRow = typeof translationMemory.$inferSelect;

export async function listEntries(
  db: DB,
  userId: string,
  f: { source?: string; target?: string; limit: number; offset: number },
): Promise<EntryRow[]> {
  const where: SQL[] = [eq(translationMemory.userId, userId)];
  if (f.source) where.push(eq(translationMemory.sourceLanguage, f.source));
  if (f.target) where.push(eq(translationMemory.targetLanguage, f.target));
  return newestRows(db, translationMemory, and(...where), f);
}

export async function deleteEntry(db: DB, userId: string, id: string): Promise<boolean> {
  return deleteOwnRow(db, translationMemory, userId, id);
}

/** The conditions selecting one account's entries of one language pair. */
function ofPair(userId: string, source: string, target: string) {
  return [eq(translationMemory.userId, userId), eq(translationMemory.sourceLanguage, source), eq(translationMemory.targetLanguage, target)];
}

export async function findByHashes(db: DB, userId: string, source: string, target: string, hashes: readonly string[]): Promise<EntryRow[]> {
  return queryInChunks(hashes, (run) =>
    db
      .select()
      .from(translationMemory)
      .where(and(...ofPair(userId, source, target), inArray(translationMemory.sourceHash, run))),
  );
}

/** Counts a reuse of each entry. */
export async function recordUses(db: DB, ids: readonly string[]): Promise<void> {
  const now = Date.now();
  for (const run of chunks(ids)) {
    await db
      .update(translationMemory)
      .set({ uses: sql`${translationMemory.uses} + 1`, lastUsedAt: now, updatedAt: sql`${translationMemory.updatedAt}` })
      .where(inArray(translationMemory.id, run));
  }
}

/**
 * Inserts entries in one transaction, keyed by (account, pair, source hash). With `overwrite`
 * an existing entry takes the new target (a user's edit); without, it is kept (machine output
 * never replaces what is already there).
 */
export async function upsertEntries(
  db: DB,
  userId: string,
  source: string,
  target: string,
  entries: readonly { sourceHash: string; sourceText: string; targetText: string }[],
  overwrite: boolean,
): Promise<void> {
  if (entries.length === 0) return;
  const now = Date.now();
  const statements = entries.map((e) => {
    const insert = db.insert(translationMemory).values({
      id: newId("tm"),
      userId,
      sourceLanguage: source,
      targetLanguage: target,
      sourceHash: e.sourceHash,
      sourceText: e.sourceText,
      targetText: e.targetText,
      createdAt: now,
      updatedAt: now,
    });
    const targetCols = [
      translationMemory.userId,
      translationMemory.sourceLanguage,
      translationMemory.targetLanguage,
      translationMemory.sourceHash,
    ];
    return overwrite
      ? insert.onConflictDoUpdate({ target: targetCols, set: { targetText: e.targetText, sourceText: e.sourceText, updatedAt: now } })
      : insert.onConflictDoNothing({ target: targetCols });
  });
  const [first, ...rest] = statements;
  await db.batch([first!, ...rest]);
}

export async function findEntry(db: DB, userId: string, source: string, target: string, sourceHash: string): Promise<EntryRow | undefined> {
  const [row] = await findByHashes(db, userId, source, target, [sourceHash]);
  return row;
}

/**
 * Entries of a pair whose source length is within [minChars, maxChars] (a necessary condition
 * for a similarity above the threshold), most recently updated first.
 */
export async function fuzzyCandidates(
  db: DB,
  userId: string,
  source: string,
  target: string,
  minChars: number,
  maxChars: number,
  limit: number,
): Promise<EntryRow[]> {
  return db
    .select()
    .from(translationMemory)
    .where(and(...ofPair(userId, source, target), sql`length(${translationMemory.sourceText}) BETWEEN ${minChars} AND ${maxChars}`))
    .orderBy(desc(translationMemory.updatedAt), desc(translationMemory.id))
    .limit(limit);
}
