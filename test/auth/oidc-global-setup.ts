import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import type { TestProject } from "vitest/node";

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
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    cookies: { keys: ["oidc-test-cookie-key"] },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, id: string) {
      const [email, flag] = decodeURIComponent(id.replace(/^acct:/, "")).split(";");
      return { accountId: id, claims: async () => ({ sub: id, email, email_verified: flag !== "unverified" }) };
    },
  });
  const callback = provider.callback();

  async function interact(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const params = details.params as Record<string, string>;
    if (details.prompt.name === "login") {
      const accountId = `acct:${encodeURIComponent(params.login_hint ?? "nobody@example.com")}`;
      await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: params.client_id! });
    grant.addOIDCScope(params.scope ?? "openid");
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      interact(req, res).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    } else {
      callback(req, res);
    }
  });

  project.provide("oidcBindings", {
    OAUTH_PROVIDERS: JSON.stringify({ localidp: { issuer, client_id: OIDC_CLIENT_ID, scope: "openid email" } }),
    OAUTH_CLIENT_SECRET_LOCALIDP: CLIENT_SECRET,
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
