import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { db as drizzle } from "../../src/db/client";
import { newId } from "../../src/lib/ids";
import { closeAccount } from "../../src/modules/auth/auth.repo";
import { acceptTotpStep, insertSession, insertUser, promotePendingSession } from "../../src/modules/auth/auth.repo";
import { applyMove } from "../../src/modules/billing/wallet.repo";
import { claimForRerender } from "../../src/modules/projects/projects.repo";
import { clearOverride, insertOverride } from "../../src/modules/system/system.repo";
import { disableEndpoint, insertDeliveries } from "../../src/modules/webhooks/webhooks.repo";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";
import { form } from "../jobs/fixtures";
import { seedProject } from "../projects/seed";
import { createEndpoint, RECEIVER } from "../webhooks/helpers";

/**
 * Every conditional write that decides something from "did this statement write its row", run
 * with dependent rows present. D1's meta.changes counts rows changed by ON DELETE CASCADE and by
 * triggers too, so each table written here also gets a trigger (storage is per test file) that
 * writes an audit row: a check that trusted meta.changes would see 2 where 1 row was written.
 */
const AUDITED = [
  "users",
  "wallets",
  "sessions",
  "projects",
  "ledger_entries",
  "webhook_endpoints",
  "webhook_deliveries",
  "idempotency_keys",
  "status_overrides",
];

const db = () => drizzle(env.DB);

beforeAll(async () => {
  await env.DB.prepare("CREATE TABLE test_audit (tbl TEXT NOT NULL, op TEXT NOT NULL)").run();
  await env.DB.batch(
    AUDITED.flatMap((t) =>
      ["INSERT", "UPDATE", "DELETE"].map((op) =>
        env.DB.prepare(
          `CREATE TRIGGER test_audit_${t}_${op} AFTER ${op} ON ${t} BEGIN INSERT INTO test_audit (tbl, op) VALUES ('${t}', '${op}'); END`,
        ),
      ),
    ),
  );
});

