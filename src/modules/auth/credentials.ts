import type { CredentialStore } from "../../env";
import { API_KEY_PREFIX, hashApiKey } from "./api-keys";
import { findApiKeyByHash, findSessionByHash, touchApiKey, touchSession } from "./auth.repo";
import { hashSessionToken } from "./session-token";

/** The auth domain's credentials as the auth middleware (http/auth.ts) reads them. */
export const credentialStore: CredentialStore = {
  apiKeyPrefix: API_KEY_PREFIX,
  findApiKey: async (db, key) => findApiKeyByHash(db, await hashApiKey(key)),
  findSession: async (db, token) => findSessionByHash(db, await hashSessionToken(token)),
  touchApiKey,
  touchSession,
};
