import { z } from "zod";
import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { mailer } from "../../providers/mail/mailer";
import { signatureHeader, signingSecrets } from "./signature";
import { checkWebhookUrl, urlPolicy } from "./url-guard";
import * as repo from "./webhooks.repo";
import { type DeliveryMessage } from "./webhooks.service";
import { log } from "../../lib/log";

/** Per attempt: receivers must answer within this. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Waits before retry n (after the n-th failed attempt): 30 s doubling to an hour, then up to the
 * queue's 12 h maximum; 15 attempts span about three days. Its length must equal the consumer's
 * `max_retries` in wrangler.toml: after the last retry the queue moves the message to the
 * dead-letter queue, whose consumer records the delivery as dead.
 */
export const RETRY_DELAYS_SECONDS = [30, 60, 300, 900, 1800, 3600, 7200, 14400, 21600, 43200, 43200, 43200, 43200, 43200];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

const EXCERPT_CHARS = 500;
const Message = z.object({ delivery_id: z.string().regex(/^dlv_[a-z0-9]{20}$/) });

/** An account's address by its id, closed or not. */
export type AccountEmail = (db: DB, userId: string) => Promise<string | undefined>;

export type Outcome = { ack: true } | { ack: false; delaySeconds: number };

/** First characters of a response body, reading no more than needed. */
async function excerpt(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, EXCERPT_CHARS);
}

/**
 * One delivery attempt: checks the URL again (DNS may have changed since the endpoint was saved),
 * signs the stored body with every live secret, POSTs it with a 10 s timeout without following
 * redirects, and records the attempt. Failures (network, timeout, non-2xx) are retried with
 * backoff; a URL that is now refused is not. `queueAttempt` is the message's attempt number.
 */
export async function attemptDelivery(
  env: Env,
  db: DB,
  deliveryId: string,
  queueAttempt: number,
  fetcher: typeof fetch = (i, init) => fetch(i, init),
): Promise<Outcome> {
  const row = await repo.deliveryForSending(db, deliveryId);
  if (!row) return { ack: true }; // the endpoint was deleted with its deliveries
  const { delivery, endpoint } = row;
  if (delivery.status === "delivered" || delivery.status === "dead") return { ack: true };
  if (!endpoint.active) {
    await repo.closeDelivery(db, delivery.id, "failed", "Not sent: the endpoint is disabled.");
    return { ack: true };
  }
  const now = Date.now();
  const delay = RETRY_DELAYS_SECONDS[queueAttempt - 1];
  const failed = async (responseStatus: number | null, text: string, durationMs: number | null, retry: boolean): Promise<Outcome> => {
    const retrying = retry && delay !== undefined;
    await repo.recordAttempt(db, {
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      ok: false,
      status: "failed",
      responseStatus,
      excerpt: text.slice(0, EXCERPT_CHARS),
      durationMs,
      nextAttemptAt: retrying ? now + delay * 1000 : null,
      at: now,
    });
    // Past the last delay the message is retried once more so the queue dead-letters it.
    return retry ? { ack: false, delaySeconds: delay ?? 0 } : { ack: true };
  };

  try {
    await checkWebhookUrl(endpoint.url, urlPolicy(env, fetcher));
  } catch (err) {
    if (err instanceof ApiError && err.code === "validation_error") return failed(null, `Not sent: ${err.message}`, null, false);
    return failed(null, `Not sent: ${err instanceof Error ? err.message : String(err)}`, null, true);
  }

  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(now / 1000);
  const started = Date.now();
  let res: Response;
  try {
    res = await fetcher(endpoint.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Lingoscan-Webhooks/1.0",
        "X-Service-Signature": await signatureHeader(body, signingSecrets(endpoint, now), timestamp),
        "X-Service-Event": delivery.eventType,
        "X-Service-Event-Id": delivery.eventId,
        "X-Service-Delivery": delivery.id,
      },
      body,
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return failed(
      null,
      timedOut ? `Timed out after ${DELIVERY_TIMEOUT_MS} ms` : `Network error: ${String(err)}`,
      Date.now() - started,
      true,
    );
  }
  const text = await excerpt(res).catch(() => "");
  const durationMs = Date.now() - started;
  if (res.status >= 200 && res.status < 300) {
    await repo.recordAttempt(db, {
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      ok: true,
      status: "delivered",
      responseStatus: res.status,
      excerpt: text,
      durationMs,
      nextAttemptAt: null,
      at: now,
    });
    return { ack: true };
  }
  return failed(res.status, text, durationMs, true);
}

