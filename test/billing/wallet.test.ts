import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db/client";
import { recordUsage, usageReport } from "../../src/modules/billing/usage.service";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";
import { corruptPng, form, pdfWithBrokenMiddlePage, scannedPdf } from "../jobs/fixtures";

async function get(path: string, auth: Record<string, string>) {
  const res = await api(path, { headers: auth });
  const b = await body(res);
  expect(res.status, `${path}: ${JSON.stringify(b)}`).toBe(200);
  return b;
}

async function process(auth: Record<string, string>, bytes: Uint8Array, name: string) {
  const res = await api("/api/v1/process", { method: "POST", headers: auth, body: form([{ bytes, name }], { tool: "ocr" }) });
  const b = await body(res);
  expect(res.status, JSON.stringify(b)).toBe(202);
  return b.id as string;
}

/** Buys a pack through the sandbox checkout and its confirmation page. */
async function buy(auth: Record<string, string>, pack: string) {
  const out = await body(
    await api("/api/v1/billing/checkout", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ kind: "credits", pack }),
    }),
  );
  const u = new URL(out.url);
  const res = await api(u.pathname, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "action=confirm",
    redirect: "manual",
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return out.payment_id as string;
}

describe("wallet and ledger", () => {
  it(
    "the balance equals the sum of the ledger after completed, partial, failed and cancelled jobs and purchases",
    { timeout: 180_000 },
    async () => {
      const { auth } = await seedAccount({ credits: 10, plan: "pro" });
      const completed = await process(auth, await renderTextPng(["The ledger must balance."]), "one.png");
      const partial = await process(auth, await pdfWithBrokenMiddlePage(), "three.pdf");
      const failed = await process(auth, await corruptPng(), "broken.png");
      const payment = await buy(auth, "credits_500");
      const cancelled = await process(auth, await scannedPdf(2), "scan.pdf");
      const stop = await api(`/api/v1/jobs/${cancelled}/cancel`, { method: "POST", headers: auth });
      expect(stop.status, await stop.clone().text()).toBe(200);

      const outcomes = Object.fromEntries(
        await Promise.all([completed, partial, failed, cancelled].map(async (id) => [id, await waitForJob(id, auth)] as const)),
      );
      expect(outcomes[completed]!.status).toBe("completed");
      expect(outcomes[partial]!.status).toBe("partially_completed");
      expect(outcomes[failed]!.status).toBe("failed");
      expect(outcomes[cancelled]!.status).toBe("cancelled");

      const wallet = await get("/api/v1/account/wallet", auth);
      // 10 granted + 500 bought − 1 (one page) − 2 (two good pages of three) − 0 (failed) − 0 (cancelled).
      expect(wallet).toMatchObject({ balance: 507, reserved: 0, available: 507, plan: "pro" });

      const entries = await get("/api/v1/account/wallet/ledger?limit=100", auth);
      const newestFirst = entries.map((e: any) => Date.parse(e.created_at));
      expect(newestFirst, "newest first").toEqual([...newestFirst].sort((a, b) => b - a));
      expect(entries.reduce((s: number, e: any) => s + e.amount, 0)).toBe(wallet.balance);
      expect(entries.reduce((s: number, e: any) => s + e.reserved_delta, 0)).toBe(wallet.reserved);
      // Replayed oldest first, every entry's balance_after / reserved_after is the running sum.
      let balance = 0;
      let reserved = 0;
      for (const e of [...entries].reverse()) {
        balance += e.amount;
        reserved += e.reserved_delta;
        expect({ id: e.id, balance_after: e.balance_after, reserved_after: e.reserved_after }).toEqual({
          id: e.id,
          balance_after: balance,
          reserved_after: reserved,
        });
        expect(reserved).toBeGreaterThanOrEqual(0);
      }
      expect(entries.filter((e: any) => e.kind === "purchase")).toMatchObject([{ amount: 500, payment_id: payment }]);
      for (const id of [completed, partial, failed, cancelled]) {
        const moves = entries.filter((e: any) => e.job_id === id);
        expect(
          moves.reduce((s: number, e: any) => s + e.reserved_delta, 0),
          `job ${id} holds nothing once finished`,
        ).toBe(0);
        const charged = outcomes[id]!.cost.charged as number;
        expect(moves.reduce((s: number, e: any) => s + e.amount, 0) + charged, `job ${id} charged what its ledger entries took`).toBe(0);
      }

      // Paging: consecutive pages without overlap.
      const page1 = await get("/api/v1/account/wallet/ledger?limit=3&offset=0", auth);
      const page2 = await get("/api/v1/account/wallet/ledger?limit=3&offset=3", auth);
      expect([...page1, ...page2].map((e: any) => e.id)).toEqual(entries.slice(0, 6).map((e: any) => e.id));
      expect((await api("/api/v1/account/wallet/ledger?limit=101", { headers: auth })).status).toBe(422);

      // Usage of the same jobs, from the daily aggregates.
      const usage = await get("/api/v1/account/usage?days=7", auth);
      expect(usage.totals).toEqual({ jobs: 4, pages: 3, pages_failed: 2, credits: 3 });
      expect(usage.by_tool).toEqual({ ocr: { jobs: 4, pages: 3, pages_failed: 2, credits: 3 } });
      expect(usage.jobs_by_status).toEqual({ completed: 1, partially_completed: 1, failed: 1, cancelled: 1 });
      expect(usage.daily).toHaveLength(7);
      expect(usage.daily.at(-1)).toMatchObject({
        day: new Date().toISOString().slice(0, 10),
        pages: 3,
        credits: 3,
        by_tool: { ocr: { pages: 3, credits: 3 } },
      });
    },
  );

  it("answers zeros for an account without a wallet row, and 401 without credentials", async () => {
    const { userId, auth } = await seedAccount({ credits: 0 });
    await env.DB.prepare("DELETE FROM wallets WHERE user_id = ?").bind(userId).run();
    expect(await get("/api/v1/account/wallet", auth)).toMatchObject({ balance: 0, reserved: 0, available: 0, updated_at: null });
    expect((await api("/api/v1/account/wallet")).status).toBe(401);
  });
});

