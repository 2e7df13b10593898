/** Event kinds an endpoint can subscribe to (`*` subscribes to all). Bodies are documented in the README. */
export const WEBHOOK_EVENT_TYPES = [
  "job.completed",
  "job.partially_completed",
  "job.failed",
  "job.cancelled",
  "batch.completed",
  "export.ready",
  "wallet.low_balance",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The body of every delivery: the event, as stored and signed. */
export interface WebhookEventBody {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}
