import { z } from "@hono/zod-openapi";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { sha256Hex } from "../../lib/crypto";
import { base64Url, newId, newToken } from "../../lib/ids";
import { withTimeout } from "../../lib/timing";
import {
  consumeAuthToken,
  findIdentity,
  findUserByEmail,
  findUserById,
  insertAuthToken,
  insertIdentity,
  touchIdentity,
  updateUser,
} from "./auth.repo";
import { IDP_PATTERN } from "./auth.schemas";
import { type ClientInfo, createAccount, openSession, type SignIn } from "./auth.service";

/**
 * OpenID Connect sign-in (authorization code flow with PKCE S256, state and nonce). Providers come
 * from `OAUTH_PROVIDERS` (`{"<idp>": {"issuer", "client_id", "scope"?, "name"?}}`); each client
 * secret is the secret `OAUTH_CLIENT_SECRET_<IDP>`. Endpoints are read from the issuer's discovery
 * document. `name` is the label of the sign-in button (default: the idp with a capital letter).
 */
const ProviderConfig = z.object({
  issuer: z.url(),
  client_id: z.string().min(1),
  scope: z.string().default("openid email profile"),
  name: z.string().trim().min(1).max(60).optional(),
});
const Providers = z.record(z.string(), ProviderConfig);

const Discovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
});
type Discovery = z.infer<typeof Discovery>;

const STATE_TTL_MS = 10 * 60_000;
const HTTP_TIMEOUT_MS = 10_000;
/** Discovery documents and key sets are kept per isolate for an hour (keys rotate slowly; jose refetches on an unknown kid). */
const DISCOVERY_TTL_MS = 3600_000;
const discoveryCache = new Map<string, { at: number; doc: Discovery; jwks: ReturnType<typeof createRemoteJWKSet> }>();

interface StateData {
  idp: string;
  nonce: string;
  verifier: string;
  binding: string;
  [key: string]: unknown;
}

/** The parsed OAUTH_PROVIDERS, or null when it is not valid provider configuration. */
function parseProviders(env: Env): z.infer<typeof Providers> | null {
  try {
    return Providers.parse(JSON.parse(env.OAUTH_PROVIDERS || "{}"));
  } catch {
    return null;
  }
}

function clientSecret(env: Env, idp: string): string | null {
  const secret = (env as unknown as Record<string, unknown>)[`OAUTH_CLIENT_SECRET_${idp.toUpperCase().replace(/-/g, "_")}`];
  return typeof secret === "string" && secret ? secret : null;
}

function providerConfig(env: Env, idp: string) {
  const parsed = parseProviders(env);
  if (!parsed) throw new ApiError("provider_unavailable", "OAUTH_PROVIDERS is not valid provider configuration.");
  const config = Object.hasOwn(parsed, idp) ? parsed[idp] : undefined;
  if (!config) throw new ApiError("not_found", `No identity provider named ${idp} is configured.`);
  const secret = clientSecret(env, idp);
  if (!secret) throw new ApiError("provider_unavailable", `The client secret of ${idp} is not configured.`);
  return { ...config, secret };
}

/**
 * The identity providers a sign-in can start with (for GET /config and the sign-in buttons): those
 * in a valid OAUTH_PROVIDERS whose client secret is set and whose idp the routes accept, in
 * configuration order. Nothing secret: id, button label and the start route.
 */
export function configuredProviders(env: Env): { id: string; name: string; start_url: string }[] {
  const parsed = parseProviders(env);
  if (!parsed) return [];
  return Object.entries(parsed)
    .filter(([idp]) => IDP_PATTERN.test(idp) && clientSecret(env, idp) !== null)
    .map(([idp, config]) => ({
      id: idp,
      name: config.name ?? idp.charAt(0).toUpperCase() + idp.slice(1),
      start_url: `/api/v1/auth/oauth/${idp}/start`,
    }));
}

async function discover(issuer: string): Promise<{ doc: Discovery; jwks: ReturnType<typeof createRemoteJWKSet> }> {
  const cached = discoveryCache.get(issuer);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached;
  const url = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  const res = await withTimeout(HTTP_TIMEOUT_MS, "identity provider discovery", () => fetch(url)).catch(() => null);
  if (!res?.ok)
    throw new ApiError(
      "provider_unavailable",
      `The identity provider's discovery document could not be read (${res?.status ?? "network error"}).`,
    );
  const doc = Discovery.safeParse(await res.json());
  if (!doc.success || doc.data.issuer !== issuer)
    throw new ApiError("provider_unavailable", "The identity provider's discovery document is not valid for its issuer.");
  const entry = { at: Date.now(), doc: doc.data, jwks: createRemoteJWKSet(new URL(doc.data.jwks_uri)) };
  discoveryCache.set(issuer, entry);
  return entry;
}

function redirectUri(env: Env, idp: string): string {
  return `${env.PUBLIC_BASE_URL.replace(/\/$/, "")}/api/v1/auth/oauth/${idp}/callback`;
}

/**
 * GET /auth/oauth/{idp}/start: the authorization URL. State, nonce and the PKCE verifier stay on
 * the server (hashed state as key); `binding` goes into a short-lived cookie so only the browser
 * that started the flow can finish it (no login CSRF with someone else's code).
 */
