import { and, eq, inArray } from "drizzle-orm";
import { chunks, MAX_BOUND_PARAMETERS } from "../../db/chunks";
import type { DB } from "../../db/client";
import { deleteOwnRow, newestRows } from "../../db/rows";
import { glossaries, glossaryTerms } from "../../db/schema";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's glossaries and their terms, for its data export. */
export const ACCOUNT_ROWS: AccountRows = {
  glossaries: ownRows("glossaries"),
  glossary_terms:
    "SELECT gt.* FROM glossary_terms gt JOIN glossaries g ON g.id = gt.glossary_id WHERE g.user_id = ?1 ORDER BY gt.glossary_id, gt.position",
};

export type GlossaryRow = typeof glossaries.$inferSelect;
export type TermRow = typeof glossaryTerms.$inferSelect;
export type NewTerm = { source: string; target: string; caseSensitive: boolean };

/** Rows per multi-row INSERT: 5 bound values each, under D1's bound-parameter limit. */
const TERMS_PER_INSERT = Math.floor((MAX_BOUND_PARAMETERS - 1) / 5);

function termInserts(db: DB, glossaryId: string, terms: readonly NewTerm[]) {
  const rows = terms.map((t, position) => ({ glossaryId, source: t.source, target: t.target, caseSensitive: t.caseSensitive, position }));
  return chunks(rows, TERMS_PER_INSERT).map((run) => db.insert(glossaryTerms).values(run));
}

export async function listGlossaries(db: DB, userId: string, limit: number, offset: number): Promise<GlossaryRow[]> {
  return newestRows(db, glossaries, eq(glossaries.userId, userId), { limit, offset });
}

export async function findGlossaries(db: DB, userId: string, ids: readonly string[]): Promise<GlossaryRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(glossaries)
    .where(and(eq(glossaries.userId, userId), inArray(glossaries.id, [...ids])));
}

export async function glossariesForPair(db: DB, userId: string, source: string, target: string): Promise<GlossaryRow[]> {
  return newestRows(
    db,
    glossaries,
    and(eq(glossaries.userId, userId), eq(glossaries.sourceLanguage, source), eq(glossaries.targetLanguage, target)),
  );
}

/** Terms of the given glossaries, each glossary's in the order given. */
export async function termsOf(db: DB, glossaryIds: readonly string[]): Promise<TermRow[]> {
  if (glossaryIds.length === 0) return [];
  return db
    .select()
    .from(glossaryTerms)
    .where(inArray(glossaryTerms.glossaryId, [...glossaryIds]))
    .orderBy(glossaryTerms.glossaryId, glossaryTerms.position);
}

/** Inserts a glossary with its terms in one transaction. */
export async function insertGlossary(
  db: DB,
  row: typeof glossaries.$inferInsert & { id: string },
  terms: readonly NewTerm[],
): Promise<void> {
  await db.batch([db.insert(glossaries).values(row), ...termInserts(db, row.id, terms)]);
}

/** Replaces every term of a glossary (delete + inserts + touch) in one transaction. */
export async function replaceTerms(db: DB, glossaryId: string, terms: readonly NewTerm[]): Promise<void> {
  await db.batch([
    db.delete(glossaryTerms).where(eq(glossaryTerms.glossaryId, glossaryId)),
    ...termInserts(db, glossaryId, terms),
    db.update(glossaries).set({ updatedAt: Date.now() }).where(eq(glossaries.id, glossaryId)),
  ]);
}

/** Deletes an account's glossary (its terms cascade); false when there is none with that id. */
export async function deleteGlossary(db: DB, userId: string, glossaryId: string): Promise<boolean> {
  return deleteOwnRow(db, glossaries, userId, glossaryId);
}
