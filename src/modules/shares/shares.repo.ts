import { and, eq, isNull, sql } from "drizzle-orm";
import type { DB } from "../../db/client";
import { firstRow, newestRows } from "../../db/rows";
import { shares } from "../../db/schema";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's share links, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { shares: ownRows("shares") };

export type ShareRow = typeof shares.$inferSelect;

export async function insertShare(db: DB, row: typeof shares.$inferInsert): Promise<ShareRow> {
  const [inserted] = await db.insert(shares).values(row).returning();
  return inserted!;
}

export async function listShares(db: DB, userId: string, projectId: string): Promise<ShareRow[]> {
  return newestRows(db, shares, and(eq(shares.projectId, projectId), eq(shares.userId, userId)));
}

export async function findShareByTokenHash(db: DB, tokenHash: string): Promise<ShareRow | undefined> {
  return firstRow(db, shares, eq(shares.tokenHash, tokenHash));
}

export async function findOwnShare(db: DB, userId: string, shareId: string): Promise<ShareRow | undefined> {
  return firstRow(db, shares, and(eq(shares.id, shareId), eq(shares.userId, userId)));
}

/** Revokes a share once; a second revocation keeps the first time. */
export async function revokeShare(db: DB, shareId: string, now: number): Promise<void> {
  await db
    .update(shares)
    .set({ revokedAt: now })
    .where(and(eq(shares.id, shareId), isNull(shares.revokedAt)));
}

export async function recordView(db: DB, shareId: string, now: number): Promise<void> {
  await db
    .update(shares)
    .set({ viewCount: sql`${shares.viewCount} + 1`, lastViewedAt: now })
    .where(eq(shares.id, shareId));
}
