import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";
import { form, ledger, walletOf } from "./fixtures";

async function jobsOf(userId: string) {
  return (await env.DB.prepare("SELECT id FROM jobs WHERE user_id = ?").bind(userId).all<{ id: string }>()).results;
}

describe("Idempotency-Key on POST /process", () => {
  it(
    "repeats return the original job without new work or charge; another request under the key is refused",
    { timeout: 90_000 },
    async () => {
      const { userId, auth } = await seedAccount({ credits: 10 });
      const png = await renderTextPng(["Idempotent upload"]);
      const send = (bytes: Uint8Array, key = "order-1", options: unknown = { tool: "ocr" }) =>
        api("/api/v1/process", {
          method: "POST",
          headers: { ...auth, "Idempotency-Key": key },
          body: form([{ bytes, name: "a.png" }], options),
        });

      const first = await send(png);
      const created = await body(first);
      expect(first.status, JSON.stringify(created)).toBe(202);
      const repeat = await send(png);
      expect(repeat.status).toBe(202);
      expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
      expect((await body(repeat)).id).toBe(created.id);

      // Same key, different file or options: refused, nothing created.
      const otherFile = await send(await renderTextPng(["Something else"]));
      expect(otherFile.status).toBe(409);
      expect((await body(otherFile)).error).toMatchObject({ code: "idempotency_key_reused", retryable: false });
      const otherOptions = await send(png, "order-1", { tool: "ocr", export_formats: ["txt"] });
      expect((await body(otherOptions)).error.code).toBe("idempotency_key_reused");

      await waitForJob(created.id, auth);
      expect(await jobsOf(userId)).toEqual([{ id: created.id }]);
      expect((await ledger(userId)).map((l) => l.kind)).toEqual(["hold", "charge"]);

      // A refused request does not burn its key: the same key works once the request is valid.
      const bad = await send(new TextEncoder().encode("not an image"), "order-2");
      expect(bad.status).toBe(415);
      const good = await send(png, "order-2");
      expect(good.status, await good.clone().text()).toBe(202);
      await waitForJob((await body(good)).id, auth);

      // Keys are per account: another account may use the same key for its own job.
      const other = await seedAccount();
      const theirs = await api("/api/v1/process", {
        method: "POST",
        headers: { ...other.auth, "Idempotency-Key": "order-1" },
        body: form([{ bytes: png, name: "a.png" }], { tool: "ocr" }),
      });
      expect(theirs.status).toBe(202);
      expect((await body(theirs)).id).not.toBe(created.id);
      await waitForJob((await body(await api(`/api/v1/jobs?limit=1`, { headers: other.auth }))).items[0].id, other.auth);

      // After 24 h the key may be used again for a new request.
      await env.DB.prepare("UPDATE idempotency_keys SET expires_at = ? WHERE user_id = ? AND key = 'order-1'")
        .bind(Date.now() - 1, userId)
        .run();
      const later = await send(png);
      expect(later.status).toBe(202);
      expect((await body(later)).id).not.toBe(created.id);
      await waitForJob((await body(await api(`/api/v1/jobs?limit=1`, { headers: auth }))).items[0].id, auth);
    },
  );

  it("20 concurrent duplicates create one job and one charge; the others replay it or are told to retry", { timeout: 90_000 }, async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const png = await renderTextPng(["Twenty at once"]);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api("/api/v1/process", {
          method: "POST",
          headers: { ...auth, "Idempotency-Key": "burst" },
          body: form([{ bytes: png, name: "burst.png" }], { tool: "ocr" }),
        }),
      ),
    );
    const bodies = await Promise.all(responses.map((r) => body(r)));
    const accepted = bodies.filter((_, i) => responses[i]!.status === 202);
    const inFlight = bodies.filter((_, i) => responses[i]!.status === 409);
    expect(accepted.length + inFlight.length, JSON.stringify(bodies)).toBe(20);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((b) => b.id)).size).toBe(1);
    for (const b of inFlight) expect(b.error).toMatchObject({ code: "idempotency_in_flight", retryable: true });
    const [job] = await jobsOf(userId);
    expect(await jobsOf(userId)).toHaveLength(1);
    expect(accepted[0].id).toBe(job!.id);

    const done = await waitForJob(job!.id, auth);
    expect(done.status).toBe("completed");
    // A retry of the in-flight ones now replays the job.
    const replay = await api("/api/v1/process", {
      method: "POST",
      headers: { ...auth, "Idempotency-Key": "burst" },
      body: form([{ bytes: png, name: "burst.png" }], { tool: "ocr" }),
    });
    expect(replay.status).toBe(202);
    expect((await body(replay)).id).toBe(job!.id);
    expect((await ledger(userId)).map((l) => `${l.kind}:${l.amount}:${l.reserved_delta}`)).toEqual(["hold:0:1", "charge:-1:-1"]);
    const { wallet, ledger: sums } = await walletOf(userId);
    expect(wallet).toEqual({ balance: 9, reserved: 0 });
    expect(sums).toEqual(wallet);
  });
});

describe("POST /api/v1/estimate", () => {
  it("computes what the job is then charged, by tool and pages", { timeout: 60_000 }, async () => {
    const { userId, auth } = await seedAccount({ credits: 50, plan: "pro" });
    const estimate = async (pages: number, options: unknown) => {
      const res = await api(`/api/v1/estimate?pages=${pages}`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify(options),
      });
      return { status: res.status, body: await body(res) };
    };
    const ocr = await estimate(1, { tool: "ocr" });
    expect(ocr.status, JSON.stringify(ocr.body)).toBe(200);
    expect(ocr.body).toMatchObject({
      tool: "ocr",
      pages: 1,
      plan: "pro",
      page_limit: 200,
      within_page_limit: true,
      available_credits: 50,
      sufficient_credits: true,
    });
    const tr = await estimate(3, { tool: "translate", target_language: "es" });
    expect(tr.body.credits).toBe(3 * tr.body.credits_per_page);
    expect((await estimate(201, { tool: "ocr" })).body.within_page_limit).toBe(false);
    expect((await estimate(60, { tool: "translate", target_language: "es" })).body.sufficient_credits).toBe(false);
    expect((await estimate(0, { tool: "ocr" })).status).toBe(422);
    expect((await estimate(1, { tool: "translate" })).body.error.code).toBe("validation_error");

    const res = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: form([{ bytes: await renderTextPng(["Estimate equals charge"]), name: "e.png" }], { tool: "ocr" }),
    });
    const job = await waitForJob((await body(res)).id, auth);
    expect(job.status).toBe("completed");
    expect(job.cost.charged).toBe(ocr.body.credits);
    expect(job.cost.estimated).toBe(ocr.body.credits);
    expect((await ledger(userId)).find((l) => l.kind === "charge")!.amount).toBe(-ocr.body.credits);
  });
});
