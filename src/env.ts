import type { DB } from "./db/client";

/** Who is calling: resolved by the auth middleware from an API key (or, later, a session cookie). */
export interface AuthContext {
  userId: string;
  plan: string;
  via: "api_key" | "session";
  credentialId: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: DB;
    auth: AuthContext;
  };
};