async function endpointWithDelivery() {
  const account = await seedAccount();
  const created = await createEndpoint(account.auth, { url: `${RECEIVER}/hook/rows-written`, events: ["*"] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const deliveryId = newId("dlv");
  const inserted = await insertDeliveries(db(), [
    {
      id: deliveryId,
      endpointId: created.body.id,
      userId: account.userId,
      eventId: newId("evt"),
      eventType: "job.completed",
      payload: { job_id: "job_x" },
    },
  ]);
  return { ...account, endpointId: created.body.id as string, deliveryId, inserted };
}

describe("conditional writes with dependent rows and triggers present", () => {
  it("DELETE /account/webhooks/{id} answers 204 for an endpoint with deliveries (they cascade), then 404", async () => {
    const { auth, endpointId, deliveryId, inserted } = await endpointWithDelivery();
    expect(inserted).toEqual([deliveryId]);
    const res = await api(`/api/v1/account/webhooks/${endpointId}`, { method: "DELETE", headers: auth });
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await body(await api("/api/v1/account/webhooks", { headers: auth }))).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE id = ?").bind(deliveryId).first("n")).toBe(0);
    const again = await api(`/api/v1/account/webhooks/${endpointId}`, { method: "DELETE", headers: auth });
    expect(again.status).toBe(404);
    expect((await body(again)).error.code).toBe("not_found");
  });

  it("a delivery is inserted once per endpoint and event; an endpoint with deliveries is disabled once", async () => {
    const { userId, endpointId, deliveryId } = await endpointWithDelivery();
    const eventId = (await env.DB.prepare("SELECT event_id FROM webhook_deliveries WHERE id = ?")
      .bind(deliveryId)
      .first<string>("event_id"))!;
    const repeat = await insertDeliveries(db(), [
      { id: newId("dlv"), endpointId, userId, eventId, eventType: "job.completed", payload: {} },
    ]);
    expect(repeat).toEqual([]);
    expect(await disableEndpoint(db(), endpointId, Date.now())).toBe(true);
    expect(await disableEndpoint(db(), endpointId, Date.now())).toBe(false);
  });

  it("a sign-up creates the account and its wallet once; the same address again is refused", async () => {
    const email = `${newId("usr")}@example.com`;
    const user = await insertUser(db(), { id: newId("usr"), email, name: null, passwordHash: null, emailVerifiedAt: null });
    expect(user?.email).toBe(email);
    expect(await env.DB.prepare("SELECT balance FROM wallets WHERE user_id = ?").bind(user!.id).first("balance")).toBe(0);
    expect(await insertUser(db(), { id: newId("usr"), email, name: null, passwordHash: null, emailVerifiedAt: null })).toBeUndefined();
  });

  it("a TOTP step is accepted once and a pending session promoted once, for an account with sessions and projects", async () => {
    const { userId } = await seedAccount();
    await seedProject(userId);
    const now = Date.now();
    const pending = await insertSession(db(), {
      id: newId("ses"),
      tokenHash: newId("h"),
      userId,
      userAgent: null,
      ip: null,
      method: "password",
      twoFactorPending: true,
      expiresAt: now + 60_000,
    });
    expect(await acceptTotpStep(db(), userId, 100)).toBe(true);
    expect(await acceptTotpStep(db(), userId, 100)).toBe(false);
    expect(await promotePendingSession(db(), pending.id, { id: newId("ses"), tokenHash: newId("h"), expiresAt: now + 60_000 }, now)).toBe(
      true,
    );
    expect(await promotePendingSession(db(), pending.id, { id: newId("ses"), tokenHash: newId("h"), expiresAt: now + 60_000 }, now)).toBe(
      false,
    );
  });

  it("an account with projects, sessions and keys is closed once", async () => {
    const { userId } = await seedAccount();
    await seedProject(userId, { export: true });
    await insertSession(db(), {
      id: newId("ses"),
      tokenHash: newId("h"),
      userId,
      userAgent: null,
      ip: null,
      method: "password",
      twoFactorPending: false,
      expiresAt: Date.now() + 60_000,
    });
    expect(await closeAccount(db(), userId, Date.now())).toBe(true);
    expect(await closeAccount(db(), userId, Date.now())).toBe(false);
  });

  it("a money move happens once per dedupe key on a wallet with ledger history", async () => {
    const { userId } = await seedAccount({ credits: 10 });
    const move = {
      userId,
      kind: "charge" as const,
      amount: -1,
      reservedDelta: 0,
      requireAvailable: 1,
      dedupeKey: `rows-written:${userId}`,
      reason: "test",
    };
    expect(await applyMove(db(), move)).toBe(true);
    expect(await applyMove(db(), move)).toBe(false);
    expect(await env.DB.prepare("SELECT balance FROM wallets WHERE user_id = ?").bind(userId).first("balance")).toBe(9);
  });

  it("a project with pages, regions and exports is claimed for a re-render once", async () => {
    const { userId } = await seedAccount();
    const { projectId } = await seedProject(userId, {
      pages: [{ regions: [{ text: "a" }, { text: "b" }] }, { regions: [{ text: "c" }] }],
      export: true,
    });
    expect(await claimForRerender(db(), projectId)).toBe(true);
    expect(await claimForRerender(db(), projectId)).toBe(false);
  });

  it("a status override is cleared once", async () => {
    await insertOverride(db(), { component: "ocr", status: "degraded", message: "test" });
    expect(await clearOverride(db(), "ocr", Date.now())).toBe(true);
    expect(await clearOverride(db(), "ocr", Date.now())).toBe(false);
  });

  it("an Idempotency-Key is claimed once: the repeat replays the first answer", { timeout: 90_000 }, async () => {
    const { auth } = await seedAccount({ credits: 10 });
    const send = async () =>
      api("/api/v1/process", {
        method: "POST",
        headers: { ...auth, "Idempotency-Key": "rows-written-1" },
        body: form([{ bytes: await renderTextPng(["Claimed once"]), name: "a.png" }], { tool: "ocr" }),
      });
    const first = await send();
    const created = await body(first);
    expect(first.status, JSON.stringify(created)).toBe(202);
    const repeat = await send();
    expect(repeat.status, await repeat.clone().text()).toBe(202);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await body(repeat)).id).toBe(created.id);
    await waitForJob(created.id, auth);
  });

  it("the triggers did fire: every audited table recorded writes", async () => {
    const rows = await env.DB.prepare("SELECT DISTINCT tbl FROM test_audit").all<{ tbl: string }>();
    expect(rows.results.map((r) => r.tbl).sort()).toEqual([...AUDITED].sort());
  });
});
