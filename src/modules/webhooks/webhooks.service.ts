import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { WebhookDeliveryStatus } from "../../db/schema/enums";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { sha256Hex } from "../../lib/crypto";
import { newId, newToken } from "../../lib/ids";
import type { WebhookEventBody, WebhookEventType } from "./events";
import { ROTATION_OVERLAP_MS } from "./signature";
import { checkWebhookUrl, urlPolicy } from "./url-guard";
import * as repo from "./webhooks.repo";
import type { WebhookCreateRequest, WebhookDeliveryOut, WebhookOut, WebhookUpdateRequest } from "./webhooks.schemas";
import { log } from "../../lib/log";
import { iso } from "../../lib/time";

/** Endpoints an account may register. */
export const MAX_ENDPOINTS = 10;

/** A queue message: which delivery to attempt. */
export interface DeliveryMessage {
  delivery_id: string;
}

function newSecret(): string {
  return `whsec_${newToken()}`;
}

export function toWebhookOut(e: repo.EndpointRow): z.infer<typeof WebhookOut> {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.active,
    secret_prefix: e.secretPrefix,
    failure_count: e.failureCount,
    disabled_at: iso(e.disabledAt),
    previous_secret_expires_at:
      e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > Date.now() ? iso(e.previousSecretExpiresAt) : null,
    created_at: iso(e.createdAt)!,
    updated_at: iso(e.updatedAt)!,
  };
}

export function toDeliveryOut(d: repo.DeliveryRow): z.infer<typeof WebhookDeliveryOut> {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    response_status: d.responseStatus,
    response_excerpt: d.responseBodyExcerpt,
    latency_ms: d.durationMs,
    next_retry_at: d.status === "failed" ? iso(d.nextAttemptAt) : null,
    replay_of: d.replayOf,
    created_at: iso(d.createdAt)!,
    last_attempt_at: iso(d.lastAttemptAt),
    delivered_at: iso(d.deliveredAt),
  };
}

async function ownEndpoint(db: DB, auth: AuthContext, id: string): Promise<repo.EndpointRow> {
  const endpoint = await repo.findEndpoint(db, auth.userId, id);
  if (!endpoint) throw new ApiError("not_found", `No webhook endpoint ${id}.`);
  return endpoint;
}

/** POST /account/webhooks: checks the URL (scheme, SSRF), stores the endpoint; the secret is in this answer only. */
export async function createEndpoint(env: Env, db: DB, auth: AuthContext, req: z.infer<typeof WebhookCreateRequest>) {
  const url = await checkWebhookUrl(req.url, urlPolicy(env));
  if ((await repo.countEndpoints(db, auth.userId)) >= MAX_ENDPOINTS) {
    throw new ApiError("conflict", `An account can register at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`, {
      details: { limit: MAX_ENDPOINTS },
    });
  }
  const id = newId("whe");
  const secret = newSecret();
  const now = Date.now();
  await repo.insertEndpoint(db, {
    id,
    userId: auth.userId,
    url: url.toString(),
    description: req.description ?? null,
    events: req.events,
    secret,
    secretPrefix: secret.slice(0, 12),
    active: req.enabled,
    disabledAt: req.enabled ? null : now,
    createdAt: now,
    updatedAt: now,
  });
  return { ...toWebhookOut((await repo.findEndpoint(db, auth.userId, id))!), secret };
}

export async function listEndpoints(db: DB, auth: AuthContext) {
  return (await repo.listEndpoints(db, auth.userId)).map(toWebhookOut);
}

export async function getEndpoint(db: DB, auth: AuthContext, id: string) {
  return toWebhookOut(await ownEndpoint(db, auth, id));
}

/** PATCH /account/webhooks/{id}: URL (checked again), events, description, enabled (re-enabling clears the failure run). */
export async function updateEndpoint(env: Env, db: DB, auth: AuthContext, id: string, req: z.infer<typeof WebhookUpdateRequest>) {
  const endpoint = await ownEndpoint(db, auth, id);
  const url = req.url !== undefined ? (await checkWebhookUrl(req.url, urlPolicy(env))).toString() : undefined;
  const enabling = req.enabled === true && !endpoint.active;
  const disabling = req.enabled === false && endpoint.active;
  await repo.updateEndpoint(db, endpoint.id, {
    ...(url !== undefined ? { url } : {}),
    ...(req.events !== undefined ? { events: req.events } : {}),
    ...(req.description !== undefined ? { description: req.description } : {}),
    ...(enabling ? { active: true, failureCount: 0, disabledAt: null } : {}),
    ...(disabling ? { active: false, disabledAt: Date.now() } : {}),
  });
  return toWebhookOut((await repo.findEndpoint(db, auth.userId, id))!);
}

/**
 * POST /account/webhooks/{id}/rotate: a new secret signs from now on; the one it replaces keeps
 * signing alongside it for 24 hours (two `v1=` values), so receivers can switch without a gap.
 */
export async function rotateSecret(db: DB, auth: AuthContext, id: string) {
  const endpoint = await ownEndpoint(db, auth, id);
  const secret = newSecret();
  const expires = Date.now() + ROTATION_OVERLAP_MS;
  await repo.updateEndpoint(db, endpoint.id, {
    secret,
    secretPrefix: secret.slice(0, 12),
    previousSecret: endpoint.secret,
    previousSecretExpiresAt: expires,
  });
  return { endpoint_id: endpoint.id, secret, secret_prefix: secret.slice(0, 12), previous_secret_expires_at: iso(expires)! };
}

