import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { ERROR_CATALOGUE, isErrorCode } from "../../src/http/errors";
import { toApertiumCode } from "../../src/providers/translators";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";
import { corruptPng, form, pdfWithBrokenMiddlePage, scannedPdf, waitForStatus } from "../jobs/fixtures";
import type { ApertiumFault } from "../providers/apertium-faults";
import { RECEIVER } from "../webhooks/helpers";
import { expectWalletMatchesLedger } from "./invariants";

/**
 * Many jobs at once with failures injected: pages the engine cannot read, images that cannot be
 * decoded, cancellations in the middle of a stage, and a translator outage (one account's
 * translate jobs target pairs whose Apertium pipeline is down), alongside healthy translate jobs.
 * Afterwards every job is terminal, every wallet equals the sum of its ledger with nothing left
 * reserved, and every job.* event has a webhook delivery.
 */

const TERMINAL = ["completed", "partially_completed", "failed", "cancelled"];
const FAULTS = inject("apertiumFaultsUrl");

/**
 * The outage: en→gl answers 503 (a direct pair), and es→pt drops the connection, so en→pt fails
 * on the second step of its pivot through Spanish. No other test translates into gl or pt, and
 * the fault proxy belongs to this test run alone.
 */
const OUTAGE: { source: string; target: string; step: [string, string]; mode: ApertiumFault }[] = [
  { source: "en", target: "gl", step: ["en", "gl"], mode: "unavailable" },
  { source: "en", target: "pt", step: ["es", "pt"], mode: "reset" },
];
const langpair = ([s, t]: [string, string]) => encodeURIComponent(`${toApertiumCode(s)}|${toApertiumCode(t)}`);

async function setFault(step: [string, string], mode: ApertiumFault | null): Promise<void> {
  const res = await fetch(`${FAULTS}/${langpair(step)}`, mode ? { method: "PUT", body: JSON.stringify({ mode }) } : { method: "DELETE" });
  if (res.status !== 200) throw new Error(`fault proxy: ${res.status} ${await res.text()}`);
}

type Account = Awaited<ReturnType<typeof seedAccount>>;

async function submit(auth: Record<string, string>, bytes: Uint8Array, name: string, options: unknown): Promise<string> {
  const res = await api("/api/v1/process", { method: "POST", headers: auth, body: form([{ bytes, name }], options) });
  const created = await body(res);
  expect(res.status, JSON.stringify(created)).toBe(202);
  return created.id;
}

