import { LingoscanError } from "./errors.js";

/** A webhook delivery's body: `{ id: "evt_…", type, created_at, data }`. */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  data: D;
}

export interface VerifyWebhookOptions {
  /** Largest accepted distance between the signature's timestamp and now, in seconds; default 300. */
  toleranceSeconds?: number;
  /** The current time in ms (tests); default Date.now(). */
  now?: number;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === wanted) return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
  }
  return null;
}

function invalid(message: string): LingoscanError {
  return new LingoscanError({ code: "webhook_signature_invalid", message, retryable: false });
}

function hexToBytes(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Compares in time independent of where the bytes differ. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Verifies a webhook delivery and returns its parsed event. The service signs
 * `X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` with HMAC-SHA256 of
 * `"<t>.<raw body>"`; during a secret rotation there is one `v1` per live secret. Pass the raw
 * body exactly as received (before JSON parsing) and one secret, or several while rotating.
 * Throws LingoscanError `webhook_signature_invalid` when no signature matches or `t` is stale.
 */
export async function verifyWebhook<D = Record<string, unknown>>(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: HeaderSource,
  secret: string | string[],
  opts: VerifyWebhookOptions = {},
): Promise<WebhookEvent<D>> {
  const signature = header(headers, "X-Service-Signature");
  if (!signature) throw invalid("The X-Service-Signature header is missing.");
  const parts = signature.split(",").map((p) => {
    const at = p.indexOf("=");
    return [p.slice(0, at).trim(), p.slice(at + 1).trim()] as const;
  });
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t)) throw invalid("The signature carries no timestamp.");
  const tolerance = opts.toleranceSeconds ?? 300;
  if (Math.abs((opts.now ?? Date.now()) / 1000 - t) > tolerance)
    throw invalid(`The signature's timestamp is more than ${tolerance} s from now.`);
  const candidates = parts
    .filter(([k]) => k === "v1")
    .map(([, v]) => hexToBytes(v))
    .filter((b): b is Uint8Array => b !== null);
  if (candidates.length === 0) throw invalid("The signature carries no v1 value.");

  const body = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody);
  const prefix = new TextEncoder().encode(`${t}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);

  for (const s of Array.isArray(secret) ? secret : [secret]) {
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(s), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, signed));
    if (candidates.some((c) => equalBytes(c, expected))) {
      return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent<D>;
    }
  }
  throw invalid("No signature matches the secret.");
}
