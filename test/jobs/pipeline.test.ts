import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { download, form, ledger, parseSse, pdfWithBrokenMiddlePage, scannedPdf, waitForStatus, walletOf } from "./fixtures";

async function post(path: string, auth: Record<string, string>, init: RequestInit = {}) {
  const res = await api(path, { method: "POST", headers: auth, ...init });
  return { status: res.status, body: await body(res) };
}

/** The Workflow instance's status once it settles (an instance ends just after its last step). */
async function instanceStatus(id: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { status } = await (await env.PIPELINE.get(id)).status();
    if (!["queued", "running", "waiting"].includes(status) || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("a 3-page PDF with one broken page", () => {
  it(
    "ends partially_completed: the good pages are exported and charged, the broken one refunded; a retry re-runs only that page",
    { timeout: 120_000 },
    async () => {
      const { userId, auth } = await seedAccount({ credits: 10 });
      const created = await post("/api/v1/process", auth, {
        body: form([{ bytes: await pdfWithBrokenMiddlePage(), name: "three.pdf" }], { tool: "ocr", export_formats: ["txt", "json"] }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      expect(created.body.cost).toEqual({ estimated: 3, reserved: 3, charged: 0 });

      // Follow the live stream to its end while the job runs.
      const stream = parseSse(await (await api(`/api/v1/jobs/${created.body.id}/events`, { headers: auth })).text());
      expect(stream.at(-1)!.event).toBe("done");
      expect(stream.at(-1)!.data.status).toBe("partially_completed");
      const ids = stream.map((e) => e.id);
      expect(ids, "ids increase without gaps").toEqual(ids.map((_, i) => ids[0]! + i));
      const progress = stream.filter((e) => e.event === "progress");
      const failedPage = progress.filter((e) => e.data.error);
      expect(failedPage.map((e) => e.data.page)).toEqual([1]);
      expect(failedPage[0]!.data.error.code, JSON.stringify(failedPage[0])).toBe("image_too_large");
      const percents = progress.map((e) => e.data.percent);
      expect(
        percents.every((p, i) => p >= (percents[i - 1] ?? 0) && p <= 99),
        percents.join(","),
      ).toBe(true);

      const job = await waitForJob(created.body.id, auth);
      expect(job.status, JSON.stringify(job)).toBe("partially_completed");
      expect(job.pages).toEqual({ total: 3, succeeded: 2, failed: 1 });
      expect(job.cost).toEqual({ estimated: 3, reserved: 0, charged: 2 });
      expect(job.progress.percent).toBe(100);
      const txt = new TextDecoder().decode(
        await download(
          job.output.exports.find((e: any) => e.format === "txt"),
          auth,
        ),
      );
      expect(txt).toContain("First page: the quick brown fox.");
      expect(txt).toContain("Third page: invoice number 4821.");
      const doc = JSON.parse(
        new TextDecoder().decode(
          await download(
            job.output.exports.find((e: any) => e.format === "json"),
            auth,
          ),
        ),
      );
      expect(doc.pages.length, JSON.stringify(doc).slice(0, 500)).toBe(2);

      expect(await ledger(userId)).toMatchObject([
        { kind: "hold", amount: 0, reserved_delta: 3, dedupe_key: `hold:${job.id}:0` },
        { kind: "charge", amount: -2, reserved_delta: -3, dedupe_key: `settle:${job.id}:0` },
      ]);

      // Retry: attempt 1 holds only what is not charged yet (1 page) and runs only page 1, which fails again.
      const retried = await post(`/api/v1/jobs/${job.id}/retry`, auth);
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({
        status: "queued",
        attempt: 1,
        cost: { reserved: 1, charged: 2 },
        pages: { total: 3, succeeded: 2, failed: 0 },
      });
      const again = await waitForJob(job.id, auth);
      expect(again.status, JSON.stringify(again)).toBe("partially_completed");
      expect(again.cost).toEqual({ estimated: 3, reserved: 0, charged: 2 });
      expect(await instanceStatus(`${job.id}-a1`)).toBe("complete");
      const timeline = await body(await api(`/api/v1/jobs/${job.id}/timeline`, { headers: auth }));
      const attempt1Pages = new Set(
        timeline.events.filter((e: any) => e.type === "progress" && e.data.attempt === 1).map((e: any) => e.page),
      );
      expect([...attempt1Pages]).toEqual([1]);
      expect((await ledger(userId)).slice(2)).toMatchObject([
        { kind: "hold", reserved_delta: 1, dedupe_key: `hold:${job.id}:1` },
        { kind: "release", amount: 0, reserved_delta: -1, dedupe_key: `settle:${job.id}:1` },
      ]);
      const { wallet, ledger: sums } = await walletOf(userId);
      expect(wallet).toEqual({ balance: 8, reserved: 0 });
      expect(sums).toEqual(wallet);

      // Per-stage durations, in order, for both attempts.
      expect(timeline.stages.map((s: any) => s.status)).toEqual([
        "created",
        "uploading",
        "queued",
        "preprocessing",
        "detecting",
        "recognizing",
        "exporting",
        "partially_completed",
        "queued",
        "preprocessing",
        "detecting",
        "recognizing",
        "exporting",
        "partially_completed",
      ]);
      expect(timeline.stages.every((s: any) => s.duration_ms >= 0)).toBe(true);
      expect(timeline.stages.filter((s: any) => s.attempt === 1).length).toBe(6);
    },
  );
});

describe("the SSE stream", () => {
  it(
    "resumes after Last-Event-ID without loss, sends done at once on a finished job, and lists named events",
    { timeout: 90_000 },
    async () => {
      const { auth } = await seedAccount();
      const created = await post("/api/v1/process", auth, {
        body: form([{ bytes: await scannedPdf(1), name: "scan.pdf" }], { tool: "ocr" }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const live = await api(`/api/v1/jobs/${created.body.id}/events`, { headers: auth });
      expect(live.headers.get("Content-Type")).toContain("text/event-stream");
      const all = parseSse(await live.text());
      expect(all.map((e) => e.event)).toContain("progress");
      expect(all.filter((e) => e.event === "status").map((e) => e.data.status)).toEqual([
        "created",
        "uploading",
        "queued",
        "preprocessing",
        "detecting",
        "recognizing",
        "exporting",
        "completed",
      ]);
      expect(all.at(-1)).toMatchObject({ event: "done", data: { status: "completed" } });
      expect(all.filter((e) => e.event === "progress").map((e) => e.data.stage)).toEqual(["preprocessing", "detecting", "recognizing"]);

      // Resume from the middle: exactly the later events, same ids.
      const cut = all[4]!.id;
      const resumed = parseSse(
        await (await api(`/api/v1/jobs/${created.body.id}/events`, { headers: { ...auth, "Last-Event-ID": String(cut) } })).text(),
      );
      expect(resumed).toEqual(all.filter((e) => e.id > cut));

      // A finished job's stream replays and closes; resuming after done sends nothing more and closes.
      const afterDone = await (
        await api(`/api/v1/jobs/${created.body.id}/events`, { headers: { ...auth, "Last-Event-ID": String(all.at(-1)!.id) } })
      ).text();
      expect(parseSse(afterDone)).toEqual([]);
    },
  );
});

describe("cancel and retry", () => {
  it(
    "a job over the plan's concurrency waits in queued; cancelling it there refunds it and its workflow never starts a stage",
    { timeout: 120_000 },
    async () => {
      const { userId, auth } = await seedAccount({ credits: 20, plan: "free" }); // free: 1 job at a time
      // The plan's most pages, each a full page of lines: it still runs after the second upload and a second's wait.
      const first = await post("/api/v1/process", auth, {
        body: form([{ bytes: await scannedPdf(10, 40), name: "long.pdf" }], { tool: "ocr" }),
      });
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      await waitForStatus(first.body.id, auth, ["preprocessing", "detecting", "recognizing"]);
      const second = await post("/api/v1/process", auth, {
        body: form([{ bytes: await scannedPdf(1), name: "short.pdf" }], { tool: "ocr" }),
      });
      expect(second.status, JSON.stringify(second.body)).toBe(202);

      // The second job cannot be admitted while the first runs.
      await new Promise((r) => setTimeout(r, 1000));
      const waiting = await body(await api(`/api/v1/jobs/${second.body.id}`, { headers: auth }));
      expect(waiting.status, JSON.stringify(waiting)).toBe("queued");

      const cancelled = await post(`/api/v1/jobs/${second.body.id}/cancel`, auth);
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body).toMatchObject({ status: "cancelled", cost: { reserved: 0, charged: 0 } });
      // Cancel the first while it runs: its workflow is stopped, the whole hold released.
      const running = await body(await api(`/api/v1/jobs/${first.body.id}`, { headers: auth }));
      expect(["preprocessing", "detecting", "recognizing"], JSON.stringify(running)).toContain(running.status);
      const stop = await post(`/api/v1/jobs/${first.body.id}/cancel`, auth);
      expect(stop.status, JSON.stringify(stop.body)).toBe(200);
      expect(stop.body.status).toBe("cancelled");
      expect(await instanceStatus(first.body.id)).toBe("terminated");

      // Nothing moves afterwards: no stage after the cancel, still cancelled a while later.
      await new Promise((r) => setTimeout(r, 3000));
      for (const id of [first.body.id, second.body.id]) {
        const job = await body(await api(`/api/v1/jobs/${id}`, { headers: auth }));
        expect(job.status, JSON.stringify(job)).toBe("cancelled");
        const tl = await body(await api(`/api/v1/jobs/${id}/timeline`, { headers: auth }));
        const states = tl.stages.map((s: any) => s.status);
        expect(states.at(-1)).toBe("cancelled");
        expect(states.indexOf("cancelled")).toBe(states.length - 1);
      }
      const tl2 = await body(await api(`/api/v1/jobs/${second.body.id}/timeline`, { headers: auth }));
      expect(tl2.stages.map((s: any) => s.status)).toEqual(["created", "uploading", "queued", "cancelled"]);

      // A finished job cannot be cancelled.
      const again = await post(`/api/v1/jobs/${first.body.id}/cancel`, auth);
      expect(again.status, JSON.stringify(again.body)).toBe(409);
      expect(again.body.error.code).toBe("invalid_transition");

      expect(await ledger(userId)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: "hold", reserved_delta: 10, job_id: first.body.id }),
          expect.objectContaining({ kind: "release", amount: 0, reserved_delta: -10, job_id: first.body.id }),
          expect.objectContaining({ kind: "hold", reserved_delta: 1, job_id: second.body.id }),
          expect.objectContaining({ kind: "release", amount: 0, reserved_delta: -1, job_id: second.body.id }),
        ]),
      );
      expect((await ledger(userId)).length).toBe(4);
      const { wallet, ledger: sums } = await walletOf(userId);
      expect(wallet).toEqual({ balance: 20, reserved: 0 });
      expect(sums).toEqual(wallet);

      // Retry the cancelled job: a new attempt, its own workflow instance and hold; it completes and is charged once.
      const retried = await post(`/api/v1/jobs/${second.body.id}/retry`, auth);
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({ status: "queued", attempt: 1, cost: { reserved: 1 } });
      const twice = await post(`/api/v1/jobs/${second.body.id}/retry`, auth);
      expect(twice.status, JSON.stringify(twice.body)).toBe(409);
      expect(twice.body.error.code).toBe("invalid_transition");
      const done = await waitForJob(second.body.id, auth);
      expect(done.status, JSON.stringify(done)).toBe("completed");
      expect(done.cost).toEqual({ estimated: 1, reserved: 0, charged: 1 });
      expect(await instanceStatus(`${second.body.id}-a1`)).toBe("complete");

      // The stream of the retried job replays the new attempt and ends with its done, not the cancelled one.
      const replay = parseSse(await (await api(`/api/v1/jobs/${second.body.id}/events`, { headers: auth })).text());
      expect(replay[0]).toMatchObject({ event: "status", data: { status: "queued", retry: true } });
      expect(replay.filter((e) => e.event === "done").map((e) => e.data.status)).toEqual(["completed"]);

      // A completed job cannot be retried; retry-failed is for batches only.
      const noRetry = await post(`/api/v1/jobs/${second.body.id}/retry`, auth);
      expect(noRetry.status).toBe(409);
      expect(noRetry.body.error.code).toBe("invalid_transition");
      const notBatch = await post(`/api/v1/jobs/${second.body.id}/retry-failed`, auth);
      expect(notBatch.status).toBe(409);
      expect(notBatch.body.error.code).toBe("conflict");

      const final = await walletOf(userId);
      expect(final.wallet).toEqual({ balance: 19, reserved: 0 });
      expect(final.ledger).toEqual(final.wallet);
    },
  );

  it("another account's job is not found for reading, cancel and retry", async () => {
    const owner = await seedAccount();
    const other = await seedAccount();
    const created = await post("/api/v1/process", owner.auth, {
      body: form([{ bytes: await scannedPdf(1), name: "a.pdf" }], { tool: "ocr" }),
    });
    const read = await api(`/api/v1/jobs/${created.body.id}`, { headers: other.auth });
    const answer = await body(read);
    expect(read.status, JSON.stringify(answer)).toBe(404);
    expect(answer.error.code).toBe("not_found");
    expect(JSON.stringify(answer)).not.toContain("pages");
    for (const action of ["cancel", "retry", "retry-failed"]) {
      const r = await post(`/api/v1/jobs/${created.body.id}/${action}`, other.auth);
      expect(r.status, `${action}: ${JSON.stringify(r.body)}`).toBe(404);
    }
    await waitForJob(created.body.id, owner.auth);
  });
});
