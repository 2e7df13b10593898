import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configuredProviders } from "../../src/modules/auth/oauth.service";
import { api, body } from "../helpers/api";

/** Only the variables configuredProviders reads: OAUTH_PROVIDERS and the client secrets. */
function envWith(vars: Record<string, string>): Env {
  return vars as unknown as Env;
}

const issuer = "https://idp.example.com";

describe("sign-in providers in GET /config", () => {
  it("lists exactly the identity provider this deployment configures, without its secret", async () => {
    // The test run configures one provider, `localidp` (test/auth/oidc-global-setup.ts).
    expect(Object.keys(JSON.parse(env.OAUTH_PROVIDERS))).toEqual(["localidp"]);
    const res = await api("/api/v1/config");
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text).oauth_providers).toEqual([
      { id: "localidp", name: "Localidp", start_url: "/api/v1/auth/oauth/localidp/start" },
    ]);
    const secret = (env as unknown as Record<string, string>).OAUTH_CLIENT_SECRET_LOCALIDP!;
    expect(secret.length).toBeGreaterThan(8);
    expect(text).not.toContain(secret);
  });

  it("gives a start_url that starts the provider's sign-in", async () => {
    const [provider] = (await body(await api("/api/v1/config"))).oauth_providers;
    const res = await api(provider.start_url);
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(new URL(b.authorization_url).origin).toBe(new URL(JSON.parse(env.OAUTH_PROVIDERS).localidp.issuer).origin);
  });

  it("lists only providers whose client secret is set, in configuration order, with their button name", () => {
    const providers = JSON.stringify({
      google: { issuer: "https://accounts.google.com", client_id: "g", name: "Google" },
      "corp-sso": { issuer, client_id: "c" },
      nosecret: { issuer, client_id: "n" },
    });
    const listed = configuredProviders(
      envWith({
        OAUTH_PROVIDERS: providers,
        OAUTH_CLIENT_SECRET_GOOGLE: "gs",
        OAUTH_CLIENT_SECRET_CORP_SSO: "cs",
        OAUTH_CLIENT_SECRET_NOSECRET: "",
      }),
    );
    expect(listed).toEqual([
      { id: "google", name: "Google", start_url: "/api/v1/auth/oauth/google/start" },
      { id: "corp-sso", name: "Corp-sso", start_url: "/api/v1/auth/oauth/corp-sso/start" },
    ]);
  });

  it("lists none when none is configured, the configuration is invalid, or an id cannot be routed", () => {
    expect(configuredProviders(envWith({ OAUTH_PROVIDERS: "{}" }))).toEqual([]);
    expect(configuredProviders(envWith({ OAUTH_PROVIDERS: "" }))).toEqual([]);
    expect(configuredProviders(envWith({ OAUTH_PROVIDERS: "{not json", OAUTH_CLIENT_SECRET_A: "s" }))).toEqual([]);
    // One invalid entry makes the whole configuration unusable for sign-in, so nothing is offered.
    expect(
      configuredProviders(
        envWith({
          OAUTH_PROVIDERS: JSON.stringify({ a: { issuer, client_id: "a" }, b: { issuer: "not a url", client_id: "b" } }),
          OAUTH_CLIENT_SECRET_A: "s",
          OAUTH_CLIENT_SECRET_B: "s",
        }),
      ),
    ).toEqual([]);
    expect(
      configuredProviders(
        envWith({ OAUTH_PROVIDERS: JSON.stringify({ "Upper Case": { issuer, client_id: "u" } }), "OAUTH_CLIENT_SECRET_UPPER CASE": "s" }),
      ),
    ).toEqual([]);
  });
});