export async function deleteEndpoint(db: DB, auth: AuthContext, id: string): Promise<void> {
  if (!(await repo.deleteEndpoint(db, auth.userId, id))) throw new ApiError("not_found", `No webhook endpoint ${id}.`);
}

export async function listDeliveries(
  db: DB,
  auth: AuthContext,
  id: string,
  q: { status?: WebhookDeliveryStatus; limit: number; offset: number },
) {
  const endpoint = await ownEndpoint(db, auth, id);
  return (await repo.listDeliveries(db, endpoint.id, q)).map(toDeliveryOut);
}

async function enqueue(env: Env, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await env.WEBHOOKS.sendBatch(
    deliveryIds.map((id) => ({ body: { delivery_id: id } satisfies DeliveryMessage, contentType: "json" as const })),
  );
}

/** POST /account/webhooks/deliveries/{id}/replay: the same event (id, body) sent again as a new delivery. */
export async function replayDelivery(env: Env, db: DB, auth: AuthContext, deliveryId: string) {
  const original = await repo.findDelivery(db, auth.userId, deliveryId);
  if (!original) throw new ApiError("not_found", `No webhook delivery ${deliveryId}.`);
  const endpoint = await ownEndpoint(db, auth, original.endpointId);
  if (!endpoint.active)
    throw new ApiError("conflict", "The endpoint is disabled; enable it before replaying deliveries.", {
      details: { endpoint_id: endpoint.id },
    });
  const id = newId("dlv");
  await repo.insertDeliveries(db, [
    {
      id,
      endpointId: endpoint.id,
      userId: auth.userId,
      eventId: original.eventId,
      eventType: original.eventType,
      payload: original.payload,
      replayOf: original.id,
    },
  ]);
  await enqueue(env, [id]);
  return toDeliveryOut((await repo.findDelivery(db, auth.userId, id))!);
}

/**
 * Emits an event to the account's webhooks: stores the event body (`evt_…`) in one delivery
 * (`dlv_…`) per active endpoint subscribed to `type`, then queues the deliveries. With a
 * `dedupeKey`, the event id is derived from it, so emitting the same thing twice (a retried step)
 * delivers once. Never throws: a failure is logged and must not fail the work that emitted it;
 * deliveries whose queue message was lost are re-queued by the scheduled sweep.
 * Returns the event id, or null when no endpoint wants the event.
 */
export async function emitEvent(
  env: Env,
  db: DB,
  userId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  opts: { dedupeKey?: string } = {},
): Promise<string | null> {
  try {
    const endpoints = await repo.subscribedEndpoints(db, userId, type);
    if (endpoints.length === 0) return null;
    const eventId = opts.dedupeKey ? `evt_${(await sha256Hex(opts.dedupeKey)).slice(0, 20)}` : newId("evt");
    const body: WebhookEventBody = { id: eventId, type, created_at: new Date().toISOString(), data };
    const inserted = await repo.insertDeliveries(
      db,
      endpoints.map((e) => ({ id: newId("dlv"), endpointId: e.id, userId, eventId, eventType: type, payload: { ...body } })),
    );
    await enqueue(env, inserted);
    return eventId;
  } catch (err) {
    log.error("webhook event not emitted", { user_id: userId, type, error: err });
    return null;
  }
}

/** The fields of a finished job that its `job.*` / `batch.completed` event carries. */
export interface FinishedJob {
  id: string;
  userId: string;
  status: string;
  kind: string;
  tool: string;
  attempt: number;
  projectId: string | null;
  parentJobId: string | null;
  pagesTotal: number;
  pagesDone: number;
  pagesFailed: number;
  creditsCharged: number;
  error: { code: string; message: string; retryable: boolean; details?: Record<string, unknown> } | null;
  finishedAt: number | null;
}

/**
 * Emits the event of a job that reached a terminal state: `batch.completed` for a batch parent
 * that finished, `job.<status>` otherwise. Keyed by job, attempt and status, so calling it again
 * for the same outcome (a retried step) delivers nothing new.
 */
export async function emitJobEvent(env: Env, db: DB, job: FinishedJob): Promise<string | null> {
  const terminal = ["completed", "partially_completed", "failed", "cancelled"] as const;
  const status = terminal.find((s) => s === job.status);
  if (!status) return null;
  const type: WebhookEventType = job.kind === "batch" && status !== "cancelled" ? "batch.completed" : `job.${status}`;
  const data = {
    job_id: job.id,
    status,
    tool: job.tool,
    kind: job.kind,
    attempt: job.attempt,
    project_id: job.projectId,
    parent_job_id: job.parentJobId,
    pages_total: job.pagesTotal,
    pages_done: job.pagesDone,
    pages_failed: job.pagesFailed,
    credits_charged: job.creditsCharged,
    error: job.error
      ? { code: job.error.code, message: job.error.message, retryable: job.error.retryable, details: job.error.details ?? {} }
      : null,
    finished_at: iso(job.finishedAt),
    url: `/api/v1/jobs/${job.id}`,
  };
  return emitEvent(env, db, job.userId, type, data, { dedupeKey: `job:${job.id}:${job.attempt}:${status}` });
}
