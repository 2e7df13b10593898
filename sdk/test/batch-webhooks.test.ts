// batch(files) and verifyWebhook against real deliveries of the local service.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LingoscanError, verifyWebhook } from "../src/index.js";
import { client, sampleImage } from "./helpers";

const sample = sampleImage();

describe("batch", () => {
  it("runs one child job per file and hands back the parent's ZIP and report", async () => {
    const ls = client();
    const files = ["first.png", "second.png"].map((name) => ({ name, data: sample.bytes, type: "image/png" }));
    const parent = await ls.batch(files, { tool: "ocr", export_formats: ["txt"] });
    expect(parent.kind).toBe("batch");
    const done = await ls.waitForJob(parent.id);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(done.batch).toMatchObject({ files_total: 2, files_completed: 2, files_failed: 0 });
    const children = await ls.listJobs({ parent_job_id: parent.id });
    expect(children.items.map((c) => c.source.name).sort()).toEqual(["first.png", "second.png"]);
    const zipRef = done.output.exports.find((e) => e.format === "zip");
    expect(zipRef, JSON.stringify(done.output)).toBeDefined();
    const entries = Object.keys(unzipSync((await ls.download(zipRef!)).bytes));
    expect(
      entries.filter((e) => e.endsWith(".txt")),
      entries.join(", "),
    ).toHaveLength(2);
  });
});

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe("verifyWebhook on real deliveries", () => {
  const deliveries: Delivery[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  let url = "";

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  async function nextDelivery(count: number): Promise<Delivery> {
    const deadline = Date.now() + 120_000;
    while (deliveries.length < count) {
      if (Date.now() > deadline) throw new Error(`no webhook delivery ${count} within 120 s`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 1000);
      });
    }
    return deliveries[count - 1]!;
  }

  it("verifies a job.completed delivery, refuses a tampered body, a wrong secret and a stale timestamp", async () => {
    const ls = client();
    const endpoint = await ls.createWebhook({ url, events: ["job.completed"] });
    const job = await ls.process({ name: "sample.png", data: sample.bytes }, { tool: "ocr", export_formats: ["txt"] });
    await ls.waitForJob(job.id);
    const d = await nextDelivery(1);
    const event = await verifyWebhook<{ job_id: string; status: string }>(d.body, d.headers as Record<string, string>, endpoint.secret);
    expect(event.type).toBe("job.completed");
    expect(event.id).toBe(d.headers["x-service-event-id"]);
    expect(event.data).toMatchObject({ job_id: job.id, status: "completed" });

    const tampered = Buffer.from(d.body.toString("utf8").replace(job.id, "job_someoneelse000000"));
    await expect(verifyWebhook(tampered, d.headers as Record<string, string>, endpoint.secret)).rejects.toMatchObject({
      code: "webhook_signature_invalid",
    });
    await expect(verifyWebhook(d.body, d.headers as Record<string, string>, "whsec_wrong")).rejects.toBeInstanceOf(LingoscanError);
    await expect(
      verifyWebhook(d.body, d.headers as Record<string, string>, endpoint.secret, { now: Date.now() + 10 * 60_000 }),
    ).rejects.toThrow(/300 s/);

    // After a rotation a replay is signed with both secrets; either one alone verifies it.
    const rotated = await ls.rotateWebhookSecret(endpoint.id);
    const [delivery] = await ls.listWebhookDeliveries(endpoint.id);
    await ls.replayWebhookDelivery(delivery!.id);
    const replay = await nextDelivery(2);
    expect(String(replay.headers["x-service-signature"]).match(/v1=/g)).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) {
      const again = await verifyWebhook(replay.body, new Headers(replay.headers as Record<string, string>), secret);
      expect(again.id).toBe(event.id);
    }

    // Deleting an endpoint that has deliveries (removed with it) answers 204.
    await expect(ls.deleteWebhook(endpoint.id)).resolves.toBeUndefined();
    expect((await ls.http.json<{ id: string }[]>("GET", "/api/v1/account/webhooks")).map((w) => w.id)).not.toContain(endpoint.id);
  });
});
