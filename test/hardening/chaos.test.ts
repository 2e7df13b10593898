import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isErrorCode } from "../../src/http/errors";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";
import { corruptPng, form, pdfWithBrokenMiddlePage, scannedPdf, waitForStatus } from "../jobs/fixtures";
import { RECEIVER } from "../webhooks/helpers";
import { expectWalletMatchesLedger } from "./invariants";

/**
 * Many jobs at once with failures injected: pages the engine cannot read, images that cannot be
 * decoded, and cancellations in the middle of a stage, alongside healthy translate jobs. Afterwards
 * every job is terminal, every wallet equals the sum of its ledger with nothing left reserved, and
 * every job.* event has a webhook delivery.
 */

const TERMINAL = ["completed", "partially_completed", "failed", "cancelled"];

async function submit(auth: Record<string, string>, bytes: Uint8Array, name: string, options: unknown): Promise<string> {
  const res = await api("/api/v1/process", { method: "POST", headers: auth, body: form([{ bytes, name }], options) });
  const created = await body(res);
  expect(res.status, JSON.stringify(created)).toBe(202);
  return created.id;
}

describe("chaos: injected failures across many jobs", () => {
  it("leaves every job terminal, every wallet whole and every job event delivered", async () => {
    const accounts = [await seedAccount({ credits: 300, plan: "pro" }), await seedAccount({ credits: 300, plan: "pro" })];
    for (const a of accounts) {
      const hook = await api("/api/v1/account/webhooks", { method: "POST", headers: { ...a.auth, "Content-Type": "application/json" }, body: JSON.stringify({ url: `${RECEIVER}/hook/chaos-${a.userId}`, events: ["*"] }) });
      expect(hook.status, await hook.clone().text()).toBe(201);
    }
    const text = await renderTextPng(["The house is red.", "The dog is old."]);
    const jobs: { id: string; auth: Record<string, string>; userId: string; kind: string }[] = [];
    const add = async (i: number, kind: string, bytes: Uint8Array, name: string, options: unknown) => {
      const a = accounts[i % accounts.length]!;
      jobs.push({ id: await submit(a.auth, bytes, name, options), auth: a.auth, userId: a.userId, kind });
    };

    for (let i = 0; i < 3; i++) await add(i, "translate", text, "red.png", { tool: "translate", source_language: "en", target_language: "es" });
    {
      for (let i = 0; i < 3; i++) await add(i, "broken page", await pdfWithBrokenMiddlePage(), "broken.pdf", { tool: "ocr" });
      for (let i = 0; i < 3; i++) await add(i, "corrupt image", await corruptPng(), "corrupt.png", { tool: "ocr" });
      for (let i = 0; i < 3; i++) await add(i, "cancelled mid-stage", await scannedPdf(3), "scan.pdf", { tool: "ocr" });

      // Cancel each scan once it is inside a processing stage.
      for (const job of jobs.filter((j) => j.kind === "cancelled mid-stage")) {
        const running = await waitForStatus(job.id, job.auth, ["preprocessing", "detecting", "recognizing", "exporting", ...TERMINAL], 90_000);
        if (!TERMINAL.includes(running.status)) {
          const res = await api(`/api/v1/jobs/${job.id}/cancel`, { method: "POST", headers: job.auth });
          expect([200, 202, 409], await res.clone().text()).toContain(res.status);
        }
      }
      const finished = await Promise.all(jobs.map(async (j) => ({ ...j, job: await waitForJob(j.id, j.auth, 150_000) })));

      const outcome: Record<string, Record<string, number>> = {};
      for (const f of finished) {
        expect(TERMINAL, JSON.stringify(f.job)).toContain(f.job.status);
        (outcome[f.kind] ??= {})[f.job.status] = (outcome[f.kind]![f.job.status] ?? 0) + 1;
        if (f.job.error) expect(isErrorCode(f.job.error.code), JSON.stringify(f.job.error)).toBe(true);
        // Nothing stays held once a job is over; charges never exceed the estimate.
        expect(f.job.cost.reserved, JSON.stringify(f.job)).toBe(0);
        expect(f.job.cost.charged, JSON.stringify(f.job)).toBeLessThanOrEqual(f.job.cost.estimated);
      }
      console.log(`chaos: outcomes per injected failure ${JSON.stringify(outcome)}`);
      // Each injection took effect (broken inputs fail pages, scans were cancelled) and healthy jobs were not dragged down.
      for (const f of finished.filter((x) => x.kind === "translate")) expect(f.job.status, JSON.stringify(f.job)).toBe("completed");
      for (const f of finished.filter((x) => x.kind === "broken page")) expect(f.job.status, JSON.stringify(f.job)).toBe("partially_completed");
      for (const f of finished.filter((x) => x.kind === "corrupt image")) expect(f.job.status, JSON.stringify(f.job)).toBe("failed");
      expect(finished.filter((x) => x.kind === "cancelled mid-stage" && x.job.status === "cancelled").length, JSON.stringify(outcome)).toBeGreaterThan(0);

      for (const a of accounts) {
        await expectWalletMatchesLedger(a.userId);
        const w = await env.DB.prepare("SELECT reserved FROM wallets WHERE user_id = ?").bind(a.userId).first<{ reserved: number }>();
        expect(w!.reserved, `reserved credits left on ${a.userId}`).toBe(0);
      }

      // Every terminal job produced its job.<status> event with a delivery to the account's endpoint.
      const deadline = Date.now() + 30_000;
      for (const f of finished) {
        for (;;) {
          const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE user_id = ? AND event_type = ? AND payload LIKE ?")
            .bind(f.userId, `job.${f.job.status}`, `%${f.id}%`)
            .first<{ n: number }>();
          if (row!.n >= 1) break;
          if (Date.now() > deadline) throw new Error(`no job.${f.job.status} delivery for ${f.id} (${f.kind})`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    }
  }, 300_000);
});
