import { and, count, eq, lt, sql } from "drizzle-orm";
import type { DB } from "../../db/client";
import { firstRow, newestRows } from "../../db/rows";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema";
import type { WebhookDeliveryStatus } from "../../db/schema/enums";
import { rowsWritten } from "../../db/written";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's webhook endpoints and deliveries, for its data export (signing secrets are removed there). */
export const ACCOUNT_ROWS: AccountRows = { webhooks: ownRows("webhook_endpoints"), webhook_deliveries: ownRows("webhook_deliveries") };

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function insertEndpoint(db: DB, row: typeof webhookEndpoints.$inferInsert): Promise<void> {
  await db.insert(webhookEndpoints).values(row);
}

export async function countEndpoints(db: DB, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
  return row?.n ?? 0;
}

export async function listEndpoints(db: DB, userId: string): Promise<EndpointRow[]> {
  return newestRows(db, webhookEndpoints, eq(webhookEndpoints.userId, userId));
}

export async function findEndpoint(db: DB, userId: string, id: string): Promise<EndpointRow | undefined> {
  return firstRow(db, webhookEndpoints, and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
}

/** Applies a patch (possibly empty: a request that changes nothing still marks the endpoint updated). */
export async function updateEndpoint(db: DB, id: string, patch: Partial<typeof webhookEndpoints.$inferInsert>): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ ...patch, updatedAt: Date.now() })
    .where(eq(webhookEndpoints.id, id));
}

export async function deleteEndpoint(db: DB, userId: string, id: string): Promise<boolean> {
  const res = await db.$client.prepare("DELETE FROM webhook_endpoints WHERE id = ? AND user_id = ? RETURNING id").bind(id, userId).run();
  return rowsWritten(res) === 1;
}

/** Active endpoints of an account subscribed to `type` (or to everything). */
export async function subscribedEndpoints(db: DB, userId: string, type: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.userId, userId),
        eq(webhookEndpoints.active, true),
        sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.events}) WHERE value IN ('*', ${type}))`,
      ),
    );
}

/**
 * Inserts the deliveries of one event; a delivery that exists for the same endpoint and event
 * (the event was emitted before under the same dedupe key) is skipped. Returns the ids inserted.
 */
export async function insertDeliveries(db: DB, rows: (typeof webhookDeliveries.$inferInsert)[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const now = Date.now();
  const results = await db.$client.batch(
    rows.map((r) =>
      db.$client
        .prepare(
          `INSERT OR IGNORE INTO webhook_deliveries (id, endpoint_id, user_id, event_id, event_type, payload, replay_of, status, attempts, next_attempt_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) RETURNING id`,
        )
        .bind(r.id, r.endpointId, r.userId, r.eventId, r.eventType, JSON.stringify(r.payload), r.replayOf ?? null, now, now, now),
    ),
  );
  return rows.filter((_, i) => rowsWritten(results[i]) === 1).map((r) => r.id!);
}

export async function findDelivery(db: DB, userId: string, id: string): Promise<DeliveryRow | undefined> {
  return firstRow(db, webhookDeliveries, and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.userId, userId)));
}

/** A delivery with its endpoint, for the queue consumer (no owner scope: messages come from us). */
export async function deliveryForSending(db: DB, id: string): Promise<{ delivery: DeliveryRow; endpoint: EndpointRow } | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, id))
    .limit(1);
  return row;
}

export async function listDeliveries(
  db: DB,
  endpointId: string,
  q: { status?: WebhookDeliveryStatus; limit: number; offset: number },
): Promise<DeliveryRow[]> {
  return newestRows(
    db,
    webhookDeliveries,
    and(eq(webhookDeliveries.endpointId, endpointId), q.status ? eq(webhookDeliveries.status, q.status) : undefined),
    q,
  );
}

/**
 * Records one attempt on the delivery and its endpoint in one transaction: a success resets the
 * endpoint's run of failures, a failure extends it. Returns the endpoint's failures in a row.
 */
export async function recordAttempt(
  db: DB,
  a: {
    deliveryId: string;
    endpointId: string;
    ok: boolean;
    status: WebhookDeliveryStatus;
    responseStatus: number | null;
    excerpt: string;
    durationMs: number | null;
    nextAttemptAt: number | null;
    at: number;
  },
): Promise<number> {
  const d1 = db.$client;
  const [, , endpoint] = await d1.batch([
    d1
      .prepare(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, response_status = ?, response_body_excerpt = ?, duration_ms = ?,
           next_attempt_at = ?, last_attempt_at = ?, delivered_at = CASE WHEN ? THEN ? ELSE delivered_at END, updated_at = ? WHERE id = ?`,
      )
      .bind(a.status, a.responseStatus, a.excerpt, a.durationMs, a.nextAttemptAt, a.at, a.ok ? 1 : 0, a.at, a.at, a.deliveryId),
    d1
      .prepare(`UPDATE webhook_endpoints SET failure_count = ${a.ok ? "0" : "failure_count + 1"}, updated_at = ? WHERE id = ?`)
      .bind(a.at, a.endpointId),
    d1.prepare("SELECT failure_count FROM webhook_endpoints WHERE id = ?").bind(a.endpointId),
  ]);
  return (endpoint?.results[0] as { failure_count: number } | undefined)?.failure_count ?? 0;
}

/** Marks a delivery finished without another attempt (gave up, or nowhere to send it). */
export async function closeDelivery(db: DB, id: string, status: "failed" | "dead", note?: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status, nextAttemptAt: null, ...(note ? { responseBodyExcerpt: note } : {}) })
    .where(and(eq(webhookDeliveries.id, id), sql`${webhookDeliveries.status} IN ('pending', 'failed')`));
}

/** Disables an endpoint once; true when this call disabled it. */
export async function disableEndpoint(db: DB, id: string, at: number): Promise<boolean> {
  const res = await db.$client
    .prepare("UPDATE webhook_endpoints SET active = 0, disabled_at = ?, updated_at = ? WHERE id = ? AND active = 1 RETURNING id")
    .bind(at, at, id)
    .run();
  return rowsWritten(res) === 1;
}

/** Deliveries never tried although created a while ago (their queue message was lost). */
export async function stalledDeliveries(db: DB, before: number, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.attempts, 0),
        lt(webhookDeliveries.createdAt, before),
        eq(webhookEndpoints.active, true),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}