export async function startOAuth(db: DB, env: Env, idp: string): Promise<{ authorization_url: string; state: string; binding: string }> {
  const config = providerConfig(env, idp);
  const { doc } = await discover(config.issuer);
  const state = newToken();
  const nonce = newToken();
  const verifier = newToken();
  const binding = newToken();
  const challenge = base64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  const data: StateData = { idp, nonce, verifier, binding: await sha256Hex(binding) };
  await insertAuthToken(db, {
    id: newId("atk"),
    purpose: "oauth_state",
    tokenHash: await sha256Hex(state),
    userId: null,
    email: null,
    data,
    expiresAt: Date.now() + STATE_TTL_MS,
  });
  const url = new URL(doc.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: config.client_id,
    redirect_uri: redirectUri(env, idp),
    scope: config.scope,
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).toString();
  return { authorization_url: url.toString(), state, binding };
}

function refuse(reason: string, message: string): never {
  throw new ApiError("oauth_failed", message, { details: { reason } });
}

/** The verified identity from the ID token, completed from userinfo when the token omits the email. */
async function exchange(
  env: Env,
  idp: string,
  code: string,
  state: StateData,
): Promise<{ sub: string; email: string | null; emailVerified: boolean }> {
  const config = providerConfig(env, idp);
  const { doc, jwks } = await discover(config.issuer);
  const res = await withTimeout(HTTP_TIMEOUT_MS, "identity provider token endpoint", () =>
    fetch(doc.token_endpoint, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
        Authorization: `Basic ${btoa(`${encodeURIComponent(config.client_id)}:${encodeURIComponent(config.secret)}`)}`,
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri(env, idp),
        code_verifier: state.verifier,
      }),
    }),
  ).catch(() => null);
  if (!res) throw new ApiError("provider_unavailable", "The identity provider's token endpoint could not be reached.");
  const tokens = (await res.json().catch(() => ({}))) as { id_token?: string; access_token?: string; error?: string };
  if (!res.ok || !tokens.id_token) refuse("code", `The identity provider refused the code (${tokens.error ?? res.status}).`);
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(tokens.id_token, jwks, { issuer: doc.issuer, audience: config.client_id }));
  } catch (err) {
    refuse("id_token", `The ID token is not valid: ${err instanceof Error ? err.message : String(err)}.`);
  }
  if (claims.nonce !== state.nonce) refuse("id_token", "The ID token's nonce does not match this sign-in.");
  if (!claims.sub) refuse("id_token", "The ID token has no subject.");
  let profile: Record<string, unknown> = claims;
  if (typeof claims.email !== "string" && doc.userinfo_endpoint && tokens.access_token) {
    const info = await withTimeout(HTTP_TIMEOUT_MS, "identity provider userinfo", () =>
      fetch(doc.userinfo_endpoint!, { headers: { Authorization: `Bearer ${tokens.access_token}` } }),
    ).catch(() => null);
    const body = info?.ok ? ((await info.json()) as Record<string, unknown>) : {};
    if (body.sub === claims.sub) profile = { ...body, ...claims };
  }
  const email = typeof profile.email === "string" ? profile.email.trim().toLowerCase() : null;
  return { sub: claims.sub, email, emailVerified: profile.email_verified === true };
}

/**
 * GET /auth/oauth/{idp}/callback: checks state (single use, same browser), exchanges the code with
 * the PKCE verifier, verifies the ID token (signature, issuer, audience, expiry, nonce), then signs
 * in the linked account, links an existing account by verified email, or creates one.
 */
export async function finishOAuth(
  db: DB,
  env: Env,
  idp: string,
  input: { code: string; state: string; binding: string | undefined },
  client: ClientInfo,
): Promise<SignIn> {
  const used = await consumeAuthToken(db, "oauth_state", await sha256Hex(input.state), Date.now());
  if (!used.ok)
    refuse(
      "state",
      used.reason === "expired" ? "The sign-in took too long; start again." : "The state is unknown or was already used; start again.",
    );
  const state = used.token.data as StateData | null;
  if (!state || state.idp !== idp) refuse("state", "The state belongs to another identity provider.");
  if (!input.binding || (await sha256Hex(input.binding)) !== state.binding) refuse("state", "This sign-in was started in another browser.");

  const identity = await exchange(env, idp, input.code, state);
  const linked = await findIdentity(db, idp, identity.sub);
  let user = linked ? await findUserById(db, linked.userId) : undefined;
  if (linked && user) {
    await touchIdentity(db, linked.id, Date.now());
  } else {
    if (!identity.email) refuse("email", "The identity provider did not share an email address.");
    const existing = await findUserByEmail(db, identity.email);
    // Linking to an existing account on an unverified address would let anyone who registers that
    // address at the provider take the account over.
    if (existing && !identity.emailVerified)
      refuse("email", "An account with this email exists and the provider has not verified the address; sign in with the password.");
    user =
      existing ??
      (await createAccount(db, { email: identity.email, name: null, passwordHash: null, emailVerified: identity.emailVerified }));
    if (existing && existing.emailVerifiedAt === null)
      user = (await updateUser(db, existing.id, { emailVerifiedAt: Date.now() })) ?? existing;
    await insertIdentity(db, { id: newId("oid"), userId: user.id, provider: idp, subject: identity.sub, email: identity.email });
  }
  return openSession(db, env, user, "oauth", client);
}