/** The api Worker's consumer of `lingoscan-webhooks`: each message is one delivery attempt. */
export async function consumeDeliveries(env: Env, db: DB, batch: MessageBatch<unknown>): Promise<void> {
  for (const msg of batch.messages) {
    const parsed = Message.safeParse(msg.body);
    if (!parsed.success) {
      log.error("malformed webhook queue message dropped", { id: msg.id, body: msg.body });
      msg.ack();
      continue;
    }
    try {
      const outcome = await attemptDelivery(env, db, parsed.data.delivery_id, msg.attempts);
      if (outcome.ack) msg.ack();
      else msg.retry({ delaySeconds: outcome.delaySeconds });
    } catch (err) {
      // Our own failure (D1 unreachable…): try the message again shortly.
      log.error("webhook delivery crashed", { delivery_id: parsed.data.delivery_id, error: err });
      msg.retry({ delaySeconds: RETRY_DELAYS_SECONDS[0] });
    }
  }
}

/**
 * The consumer of `lingoscan-webhooks-dlq`: a delivery whose retries ran out is recorded dead.
 * When every attempt to its endpoint failed over those three days (the endpoint's run of failures
 * reaches MAX_ATTEMPTS), the endpoint is disabled and its owner told by mail, at the address
 * `accountEmail` finds (the auth domain owns accounts and ranks above webhooks: the composition
 * passes its lookup).
 */
export async function consumeDeadLetters(env: Env, db: DB, batch: MessageBatch<unknown>, accountEmail: AccountEmail): Promise<void> {
  for (const msg of batch.messages) {
    const parsed = Message.safeParse(msg.body);
    if (parsed.success) {
      const row = await repo.deliveryForSending(db, parsed.data.delivery_id);
      if (row) {
        await repo.closeDelivery(db, row.delivery.id, "dead");
        if (row.endpoint.failureCount >= MAX_ATTEMPTS) await disableFailingEndpoint(env, db, row.endpoint, accountEmail);
      }
    }
    msg.ack();
  }
}

async function disableFailingEndpoint(env: Env, db: DB, endpoint: repo.EndpointRow, accountEmail: AccountEmail): Promise<void> {
  if (!(await repo.disableEndpoint(db, endpoint.id, Date.now()))) return;
  log.warn("webhook endpoint disabled after failing deliveries", {
    endpoint_id: endpoint.id,
    user_id: endpoint.userId,
    failures: endpoint.failureCount,
  });
  const to = await accountEmail(db, endpoint.userId);
  if (!to) return;
  try {
    await mailer(env).send({
      to,
      kind: "webhook_disabled",
      subject: "A Lingoscan webhook endpoint was disabled",
      text: [
        `Deliveries to your webhook endpoint ${endpoint.url} (${endpoint.id}) failed ${endpoint.failureCount} times in a row over about three days, so it has been disabled.`,
        "",
        'Fix the receiver, then re-enable the endpoint (PATCH /api/v1/account/webhooks/{id} with {"enabled": true}) and replay the deliveries you need from its delivery log.',
      ].join("\n"),
    });
  } catch (err) {
    log.error("could not mail the owner of a disabled webhook endpoint", { endpoint_id: endpoint.id, error: err });
  }
}

/** Scheduled: re-queues deliveries never attempted 10 minutes after they were created (a lost queue send). */
export async function requeueStalledDeliveries(env: Env, db: DB, now: number): Promise<number> {
  const ids = await repo.stalledDeliveries(db, now - 10 * 60 * 1000);
  if (ids.length)
    await env.WEBHOOKS.sendBatch(ids.map((id) => ({ body: { delivery_id: id } satisfies DeliveryMessage, contentType: "json" as const })));
  return ids.length;
}
