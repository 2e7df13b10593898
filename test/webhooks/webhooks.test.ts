import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RETRY_DELAYS_SECONDS, MAX_ATTEMPTS } from "../../src/modules/webhooks/webhook-delivery.service";
import { emitEvent } from "../../src/modules/webhooks/webhooks.service";
import worker from "../../src/index";
import { readOutbox } from "../../src/providers/mail/outbox";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";
import { configure, createEndpoint, database, hookName, quietEnv, RECEIVER, received, runConsumer, waitForReceived } from "./helpers";

async function deliveries(endpointId: string, auth: Record<string, string>) {
  const res = await api(`/api/v1/account/webhooks/${endpointId}/deliveries`, { headers: auth });
  const b = await body(res);
  expect(res.status, JSON.stringify(b)).toBe(200);
  return b as any[];
}

async function waitForDelivery(endpointId: string, auth: Record<string, string>, status: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const list = await deliveries(endpointId, auth);
    if (list[0]?.status === status) return list;
    if (Date.now() > deadline) throw new Error(`delivery never ${status}: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("webhook endpoints", () => {
  it("are created with a secret shown once, listed, read, updated and deleted, and scoped to their account", async () => {
    const { auth } = await seedAccount();
    const created = await createEndpoint(auth, {
      url: `${RECEIVER}/hook/crud`,
      events: ["job.completed", "job.failed", "job.completed"],
      description: "CI",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ep = created.body;
    expect(ep.id).toMatch(/^whe_[a-z0-9]{20}$/);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(ep).toMatchObject({
      events: ["job.completed", "job.failed"],
      enabled: true,
      description: "CI",
      secret_prefix: ep.secret.slice(0, 12),
      failure_count: 0,
      disabled_at: null,
    });

    const list = await body(await api("/api/v1/account/webhooks", { headers: auth }));
    expect(list.map((e: any) => e.id)).toEqual([ep.id]);
    expect(list[0]).not.toHaveProperty("secret");
    expect(JSON.stringify(list)).not.toContain(ep.secret);

    const patched = await api(`/api/v1/account/webhooks/${ep.id}`, {
      method: "PATCH",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ events: ["*"], enabled: false }),
    });
    const off = await body(patched);
    expect(patched.status, JSON.stringify(off)).toBe(200);
    expect(off).toMatchObject({ events: ["*"], enabled: false });
    expect(off.disabled_at).not.toBeNull();
    const on = await body(
      await api(`/api/v1/account/webhooks/${ep.id}`, {
        method: "PATCH",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ enabled: true }),
      }),
    );
    expect(on).toMatchObject({ enabled: true, disabled_at: null, failure_count: 0 });

    const other = await seedAccount();
    for (const [method, path] of [
      ["GET", `/api/v1/account/webhooks/${ep.id}`],
      ["DELETE", `/api/v1/account/webhooks/${ep.id}`],
      ["POST", `/api/v1/account/webhooks/${ep.id}/rotate`],
      ["GET", `/api/v1/account/webhooks/${ep.id}/deliveries`],
    ] as const) {
      const res = await api(path, { method, headers: other.auth });
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(404);
      expect((await body(res)).error.code).toBe("not_found");
    }

    const bad = await createEndpoint(auth, { url: `${RECEIVER}/hook/crud`, events: ["job.exploded"] });
    expect(bad.status, JSON.stringify(bad.body)).toBe(422);
    expect(bad.body.error.details.fields[0].field).toBe("events.0");

    expect((await api(`/api/v1/account/webhooks/${ep.id}`, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await api(`/api/v1/account/webhooks/${ep.id}`, { headers: auth })).status).toBe(404);
    expect((await api("/api/v1/account/webhooks", { headers: { Authorization: "Bearer nope" } })).status).toBe(401);
  });
});

describe("deliveries", () => {
  it(
    "a finished job is delivered as job.completed through the queue, signed so an independent HMAC implementation verifies it",
    { timeout: 90_000 },
    async () => {
      const { userId, auth } = await seedAccount({ credits: 10 });
      const name = hookName("job");
      const ep = (await createEndpoint(auth, { url: `${RECEIVER}/hook/${name}`, events: ["job.completed", "job.failed"] })).body;
      await configure(name, { secrets: [ep.secret] });

      const form = new FormData();
      form.append("file", new File([await renderTextPng(["Hello webhooks"])], "hello.png"));
      const created = await body(await api("/api/v1/process", { method: "POST", headers: auth, body: form }));
      const job = await waitForJob(created.id, auth);
      expect(job.status, JSON.stringify(job)).toBe("completed");

      const [got] = await waitForReceived(name, 1);
      const event = JSON.parse(got!.body);
      expect(got!.headers["x-service-event"]).toBe("job.completed");
      expect(got!.headers["x-service-event-id"]).toBe(event.id);
      expect(event.id).toMatch(/^evt_[a-z0-9]{20}$/);
      expect(got!.headers["x-service-delivery"]).toMatch(/^dlv_[a-z0-9]{20}$/);
      expect(got!.headers["x-service-signature"]).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
      expect(got!.headers["content-type"]).toBe("application/json");
      expect(got!, "signature verified by node:crypto with the endpoint's secret, fresh timestamp").toMatchObject({
        verified_with: [0],
        signatures: 1,
        timestamp_fresh: true,
      });
      expect(event).toMatchObject({
        type: "job.completed",
        data: {
          job_id: job.id,
          status: "completed",
          tool: "ocr",
          pages_total: 1,
          pages_done: 1,
          pages_failed: 0,
          credits_charged: 1,
          error: null,
        },
      });
      expect(Date.parse(event.created_at)).not.toBeNaN();

      const [d] = await waitForDelivery(ep.id, auth, "delivered");
      expect(d).toMatchObject({
        id: got!.headers["x-service-delivery"],
        event_id: event.id,
        event_type: "job.completed",
        attempts: 1,
        response_status: 200,
        next_retry_at: null,
        replay_of: null,
      });
      expect(d.latency_ms).toBeGreaterThanOrEqual(0);
      expect(d.delivered_at).not.toBeNull();

      // Emitting the same outcome again (a retried pipeline step) delivers nothing new.
      const again = await emitEvent(env, database(), userId, "job.completed", {}, { dedupeKey: `job:${job.id}:0:completed` });
      expect(again).toBe(event.id);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await received(name)).toHaveLength(1);
      expect(await deliveries(ep.id, auth)).toHaveLength(1);
    },
  );

  it("retries a failing receiver with exponential backoff, recording every attempt, until it accepts", async () => {
    const { userId, auth } = await seedAccount();
    const name = hookName("retry");
    const ep = (await createEndpoint(auth, { url: `${RECEIVER}/hook/${name}`, events: ["*"] })).body;
    await configure(name, { fail: 2, status: 503, secrets: [ep.secret] });
    const quiet = quietEnv();
    const eventId = await emitEvent(quiet.env, database(), userId, "export.ready", { export_id: "exp_x" });
    expect(quiet.sent).toHaveLength(1);
    const message = quiet.sent[0];

    const first = await runConsumer("lingoscan-webhooks", message, 1);
    expect(first).toEqual({ acked: false, retried: { delaySeconds: RETRY_DELAYS_SECONDS[0] } });
    let [d] = await deliveries(ep.id, auth);
    expect(d).toMatchObject({ status: "failed", attempts: 1, response_status: 503, response_excerpt: "receiver failing on purpose" });
    expect(Date.parse(d.next_retry_at) - Date.now()).toBeGreaterThan(20_000);
    expect((await body(await api(`/api/v1/account/webhooks/${ep.id}`, { headers: auth }))).failure_count).toBe(1);

    const second = await runConsumer("lingoscan-webhooks", message, 2);
    expect(second).toEqual({ acked: false, retried: { delaySeconds: RETRY_DELAYS_SECONDS[1] } });
    expect(RETRY_DELAYS_SECONDS[1]).toBeGreaterThan(RETRY_DELAYS_SECONDS[0]!);

    const third = await runConsumer("lingoscan-webhooks", message, 3);
    expect(third).toEqual({ acked: true, retried: null });
    [d] = await deliveries(ep.id, auth);
    expect(d).toMatchObject({ status: "delivered", attempts: 3, response_status: 200, next_retry_at: null });

    const got = await received(name);
    expect(got.map((r) => r.answered)).toEqual([503, 503, 200]);
    expect(new Set(got.map((r) => r.headers["x-service-delivery"])).size).toBe(1);
    expect(got.every((r) => r.headers["x-service-event-id"] === eventId && r.verified_with[0] === 0)).toBe(true);
    expect((await body(await api(`/api/v1/account/webhooks/${ep.id}`, { headers: auth }))).failure_count).toBe(0);
  });

  it("after about three days of failures the dead-letter consumer records the delivery dead, disables the endpoint and mails the owner", async () => {
    const total = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0);
    expect(total / 86400, "retry schedule spans about three days").toBeGreaterThan(2.5);
    expect(total / 86400).toBeLessThan(3.5);

    const { userId, auth } = await seedAccount();
    const name = hookName("dead");
    const ep = (await createEndpoint(auth, { url: `${RECEIVER}/hook/${name}`, events: ["*"] })).body;
    await configure(name, { fail: 1000, status: 500, secrets: [ep.secret] });
    const quiet = quietEnv();
    await emitEvent(quiet.env, database(), userId, "batch.completed", { job_id: "job_x" });
    const message = quiet.sent[0];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await runConsumer("lingoscan-webhooks", message, attempt);
      expect(result, `attempt ${attempt}`).toEqual({ acked: false, retried: { delaySeconds: RETRY_DELAYS_SECONDS[attempt - 1] ?? 0 } });
    }
    let [d] = await deliveries(ep.id, auth);
    expect(d).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, next_retry_at: null });

    const dlq = await runConsumer("lingoscan-webhooks-dlq", message, 1);
    expect(dlq).toEqual({ acked: true, retried: null });
    [d] = await deliveries(ep.id, auth);
    expect(d.status).toBe("dead");
    const endpoint = await body(await api(`/api/v1/account/webhooks/${ep.id}`, { headers: auth }));
    expect(endpoint).toMatchObject({ enabled: false, failure_count: MAX_ATTEMPTS });
    expect(endpoint.disabled_at).not.toBeNull();
    const mail = await readOutbox(env.FILES, { to: `${userId}@example.com`, limit: 5 });
    expect(mail.map((m) => m.kind)).toEqual(["webhook_disabled"]);
    expect(mail[0]!.text).toContain(ep.id);

    // A disabled endpoint gets nothing: emitting skips it, replaying is refused until re-enabled.
    expect(await emitEvent(quiet.env, database(), userId, "job.completed", {})).toBeNull();
    const replay = await api(`/api/v1/account/webhooks/deliveries/${d.id}/replay`, { method: "POST", headers: auth });
    expect(replay.status, await replay.clone().text()).toBe(409);
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const { userId, auth } = await seedAccount();
    const name = hookName("rotate");
    const ep = (await createEndpoint(auth, { url: `${RECEIVER}/hook/${name}`, events: ["wallet.low_balance"] })).body;
    const rotated = await api(`/api/v1/account/webhooks/${ep.id}/rotate`, { method: "POST", headers: auth });
    const r = await body(rotated);
    expect(rotated.status, JSON.stringify(r)).toBe(200);
    expect(r.secret).not.toBe(ep.secret);
    expect(r).toMatchObject({ endpoint_id: ep.id, secret_prefix: r.secret.slice(0, 12) });
    const overlap = Date.parse(r.previous_secret_expires_at) - Date.now();
    expect(overlap).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);

    await configure(name, { secrets: [ep.secret, r.secret] });
    const quiet = quietEnv();
    await emitEvent(quiet.env, database(), userId, "wallet.low_balance", { available: 3 });
    await runConsumer("lingoscan-webhooks", quiet.sent[0], 1);
    let [got] = await received(name);
    expect(got, "one v1 per live secret; each secret verifies").toMatchObject({ signatures: 2, verified_with: [0, 1] });

    // 24 hours later (the overlap ended), only the new secret signs.
    await env.DB.prepare("UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, ep.id)
      .run();
    await configure(name, { secrets: [ep.secret, r.secret] });
    await emitEvent(quiet.env, database(), userId, "wallet.low_balance", { available: 2 });
    await runConsumer("lingoscan-webhooks", quiet.sent[1], 1);
    [got] = await received(name);
    expect(got).toMatchObject({ signatures: 1, verified_with: [1] });
    expect((await body(await api(`/api/v1/account/webhooks/${ep.id}`, { headers: auth }))).previous_secret_expires_at).toBeNull();
  });

  it("replays a delivery as a new delivery of the same event, through the queue", async () => {
    const { userId, auth } = await seedAccount();
    const name = hookName("replay");
    const ep = (await createEndpoint(auth, { url: `${RECEIVER}/hook/${name}`, events: ["export.ready"] })).body;
    await configure(name, { secrets: [ep.secret] });
    const quiet = quietEnv();
    const eventId = await emitEvent(quiet.env, database(), userId, "export.ready", { export_id: "exp_1", format: "pdf" });
    await runConsumer("lingoscan-webhooks", quiet.sent[0], 1);
    const [original] = await deliveries(ep.id, auth);
    expect(original.status).toBe("delivered");

    const res = await api(`/api/v1/account/webhooks/deliveries/${original.id}/replay`, { method: "POST", headers: auth });
    const replay = await body(res);
    expect(res.status, JSON.stringify(replay)).toBe(200);
    expect(replay).toMatchObject({
      event_id: eventId,
      event_type: "export.ready",
      replay_of: original.id,
      endpoint_id: ep.id,
      attempts: 0,
    });
    expect(replay.id).not.toBe(original.id);

    const got = await waitForReceived(name, 2);
    expect(got.map((g) => g.headers["x-service-event-id"])).toEqual([eventId, eventId]);
    expect(got.map((g) => g.headers["x-service-delivery"])).toEqual([original.id, replay.id]);
    expect(got[1]!.body).toBe(got[0]!.body);
    expect(got[1]!.verified_with).toEqual([0]);
    await waitForDelivery(ep.id, auth, "delivered");

    const other = await seedAccount();
    const foreign = await api(`/api/v1/account/webhooks/deliveries/${original.id}/replay`, { method: "POST", headers: other.auth });
    expect(foreign.status).toBe(404);
  });

  it("does not send to a URL that became private after it was saved (checked again before each attempt)", async () => {
    const { userId, auth } = await seedAccount();
    const ep = (await createEndpoint(auth, { url: `${RECEIVER}/hook/${hookName("moved")}`, events: ["*"] })).body;
    await env.DB.prepare("UPDATE webhook_endpoints SET url = ? WHERE id = ?").bind("http://intranet.lingoscan-tests.net/hook", ep.id).run();
    const quiet = quietEnv();
    await emitEvent(quiet.env, database(), userId, "job.failed", {});
    const result = await runConsumer("lingoscan-webhooks", quiet.sent[0], 1);
    expect(result, "a refused URL is not retried").toEqual({ acked: true, retried: null });
    const [d] = await deliveries(ep.id, auth);
    expect(d).toMatchObject({ status: "failed", attempts: 1, response_status: null, next_retry_at: null });
    expect(d.response_excerpt).toContain("10.0.0.7");
  });

  it("re-queues a delivery whose queue message was lost, from the cron handler", async () => {
    const { userId, auth } = await seedAccount();
    const name = hookName("lost");
    const ep = (await createEndpoint(auth, { url: `${RECEIVER}/hook/${name}`, events: ["*"] })).body;
    await configure(name, { secrets: [ep.secret] });
    const quiet = quietEnv(); // the send is "lost": nothing reaches the real queue
    const eventId = await emitEvent(quiet.env, database(), userId, "job.failed", { job_id: "job_lost" });
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/15 * * * *" }), env);
    expect(await received(name), "a fresh pending delivery is left to its queue message").toHaveLength(0);

    await env.DB.prepare("UPDATE webhook_deliveries SET created_at = ? WHERE endpoint_id = ?")
      .bind(Date.now() - 11 * 60_000, ep.id)
      .run();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/15 * * * *" }), env);
    const [got] = await waitForReceived(name, 1);
    expect(got!.headers["x-service-event-id"]).toBe(eventId);
    await waitForDelivery(ep.id, auth, "delivered");
  });
});
