// A real OpenID Provider (oidc-provider, a certified implementation) on a loopback port, for the
// tests and the end-to-end run. Its only shortcut is the interaction step: instead of a login
// form, whoever arrives is signed in as `accountOf(params)` of the authorization request and
// consents at once. Codes, PKCE, tokens and signed ID tokens are the provider's own.
import { createServer } from "node:http";
import Provider from "oidc-provider";

/**
 * Starts the provider with one confidential client.
 * @param {{ clientId: string, secret: string, redirectUri: string, cookieKey: string,
 *   accountOf: (params: Record<string, string>) => string,
 *   claimsOf: (accountId: string) => { email: string, email_verified: boolean } }} o
 * @returns {Promise<{ issuer: string, close: () => Promise<void> }>}
 */
export async function startOidcProvider(o) {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: o.clientId,
        client_secret: o.secret,
        redirect_uris: [o.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    cookies: { keys: [o.cookieKey] },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id, ...o.claimsOf(id) }) };
    },
  });
  const callback = provider.callback();

  async function interact(req, res) {
    const details = await provider.interactionDetails(req, res);
    const params = details.params;
    if (details.prompt.name === "login") {
      await provider.interactionFinished(req, res, { login: { accountId: o.accountOf(params) } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
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
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { issuer, close };
}
