import { ApiError } from "../../http/errors";
import { hmacSha256Hex, timingSafeEqualStr } from "../../lib/crypto";

/** Stripe's default tolerance between the signed timestamp and our clock. */
export const STRIPE_TOLERANCE_SECONDS = 300;

function refuse(message: string): never {
  throw new ApiError("invalid_signature", message);
}

/**
 * Verifies a `Stripe-Signature` header (`t=<unix>,v1=<hex>[,v1=<hex>…]`, Stripe's scheme): one of
 * the `v1` values must be HMAC-SHA256 of `"<t>.<raw body>"` under the endpoint's signing secret,
 * and `t` within the tolerance of `nowSeconds`. Other schemes (`v0`) are ignored, as Stripe's
 * libraries do. Throws `invalid_signature`.
 */
export async function verifyStripeSignature(
  payload: string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = STRIPE_TOLERANCE_SECONDS,
): Promise<void> {
  if (!header) refuse("The Stripe-Signature header is missing.");
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === "v1") signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) refuse("The Stripe-Signature header has no timestamp or no v1 signature.");
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    refuse(`The Stripe-Signature timestamp is more than ${toleranceSeconds} s away from the current time.`);
  }
  const expected = await hmacSha256Hex(secret, `${timestamp}.${payload}`);
  if (!signatures.some((s) => timingSafeEqualStr(s, expected)))
    refuse("No v1 signature in the Stripe-Signature header matches the payload.");
}