async function expectDelivered(userId: string, jobId: string, status: string, label: string, deadline: number): Promise<void> {
  for (;;) {
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE user_id = ? AND event_type = ? AND payload LIKE ?")
      .bind(userId, `job.${status}`, `%${jobId}%`)
      .first<{ n: number }>();
    if (row!.n >= 1) return;
    if (Date.now() > deadline) throw new Error(`no job.${status} delivery for ${jobId} (${label})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("chaos: injected failures across many jobs", () => {
  it("leaves every job terminal, every wallet whole and every job event delivered", async () => {
    const accounts = [await seedAccount({ credits: 300, plan: "pro" }), await seedAccount({ credits: 300, plan: "pro" })];
    const outageAccount = await seedAccount({ credits: 300, plan: "pro" });
    for (const a of [...accounts, outageAccount]) {
      const hook = await api("/api/v1/account/webhooks", {
        method: "POST",
        headers: { ...a.auth, "Content-Type": "application/json" },
        body: JSON.stringify({ url: `${RECEIVER}/hook/chaos-${a.userId}`, events: ["*"] }),
      });
      expect(hook.status, await hook.clone().text()).toBe(201);
    }
    const text = await renderTextPng(["The house is red.", "The dog is old."]);
    const jobs: { id: string; auth: Record<string, string>; userId: string; kind: string }[] = [];
    const addFor = async (a: Account, kind: string, bytes: Uint8Array, name: string, options: unknown) => {
      jobs.push({ id: await submit(a.auth, bytes, name, options), auth: a.auth, userId: a.userId, kind });
    };
    const add = (i: number, kind: string, bytes: Uint8Array, name: string, options: unknown) =>
      addFor(accounts[i % accounts.length]!, kind, bytes, name, options);

    for (const o of OUTAGE) await setFault(o.step, o.mode);
    try {
      for (let i = 0; i < 3; i++)
        await add(i, "translate", text, "red.png", { tool: "translate", source_language: "en", target_language: "es" });
      for (let i = 0; i < 3; i++) {
        const o = OUTAGE[i % OUTAGE.length]!;
        await addFor(outageAccount, "translator outage", text, "red.png", {
          tool: "translate",
          source_language: o.source,
          target_language: o.target,
        });
      }
      for (let i = 0; i < 3; i++) await add(i, "broken page", await pdfWithBrokenMiddlePage(), "broken.pdf", { tool: "ocr" });
      for (let i = 0; i < 3; i++) await add(i, "corrupt image", await corruptPng(), "corrupt.png", { tool: "ocr" });
      for (let i = 0; i < 3; i++) await add(i, "cancelled mid-stage", await scannedPdf(3), "scan.pdf", { tool: "ocr" });

      // Cancel each scan once it is inside a processing stage.
      for (const job of jobs.filter((j) => j.kind === "cancelled mid-stage")) {
        const running = await waitForStatus(
          job.id,
          job.auth,
          ["preprocessing", "detecting", "recognizing", "exporting", ...TERMINAL],
          90_000,
        );
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
      const faults = await (await fetch(FAULTS)).json<{ failed: Record<string, number> }>();
      console.log(
        `chaos: outcomes per injected failure ${JSON.stringify(outcome)}; translate requests refused by the outage ${JSON.stringify(faults.failed)}`,
      );
      // Each injection took effect (broken inputs fail pages, scans were cancelled, the outage failed its jobs) and healthy jobs were not dragged down.
      for (const f of finished.filter((x) => x.kind === "translate")) expect(f.job.status, JSON.stringify(f.job)).toBe("completed");
      for (const f of finished.filter((x) => x.kind === "broken page"))
        expect(f.job.status, JSON.stringify(f.job)).toBe("partially_completed");
      for (const f of finished.filter((x) => x.kind === "corrupt image")) expect(f.job.status, JSON.stringify(f.job)).toBe("failed");
      expect(
        finished.filter((x) => x.kind === "cancelled mid-stage" && x.job.status === "cancelled").length,
        JSON.stringify(outcome),
      ).toBeGreaterThan(0);
      for (const f of finished.filter((x) => x.kind === "translator outage")) {
        // The page was read, then translating failed with the catalogued retryable outage code and nothing was charged.
        expect(f.job.status, JSON.stringify(f.job)).toBe("failed");
        expect(f.job.error?.code, JSON.stringify(f.job)).toBe("provider_unavailable");
        expect(f.job.error?.retryable, JSON.stringify(f.job)).toBe(ERROR_CATALOGUE.provider_unavailable.retryable);
        expect(f.job.error?.retryable, JSON.stringify(f.job)).toBe(true);
        expect(f.job.cost.charged, JSON.stringify(f.job)).toBe(0);
        const timeline = await body(await api(`/api/v1/jobs/${f.id}/timeline`, { headers: f.auth }));
        const failedPage = timeline.events.find((e: any) => e.type === "progress" && e.data?.error);
        expect(failedPage?.stage, JSON.stringify(timeline.events)).toBe("translating");
      }
      for (const o of OUTAGE) expect(faults.failed[decodeURIComponent(langpair(o.step))], JSON.stringify(faults)).toBeGreaterThan(0);

      // The provider comes back: retrying an outage job now completes it and charges it once.
      for (const o of OUTAGE) await setFault(o.step, null);
      const again = finished.find((x) => x.kind === "translator outage")!;
      const retry = await api(`/api/v1/jobs/${again.id}/retry`, { method: "POST", headers: again.auth });
      expect([200, 202], await retry.clone().text()).toContain(retry.status);
      const recovered = await waitForJob(again.id, again.auth, 150_000);
      expect(recovered.status, JSON.stringify(recovered)).toBe("completed");
      expect(recovered.cost, JSON.stringify(recovered)).toMatchObject({ reserved: 0, charged: recovered.cost.estimated });

      for (const a of [...accounts, outageAccount]) {
        await expectWalletMatchesLedger(a.userId);
        const w = await env.DB.prepare("SELECT reserved FROM wallets WHERE user_id = ?").bind(a.userId).first<{ reserved: number }>();
        expect(w!.reserved, `reserved credits left on ${a.userId}`).toBe(0);
      }

      // Every terminal job produced its job.<status> event with a delivery to the account's endpoint.
      const deadline = Date.now() + 30_000;
      for (const f of finished) await expectDelivered(f.userId, f.id, f.job.status, f.kind, deadline);
      await expectDelivered(again.userId, again.id, "completed", "retried after the outage", deadline);
    } finally {
      for (const o of OUTAGE) await setFault(o.step, null);
    }
  }, 300_000);
});
