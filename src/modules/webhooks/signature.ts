import { hmacSha256Hex } from "../../lib/crypto";

/** How long a rotated-out secret keeps signing alongside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * `X-Service-Signature`: `t=<unix seconds>,v1=<hex>` where the hex is HMAC-SHA256 of
 * `"<t>.<raw body>"` under the endpoint's secret; during a rotation's overlap one `v1=` per
 * live secret (newest first), so receivers holding either secret verify.
 */
export async function signatureHeader(body: string, secrets: string[], timestamp: number): Promise<string> {
  const signatures = await Promise.all(secrets.map((s) => hmacSha256Hex(s, `${timestamp}.${body}`)));
  return [`t=${timestamp}`, ...signatures.map((s) => `v1=${s}`)].join(",");
}

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
export function signingSecrets(
  e: { secret: string; previousSecret: string | null; previousSecretExpiresAt: number | null },
  now: number,
): string[] {
  return e.previousSecret && e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt > now
    ? [e.secret, e.previousSecret]
    : [e.secret];
}
