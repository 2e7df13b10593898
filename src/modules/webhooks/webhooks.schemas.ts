import { z } from "@hono/zod-openapi";
import { pathId, queryEnum, resourceId, resourceOut } from "../../http/openapi";
import { WEBHOOK_DELIVERY_STATUSES } from "../../db/schema/enums";
import { WEBHOOK_EVENT_TYPES } from "./events";

const ts = z.string().openapi({ format: "date-time", example: "2026-03-01T12:00:00.000Z" });
const EventKinds = z
  .array(z.union([z.enum(WEBHOOK_EVENT_TYPES), z.literal("*")]))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .transform((e) => (e.includes("*") ? ["*"] : [...new Set(e)]))
  .openapi({ description: "Event kinds to deliver; `*` for all.", example: ["job.completed", "job.failed"] });

export const WebhookCreateRequest = z
  .object({
    url: z.string().min(1).max(2000).openapi({
      example: "https://example.com/hooks/lingoscan",
      description: "https (http only in development); never a private, loopback or link-local address.",
    }),
    events: EventKinds.default(["*"]),
    description: z.string().trim().max(200).optional(),
    enabled: z.boolean().default(true),
  })
  .strict()
  .openapi("WebhookCreateRequest");

export const WebhookUpdateRequest = z
  .object({
    url: z.string().min(1).max(2000).optional(),
    events: EventKinds.optional(),
    description: z.string().trim().max(200).nullable().optional(),
    enabled: z.boolean().optional().openapi({ description: "Re-enabling an endpoint resets its failure count." }),
  })
  .strict()
  .openapi("WebhookUpdateRequest");

export const WebhookOut = resourceOut("WebhookOut", "whe", {
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  secret_prefix: z.string().openapi({ description: "First characters of the signing secret." }),
  failure_count: z.number().int().openapi({ description: "Failed delivery attempts in a row." }),
  disabled_at: ts
    .nullable()
    .openapi({ description: "Set when the service disabled the endpoint after failing deliveries, or the owner did." }),
  previous_secret_expires_at: ts
    .nullable()
    .openapi({ description: "Until then, deliveries are also signed with the secret before the last rotation." }),
  created_at: ts,
  updated_at: ts,
});

export const WebhookCreatedOut = WebhookOut.extend({
  secret: z.string().openapi({ description: "The signing secret; shown only now.", example: "whsec_…" }),
}).openapi("WebhookCreatedOut");

export const WebhookRotateOut = z
  .object({ endpoint_id: z.string(), secret: z.string(), secret_prefix: z.string(), previous_secret_expires_at: z.string() })
  .openapi("WebhookRotateOut");

export const WebhookDeliveryOut = resourceOut("WebhookDeliveryOut", "dlv", {
  endpoint_id: z.string(),
  event_id: resourceId("evt"),
  event_type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).openapi({
    description: "pending (not tried yet), failed (last attempt failed; retried while next_retry_at is set), delivered, dead (gave up).",
  }),
  attempts: z.number().int(),
  response_status: z.number().int().nullable(),
  response_excerpt: z.string().nullable().openapi({ description: "First bytes of the receiver's answer, or the network error." }),
  latency_ms: z.number().int().nullable(),
  next_retry_at: ts.nullable(),
  replay_of: z.string().nullable(),
  created_at: ts,
  last_attempt_at: ts.nullable(),
  delivered_at: ts.nullable(),
});

export const EndpointIdParam = z.object({
  endpoint_id: pathId("endpoint_id", "whe"),
});

export const DeliveryIdParam = z.object({
  delivery_id: pathId("delivery_id", "dlv"),
});

export const DeliveryListQuery = z.object({
  status: queryEnum("status", WEBHOOK_DELIVERY_STATUSES),
});
