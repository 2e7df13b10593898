import { createHmac } from "node:crypto";
import { env } from "cloudflare:workers";
import { api, body } from "../helpers/api";

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  params: URLSearchParams;
}

/**
 * A fetch standing in for api.stripe.com at the provider's boundary: answers each
 * `METHOD /path` with its recorded Stripe response and keeps the requests for assertions.
 */
export function recordedStripe(recordings: Record<string, { status: number; body: unknown }>) {
  const calls: RecordedCall[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    calls.push({
      url: url.toString(),
      method,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      params: new URLSearchParams(String(init?.body ?? "")),
    });
    const recording = recordings[`${method} ${url.pathname}`];
    if (!recording)
      return new Response(
        JSON.stringify({ error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${url.pathname})` } }),
        { status: 404 },
      );
    return new Response(JSON.stringify(recording.body), {
      status: recording.status,
      headers: { "Content-Type": "application/json", "Request-Id": "req_RecordedStripe0001" },
    });
  };
  return { fetch: fetcher, calls };
}

/** Stripe's signature scheme computed with node:crypto (independent of the service's WebCrypto code). */
export function stripeSignature(payload: string, timestamp = Math.floor(Date.now() / 1000), secret = env.STRIPE_WEBHOOK_SECRET!): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex")}`;
}

/** A recorded event with the recording's placeholder ids replaced by this test's payment and user. */
export function recordedEvent(recording: unknown, ids: { paymentId: string; userId: string }): string {
  return JSON.stringify(recording)
    .replaceAll(/pay_recorded0000000000[01]/g, ids.paymentId)
    .replaceAll("usr_recorded00000000000", ids.userId);
}

export async function postStripeEvent(payload: string, signature: string | null = stripeSignature(payload)) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature !== null) headers["Stripe-Signature"] = signature;
  const res = await api("/api/v1/billing/webhooks/stripe", { method: "POST", headers, body: payload });
  return { status: res.status, body: await body(res) };
}
