import { and, eq, isNull } from "drizzle-orm";
import type { DB } from "../../db/client";
import { apiKeys, users } from "../../db/schema";

/** The live key with this hash and its owner, or undefined. Expiry is checked by the caller. */
export async function findApiKeyByHash(db: DB, keyHash: string) {
  const [row] = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId, expiresAt: apiKeys.expiresAt, plan: users.plan, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

export async function touchApiKey(db: DB, id: string, now: number): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
}