describe("usage", () => {
  it("aggregates pages and credits per UTC day and tool, with every day of the range listed", async () => {
    const { userId, auth } = await seedAccount();
    const day = 86400_000;
    const now = Date.UTC(2026, 10, 20, 12);
    const d = db(env.DB);
    await recordUsage(d, { userId, tool: "ocr", status: "completed", pages: 3, pagesFailed: 0, credits: 3, at: now });
    await recordUsage(d, { userId, tool: "ocr", status: "partially_completed", pages: 1, pagesFailed: 1, credits: 1, at: now - 1000 });
    await recordUsage(d, { userId, tool: "translate", status: "completed", pages: 2, pagesFailed: 0, credits: 6, at: now - 2 * day });
    await recordUsage(d, { userId, tool: "translate", status: "failed", pages: 0, pagesFailed: 2, credits: 0, at: now - 2 * day });
    await recordUsage(d, { userId, tool: "erase", status: "cancelled", pages: 0, pagesFailed: 0, credits: 0, at: now - 10 * day });

    const week = await usageReport(d, userId, 7, now);
    expect(week).toMatchObject({ days: 7, from: "2026-11-14", to: "2026-11-20" });
    expect(week.daily.map((x) => x.day)).toEqual([
      "2026-11-14",
      "2026-11-15",
      "2026-11-16",
      "2026-11-17",
      "2026-11-18",
      "2026-11-19",
      "2026-11-20",
    ]);
    expect(week.daily.map((x) => [x.pages, x.credits])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [2, 6],
      [0, 0],
      [4, 4],
    ]);
    expect(week.daily.at(-1)!.by_tool).toEqual({ ocr: { jobs: 2, pages: 4, pages_failed: 1, credits: 4 } });
    expect(week.by_tool).toEqual({
      ocr: { jobs: 2, pages: 4, pages_failed: 1, credits: 4 },
      translate: { jobs: 2, pages: 2, pages_failed: 2, credits: 6 },
    });
    expect(week.jobs_by_status).toEqual({ completed: 2, partially_completed: 1, failed: 1, cancelled: 0 });
    expect(week.totals).toEqual({ jobs: 4, pages: 6, pages_failed: 3, credits: 10 });

    const month = await usageReport(d, userId, 30, now);
    expect(month.daily).toHaveLength(30);
    expect(month.jobs_by_status.cancelled).toBe(1);
    expect(month.by_tool.erase).toEqual({ jobs: 1, pages: 0, pages_failed: 0, credits: 0 });

    // Over HTTP: default 30 days; the range is validated.
    const http = await get("/api/v1/account/usage", auth);
    expect(http.days).toBe(30);
    expect(http.daily).toHaveLength(30);
    for (const bad of ["0", "366", "-1", "1.5", "abc"]) {
      const res = await api(`/api/v1/account/usage?days=${bad}`, { headers: auth });
      const b = await body(res);
      expect(res.status, `days=${bad}: ${JSON.stringify(b)}`).toBe(422);
      expect(b.error.details.fields[0].field).toBe("days");
    }
    expect((await get("/api/v1/account/usage?days=365", auth)).daily).toHaveLength(365);
  });
});
