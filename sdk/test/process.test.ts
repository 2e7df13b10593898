// upload → follow (SSE, resumed with Last-Event-ID; polling) → download, against `npm run dev`.
import { describe, expect, it } from "vitest";
import { characterErrorRate } from "../../test/engine/cer";
import { LingoscanError, type JobEvent } from "../src/index.js";
import { client, sampleImage } from "./helpers";

const sample = sampleImage();
const upload = () => ({ name: "sample.png", data: sample.bytes, type: "image/png" });

describe("process → waitForJob → download", () => {
  it("recognises the sample through the SSE stream and downloads the text export", async () => {
    const ls = client();
    const job = await ls.process(upload(), { tool: "ocr", export_formats: ["txt", "json"] });
    expect(job.status, JSON.stringify(job)).toBe("queued");
    const events: JobEvent[] = [];
    const done = await ls.waitForJob(job.id, { onEvent: (e) => events.push(e) });
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(events.map((e) => e.type)).toContain("progress");
    expect(events.at(-1)?.type).toBe("done");
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a! - b!));
    const txt = done.output.exports.find((e) => e.format === "txt");
    expect(txt, JSON.stringify(done.output)).toBeDefined();
    const file = await ls.download(txt!);
    const text = new TextDecoder().decode(file.bytes);
    expect(characterErrorRate(sample.lines.join("\n"), text), text).toBeLessThanOrEqual(0.02);
    expect(file.filename).toMatch(/\.txt$/);
  });

  it("resumes a dropped stream with Last-Event-ID: every event once, in order", async () => {
    const seen: (string | null)[] = [];
    let cut = 0;
    // The service's real answers, but the first two stream connections end after their first event.
    const dropping: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const url = String(input);
      if (!url.endsWith("/events")) return res;
      seen.push(new Headers(init?.headers).get("Last-Event-ID"));
      if (cut >= 2 || !res.body) return res;
      cut++;
      const reader = res.body.getReader();
      let text = "";
      const first = new ReadableStream<Uint8Array>({
        async pull(ctrl) {
          const { value, done } = await reader.read();
          if (done) return ctrl.close();
          text += new TextDecoder().decode(value);
          ctrl.enqueue(value);
          // Close once one whole event (an `id:` line and its blank line) has passed.
          if (/\nid: \d+[\s\S]*?\n\n/.test(`\n${text}`)) {
            await reader.cancel();
            ctrl.close();
          }
        },
      });
      return new Response(first, { status: res.status, headers: res.headers });
    };
    const ls = client({ fetch: dropping });
    const job = await ls.process(upload(), { tool: "ocr", export_formats: ["txt"] });
    const events: JobEvent[] = [];
    const done = await ls.waitForJob(job.id, { onEvent: (e) => events.push(e) });
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(cut).toBe(2);
    expect(seen[0]).toBeNull();
    expect(
      seen.slice(1, 3).every((h) => h !== null && Number(h) > 0),
      JSON.stringify(seen),
    ).toBe(true);
    const ids = events.map((e) => e.id!);
    expect(new Set(ids).size, JSON.stringify(ids)).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events.at(-1)?.type).toBe("done");
  });

  it("polls when the stream cannot be used", async () => {
    const streamless: typeof fetch = async (input, init) =>
      String(input).endsWith("/events")
        ? new Response("no streams here", { status: 200, headers: { "Content-Type": "text/plain" } })
        : fetch(input, init);
    const ls = client({ fetch: streamless });
    const job = await ls.process(upload(), { tool: "ocr", export_formats: ["txt"] });
    const statuses: unknown[] = [];
    const done = await ls.waitForJob(job.id, { pollIntervalMs: 300, onEvent: (e) => statuses.push(e.data.status) });
    expect(done.status).toBe("completed");
    expect(statuses.at(-1)).toBe("completed");
  });

  it("stops waiting when the signal aborts", async () => {
    const ls = client();
    const job = await ls.process(upload(), { tool: "ocr", export_formats: ["txt"] });
    const ctrl = new AbortController();
    const waiting = ls.waitForJob(job.id, { signal: ctrl.signal });
    ctrl.abort(new Error("caller gave up"));
    await expect(waiting).rejects.toThrow("caller gave up");
    await ls.waitForJob(job.id);
  });
});

describe("errors, idempotency and retries", () => {
  it("answers the envelope as a LingoscanError with code, retryable and request_id", async () => {
    const ls = client();
    const err = await ls.process(upload(), { tool: "translate" as const, target_language: "x1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LingoscanError);
    const e = err as LingoscanError;
    expect(e.code, e.message).toBe("validation_error");
    expect(e.status).toBe(422);
    expect(e.retryable).toBe(false);
    expect(e.requestId).toMatch(/^req_/);
  });

  it("a wrong key is invalid_api_key, not retried", async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const ls = client({ apiKey: "lik_live_not-a-key", fetch: counting });
    await expect(ls.listJobs()).rejects.toMatchObject({ code: "invalid_api_key", status: 401, retryable: false });
    expect(calls).toBe(1);
  });

  it("retries a failed connection with the same Idempotency-Key: one job", async () => {
    const keys: (string | null)[] = [];
    let failed = false;
    const flaky: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/api/v1/process")) {
        keys.push(new Headers(init?.headers).get("Idempotency-Key"));
        // The first attempt reaches the service, but its answer is lost on the way back.
        if (!failed) {
          failed = true;
          await fetch(input, init).then((r) => r.arrayBuffer());
          throw new TypeError("fetch failed: connection reset");
        }
      }
      return fetch(input, init);
    };
    const ls = client({ fetch: flaky, retryDelayMs: 50 });
    const before = (await ls.listJobs({ limit: 1 })).total;
    const job = await ls.process(upload(), { tool: "ocr", export_formats: ["txt"] });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect((await ls.listJobs({ limit: 1 })).total).toBe(before + 1);
    expect((await ls.waitForJob(job.id)).status).toBe("completed");
  });
});
