import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { db } from "../../src/db/client";
import worker from "../../src/index";
import { api, body } from "../helpers/api";
import type { Received } from "./receiver-global-setup";

export const RECEIVER = inject("webhookReceiverUrl");

/** A fresh hook name on the shared loopback receiver (test files run in parallel). */
export function hookName(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}

/** Configures a hook: fail `fail` times with `status`, verify with `secrets`. Clears what it received. */
export async function configure(name: string, config: { fail?: number; status?: number; secrets: string[] }): Promise<void> {
  const res = await fetch(`${RECEIVER}/control/${name}`, { method: "PUT", body: JSON.stringify(config) });
  if (res.status !== 204) throw new Error(`receiver control failed: ${res.status} ${await res.text()}`);
}

export async function received(name: string): Promise<Received[]> {
  return ((await (await fetch(`${RECEIVER}/control/${name}`)).json()) as { received: Received[] }).received;
}

/** Waits until the hook received `count` deliveries (delivered by the real queue consumer). */
export async function waitForReceived(name: string, count: number, timeoutMs = 20_000): Promise<Received[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await received(name);
    if (got.length >= count) return got;
    if (Date.now() > deadline) throw new Error(`hook ${name} received ${got.length} of ${count}: ${JSON.stringify(got)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function createEndpoint(auth: Record<string, string>, payload: Record<string, unknown>) {
  const res = await api("/api/v1/account/webhooks", {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: await body(res) };
}

/**
 * The env with a queue that only records what is sent, so a test drives the consumer itself
 * (attempt numbers, retries) instead of racing the live consumer.
 */
export function quietEnv(): { env: Env; sent: unknown[] } {
  const sent: unknown[] = [];
  const queue = {
    send: async (b: unknown) => void sent.push(b),
    sendBatch: async (msgs: Iterable<{ body: unknown }>) => void sent.push(...[...msgs].map((m) => m.body)),
  };
  return { env: { ...env, WEBHOOKS: queue as unknown as Queue }, sent };
}

/**
 * Runs the api Worker's queue handler on one message, as the queue would on attempt `attempts`,
 * and reports what the handler did with it (ack, or retry with its delay).
 */
export async function runConsumer(queue: "lingoscan-webhooks" | "lingoscan-webhooks-dlq", body: unknown, attempts: number) {
  const outcome: { acked: boolean; retried: { delaySeconds?: number } | null } = { acked: false, retried: null };
  const message = {
    id: `msg-${attempts}`,
    timestamp: new Date(),
    attempts,
    body,
    ack: () => void (outcome.acked = true),
    retry: (options?: { delaySeconds?: number }) => void (outcome.retried = options ?? {}),
  };
  const batch = { queue, messages: [message], ackAll: () => message.ack(), retryAll: (o?: { delaySeconds?: number }) => message.retry(o) };
  await worker.queue(batch as unknown as MessageBatch<unknown>, env);
  return outcome;
}

export const database = () => db(env.DB);
