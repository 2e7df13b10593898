import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import { keys } from "../../lib/storage";
import { mintApiKey } from "../auth/api-keys";
import {
  closeAccount,
  eraseAccountRows,
  findUserById,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  updateUser,
  type ApiKeyRow,
} from "../auth/auth.repo";
import type { UserOut } from "../auth/auth.schemas";
import { toUserOut } from "../auth/auth.service";
import type { ApiKeyCreateRequest, ApiKeyOut, ApiKeyCreatedOut, ProfileUpdate } from "./account.schemas";
import { readAccountData } from "./account.repo";
import { iso } from "../../lib/time";

/** Live keys an account may hold at once. */
export const MAX_API_KEYS = 50;

function toApiKeyOut(k: ApiKeyRow): z.infer<typeof ApiKeyOut> {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: iso(k.createdAt)!,
    expires_at: iso(k.expiresAt),
    last_used_at: iso(k.lastUsedAt),
  };
}

/** PATCH /account/profile: only the validated fields change. */
export async function updateProfile(db: DB, userId: string, patch: z.infer<typeof ProfileUpdate>): Promise<z.infer<typeof UserOut>> {
  const updated = await updateUser(db, userId, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.locale !== undefined ? { locale: patch.locale } : {}),
  });
  if (!updated) throw new ApiError("unauthorized", "The account no longer exists.");
  return toUserOut(updated);
}

export async function listKeys(db: DB, userId: string): Promise<z.infer<typeof ApiKeyOut>[]> {
  return (await listApiKeys(db, userId)).map(toApiKeyOut);
}

/** POST /account/api-keys: the full key is in this answer only; the database keeps its hash and a display prefix. */
export async function createKey(
  db: DB,
  userId: string,
  input: z.infer<typeof ApiKeyCreateRequest>,
): Promise<z.infer<typeof ApiKeyCreatedOut>> {
  const now = Date.now();
  const live = (await listApiKeys(db, userId)).filter((k) => k.expiresAt === null || k.expiresAt > now);
  if (live.length >= MAX_API_KEYS)
    throw new ApiError("conflict", `An account holds at most ${MAX_API_KEYS} keys; revoke one first.`, {
      details: { limit: MAX_API_KEYS },
    });
  const { key, hash, prefix } = await mintApiKey();
  const row = await insertApiKey(db, {
    id: newId("key"),
    userId,
    name: input.name,
    prefix,
    keyHash: hash,
    scopes: [],
    createdAt: now,
    expiresAt: input.expires_in_days ? now + input.expires_in_days * 86_400_000 : null,
  });
  return { ...toApiKeyOut(row), key };
}

/** DELETE /account/api-keys/{id}: the key stops working at once; another account's key is 404. */
export async function revokeKey(db: DB, userId: string, keyId: string): Promise<void> {
  if (!(await revokeApiKey(db, userId, keyId, Date.now()))) throw new ApiError("not_found", `No API key ${keyId}.`);
}

/**
 * GET /account/export-data: everything held about the account as JSON (profile, sessions and key
 * metadata, projects with their pages, regions and tables, jobs, exports, shares, wallet and
 * ledger, payments, subscriptions, usage, webhooks, glossaries, translation memory). Secrets and
 * their hashes are left out.
 */
export async function exportData(db: DB, userId: string): Promise<Record<string, unknown>> {
  const user = await findUserById(db, userId);
  if (!user) throw new ApiError("unauthorized", "The account no longer exists.");
  const sections = await readAccountData(db, userId);
  return { format: "lingoscan-account-export/1", exported_at: new Date().toISOString(), profile: toUserOut(user), ...sections };
}

/** Deletes every R2 object under the account's prefixes, a listing page (≤1000 keys) at a time. */
async function purgeFiles(bucket: R2Bucket, userId: string): Promise<number> {
  let deleted = 0;
  for (const prefix of keys.userPrefixes(userId)) {
    for (;;) {
      // Always list from the start: the previous page is gone, so no cursor is needed.
      const page = await bucket.list({ prefix, limit: 1000 });
      if (page.objects.length === 0) break;
      await bucket.delete(page.objects.map((o) => o.key));
      deleted += page.objects.length;
    }
  }
  return deleted;
}

/**
 * DELETE /account: closes the account (every session and key stops working at once), deletes its
 * files from R2, then its rows from D1. A deleted account cannot sign in; its email is free again.
 */
export async function deleteAccount(db: DB, files: R2Bucket, userId: string): Promise<void> {
  if (!(await closeAccount(db, userId, Date.now()))) throw new ApiError("unauthorized", "The account no longer exists.");
  await purgeFiles(files, userId);
  await eraseAccountRows(db, userId);
}
