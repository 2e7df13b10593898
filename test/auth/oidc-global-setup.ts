import type { TestProject } from "vitest/node";
import { startOidcProvider } from "../helpers/oidc-provider.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Bindings that configure the `localidp` identity provider: a real OpenID Provider on loopback. */
    oidcBindings: { OAUTH_PROVIDERS: string; OAUTH_CLIENT_SECRET_LOCALIDP: string };
  }
}

export const OIDC_CLIENT_ID = "lingoscan-test";
const CLIENT_SECRET = "lingoscan-test-secret-0123456789abcdef";
/** The api Worker's PUBLIC_BASE_URL in wrangler.toml, where the provider sends the browser back. */
const REDIRECT_URI = "http://127.0.0.1:8787/api/v1/auth/oauth/localidp/callback";

/**
 * Starts `oidc-provider` (a certified OpenID Provider implementation) on a loopback port for the
 * test run. Its only test-specific part is the interaction step: instead of a login page, the user
 * "signs in" as the `login_hint` of the authorization request (`email` or `email;unverified`) and
 * consents at once. Codes, PKCE, tokens and signed ID tokens are the provider's own.
 */
export default async function setup(project: TestProject) {
  const { issuer, close } = await startOidcProvider({
    clientId: OIDC_CLIENT_ID,
    secret: CLIENT_SECRET,
    redirectUri: REDIRECT_URI,
    cookieKey: "oidc-test-cookie-key",
    accountOf: (params: Record<string, string>) => `acct:${encodeURIComponent(params.login_hint ?? "nobody@example.com")}`,
    claimsOf: (id: string) => {
      const [email, flag] = decodeURIComponent(id.replace(/^acct:/, "")).split(";");
      return { email: email!, email_verified: flag !== "unverified" };
    },
  });
  project.provide("oidcBindings", {
    OAUTH_PROVIDERS: JSON.stringify({ localidp: { issuer, client_id: OIDC_CLIENT_ID, scope: "openid email" } }),
    OAUTH_CLIENT_SECRET_LOCALIDP: CLIENT_SECRET,
  });
  return close;
}
