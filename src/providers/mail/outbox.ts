import { newId } from "../../lib/ids";
import { keys } from "../../lib/storage";
import type { MailMessage, Mailer } from "./mail-message";

export interface OutboxEntry extends MailMessage {
  id: string;
  sent_at: string;
}

/** Development mailer: every message becomes a JSON object in R2 under `outbox/`, in sending order. */
export class OutboxMailer implements Mailer {
  readonly name = "outbox";
  constructor(private readonly bucket: R2Bucket) {}

  async send(message: MailMessage): Promise<void> {
    const now = Date.now();
    const id = newId("mail");
    const entry: OutboxEntry = { id, sent_at: new Date(now).toISOString(), ...message };
    await this.bucket.put(keys.outboxMessage(now, id), JSON.stringify(entry), { httpMetadata: { contentType: "application/json" } });
  }
}

/** The newest outbox messages first, optionally only those sent to one address. */
export async function readOutbox(bucket: R2Bucket, opts: { to?: string; limit: number }): Promise<OutboxEntry[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: keys.outboxPrefix, cursor });
    names.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const out: OutboxEntry[] = [];
  for (const name of names.reverse()) {
    if (out.length >= opts.limit) break;
    const entry = (await (await bucket.get(name))?.json<OutboxEntry>()) ?? null;
    if (entry && (!opts.to || entry.to === opts.to.toLowerCase())) out.push(entry);
  }
  return out;
}
