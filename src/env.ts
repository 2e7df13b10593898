import type { DB } from "./db/client";

/** Who is calling: resolved by the auth middleware from an API key (or, later, a session cookie). */
export interface AuthContext {
  userId: string;
  plan: string;
  via: "api_key" | "session";
  credentialId: string;
}

/**
 * What the auth middleware reads of the auth domain's credentials (set on the context by createApp,
 * so the HTTP layer never imports a domain). Lookups take the raw key or token and hash it.
 */
export interface CredentialStore {
  apiKeyPrefix: string;
  findApiKey(
    db: DB,
    key: string,
  ): Promise<{ id: string; userId: string; plan: string; expiresAt: number | null; lastUsedAt: number | null } | undefined>;
  findSession(
    db: DB,
    token: string,
  ): Promise<
    | { session: { id: string; userId: string; expiresAt: number; twoFactorPending: boolean; lastSeenAt: number | null }; plan: string }
    | undefined
  >;
  touchApiKey(db: DB, id: string, now: number): Promise<void>;
  touchSession(db: DB, id: string, now: number): Promise<void>;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: DB;
    credentials: CredentialStore;
    auth: AuthContext;
  };
};
