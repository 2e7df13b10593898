import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ownedRow, users } from "./auth";
import { bool, createdAt, id, ms, parent, timestamps } from "./columns";
import { IDEMPOTENCY_STATUSES, WEBHOOK_DELIVERY_STATUSES } from "./enums";
import type { WebhookPayload } from "./types";

/**
 * Webhook endpoints of an account. The signing secret must be readable to sign deliveries, so it
 * is stored (the app may encrypt it with a key derived from SIGNING_SECRET); after a rotation the
 * previous secret keeps signing alongside the new one until `previous_secret_expires_at`.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    ...ownedRow(), // whe_…
    url: text("url").notNull(),
    description: text("description"),
    /** Subscribed event kinds (`job.completed`, …); `["*"]` for all. */
    events: text("events", { mode: "json" }).$type<string[]>().notNull().default(["*"]),
    secret: text("secret").notNull(),
    /** First characters of the secret for display. */
    secretPrefix: text("secret_prefix").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ms("previous_secret_expires_at"),
    active: bool("active").notNull().default(true),
    /** Consecutive failed deliveries; the endpoint is disabled past a threshold. */
    failureCount: integer("failure_count").notNull().default(0),
    ...timestamps(),
    disabledAt: ms("disabled_at"),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId, t.createdAt)],
);

/**
 * One delivery of one event (`evt_…`) to one endpoint (`dlv_…`). The unique index makes the
 * fan-out idempotent; a replay re-queues the row, or inserts a new row with `replay_of` set.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(), // dlv_…
    endpointId: parent("endpoint_id", () => webhookEndpoints.id),
    /** Owner, denormalised so deliveries/{id}/replay can be scoped without a join. */
    userId: parent("user_id", () => users.id),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: text("payload", { mode: "json" }).$type<WebhookPayload>().notNull(),
    replayOf: text("replay_of").references((): AnySQLiteColumn => webhookDeliveries.id, { onDelete: "set null" }),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    /** First bytes of the receiver's answer (or the network error), for the deliveries list. */
    responseBodyExcerpt: text("response_body_excerpt"),
    durationMs: integer("duration_ms"),
    nextAttemptAt: ms("next_attempt_at"),
    ...timestamps(),
    lastAttemptAt: ms("last_attempt_at"),
    deliveredAt: ms("delivered_at"),
  },
  (t) => [
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_user_idx").on(t.userId),
    index("webhook_deliveries_status_next_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_event_idx").on(t.eventId),
    index("webhook_deliveries_replay_of_idx").on(t.replayOf),
    uniqueIndex("webhook_deliveries_endpoint_event_unique")
      .on(t.endpointId, t.eventId)
      .where(sql`"replay_of" IS NULL`),
  ],
);

/** Glossaries: forced translations of terms for one language pair. */
export const glossaries = sqliteTable(
  "glossaries",
  {
    ...ownedRow(), // gls_…
    name: text("name").notNull(),
    sourceLanguage: text("source_language").notNull(),
    targetLanguage: text("target_language").notNull(),
    ...timestamps(),
  },
  (t) => [index("glossaries_user_langs_idx").on(t.userId, t.sourceLanguage, t.targetLanguage)],
);

/** Terms of a glossary; PUT …/terms replaces them all (delete + insert in one batch). */
export const glossaryTerms = sqliteTable(
  "glossary_terms",
  {
    glossaryId: parent("glossary_id", () => glossaries.id),
    source: text("source").notNull(),
    target: text("target").notNull(),
    caseSensitive: bool("case_sensitive").notNull().default(false),
    /** Order in which the terms were given. */
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ name: "glossary_terms_pk", columns: [t.glossaryId, t.source] })],
);

/**
 * Translation memory: translations the user confirmed or edited, reused for identical source
 * segments. `source_hash` is a hash of the normalised source text.
 */
export const translationMemory = sqliteTable(
  "translation_memory",
  {
    ...ownedRow(), // tm_…
    sourceLanguage: text("source_language").notNull(),
    targetLanguage: text("target_language").notNull(),
    sourceHash: text("source_hash").notNull(),
    sourceText: text("source_text").notNull(),
    targetText: text("target_text").notNull(),
    uses: integer("uses").notNull().default(0),
    ...timestamps(),
    lastUsedAt: ms("last_used_at"),
  },
  (t) => [
    uniqueIndex("translation_memory_lookup_unique").on(t.userId, t.sourceLanguage, t.targetLanguage, t.sourceHash),
    index("translation_memory_user_updated_idx").on(t.userId, t.updatedAt),
  ],
);

/**
 * Stored results of POSTs sent with an Idempotency-Key, per account and key. A repeat with the
 * same request hash gets the stored response; a different request, or one still in flight, is refused.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: parent("user_id", () => users.id),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    requestHash: text("request_hash").notNull(),
    status: text("status", { enum: IDEMPOTENCY_STATUSES }).notNull().default("in_flight"),
    responseStatus: integer("response_status"),
    /** The response body as sent (JSON text). */
    responseBody: text("response_body"),
    /** Id of what the request created (job_…, pay_…). */
    resourceId: text("resource_id"),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
  },
  (t) => [primaryKey({ name: "idempotency_keys_pk", columns: [t.userId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
