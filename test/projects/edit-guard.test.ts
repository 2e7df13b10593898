import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { db as drizzle } from "../../src/db/client";
import { ApiError } from "../../src/http/errors";
import { newId } from "../../src/lib/ids";
import { writeProjectContent } from "../../src/modules/projects/project-access";
import { regionChangeStatements } from "../../src/modules/projects/pages.repo";
import { api, body, seedAccount } from "../helpers/api";
import { seedProject } from "./seed";

/**
 * One guard for every write to a project's content: edits, re-translation, table cells, a
 * re-render and a retried job all refuse (409) a project that a job is processing, and a retried
 * job claims its project as a re-render does, so nothing edits it until that attempt ends.
 */

type Auth = Record<string, string>;
const json = (auth: Auth, method: string, payload: unknown): RequestInit => ({
  method,
  headers: { ...auth, "Content-Type": "application/json" },
  body: JSON.stringify(payload),
});

async function projectStatus(projectId: string): Promise<string> {
  return (await env.DB.prepare("SELECT status FROM projects WHERE id = ?").bind(projectId).first<string>("status"))!;
}

/** A re-render of the project that failed: what POST /jobs/{id}/retry starts again. */
async function failedRerender(userId: string, projectId: string): Promise<string> {
  const id = newId("job");
  const now = Date.now();
  const options = { tool: "ocr", source_language: "en", export_formats: ["txt"], ocr_languages: ["eng"], pages: [0] };
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO jobs (id, user_id, project_id, kind, tool, status, options, source_name, pages_total, pages_failed, error, workflow_instance_id, attempt, created_at, updated_at, finished_at)
       VALUES (?, ?, ?, 'rerender', 'ocr', 'failed', ?, 'seeded', 1, 1, ?, ?, 0, ?, ?, ?)`,
    ).bind(
      id,
      userId,
      projectId,
      JSON.stringify(options),
      JSON.stringify({ code: "engine_unavailable", message: "seeded failure" }),
      `${id}-a0`,
      now,
      now,
      now,
    ),
    env.DB.prepare("INSERT INTO job_pages (job_id, page_index, status, updated_at) VALUES (?, 0, 'failed', ?)").bind(id, now),
  ]);
  return id;
}

/** Another job of the account, running: on the free plan (one job at a time) it keeps a retried job queued. */
async function runningJob(userId: string): Promise<void> {
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO jobs (id, user_id, kind, tool, status, options, pages_total, created_at, updated_at) VALUES (?, ?, 'single', 'ocr', 'recognizing', '{}', 1, ?, ?)",
  )
    .bind(newId("job"), userId, now, now)
    .run();
}

async function expectBusy(res: Response, label: string) {
  const b = await body(res);
  expect([res.status, b.error?.code], `${label}: ${JSON.stringify(b)}`).toEqual([409, "conflict"]);
}

describe("the project edit guard", () => {
  it("refuses re-translating a region of a project that is being processed, and leaves the region as it was", async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const p = await seedProject(userId, {
      tool: "translate",
      status: "processing",
      targetLanguage: "es",
      pages: [{ regions: [{ text: "The house is big.", translation: "La casa es grande." }] }],
    });
    const regionId = p.regionIds[0]![0]!;
    await expectBusy(await api(`/api/v1/projects/${p.projectId}/regions/${regionId}/retranslate`, json(auth, "POST", {})), "retranslate");
    const row = await env.DB.prepare("SELECT translation, user_translation FROM regions WHERE id = ?").bind(regionId).first();
    expect(row).toEqual({ translation: "La casa es grande.", user_translation: null });
    const ledger = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_entries WHERE user_id = ? AND kind = 'charge'")
      .bind(userId)
      .first<number>("n");
    expect(ledger).toBe(0);
  });

  it("checks again inside the transaction that writes: a write prepared before a job claimed the project is refused whole", async () => {
    const { userId } = await seedAccount();
    const p = await seedProject(userId, { pages: [{ regions: [{ text: "before" }, { text: "second" }] }] });
    const db = drizzle(env.DB);
    const [a, b] = p.regionIds[0]!;
    const statements = regionChangeStatements(db, p.projectId, { updates: [{ id: a!, patch: { userText: "edited" } }], deletes: [b!] });
    // A job claims the project between the service's check and the write.
    await env.DB.prepare("UPDATE projects SET status = 'processing' WHERE id = ?").bind(p.projectId).run();
    const refused = await writeProjectContent(db, userId, p.projectId, statements).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("conflict");
    const rows = await env.DB.prepare("SELECT id, user_text FROM regions WHERE project_id = ? ORDER BY reading_order")
      .bind(p.projectId)
      .all();
    expect(rows.results).toEqual([
      { id: a, user_text: null },
      { id: b, user_text: null },
    ]);
    // Once the project is idle again the same write goes through.
    await env.DB.prepare("UPDATE projects SET status = 'ready' WHERE id = ?").bind(p.projectId).run();
    await writeProjectContent(
      db,
      userId,
      p.projectId,
      regionChangeStatements(db, p.projectId, { updates: [{ id: a!, patch: { userText: "edited" } }] }),
    );
    expect(await env.DB.prepare("SELECT user_text FROM regions WHERE id = ?").bind(a).first("user_text")).toBe("edited");
  });

  it(
    "a retried re-render claims its project: edits, cells, re-translation and re-render answer 409 until that attempt ends",
    { timeout: 60_000 },
    async () => {
      const { userId, auth } = await seedAccount({ credits: 10, plan: "free" });
      await runningJob(userId);
      const p = await seedProject(userId, {
        tool: "translate",
        targetLanguage: "es",
        pages: [{ regions: [{ text: "Hello world" }] }],
        table: { page: 0, rows: 1, cols: 1, cells: [{ row: 0, col: 0, text: "cell" }] },
      });
      const jobId = await failedRerender(userId, p.projectId);
      const retried = await api(`/api/v1/jobs/${jobId}/retry`, { method: "POST", headers: auth });
      const job = await body(retried);
      expect(retried.status, JSON.stringify(job)).toBe(200);
      expect(job).toMatchObject({ status: "queued", attempt: 1 });
      expect(await projectStatus(p.projectId)).toBe("processing");

      const regionId = p.regionIds[0]![0]!;
      const base = `/api/v1/projects/${p.projectId}`;
      await expectBusy(await api(`${base}/regions/${regionId}`, json(auth, "PATCH", { text: "meanwhile" })), "region edit");
      await expectBusy(await api(`${base}/regions/${regionId}/retranslate`, json(auth, "POST", {})), "retranslate");
      await expectBusy(await api(`${base}/tables/${p.tableId}/cells`, json(auth, "PATCH", [{ row: 0, column: 0, text: "x" }])), "cells");
      await expectBusy(await api(`${base}/rerender`, json(auth, "POST", {})), "rerender");
      expect(await env.DB.prepare("SELECT user_text FROM regions WHERE id = ?").bind(regionId).first("user_text")).toBeNull();

      // The attempt ends (cancelled here): the project is editable again.
      const cancelled = await api(`/api/v1/jobs/${jobId}/cancel`, { method: "POST", headers: auth });
      expect(cancelled.status, await cancelled.clone().text()).toBe(200);
      expect(await projectStatus(p.projectId)).toBe("ready");
      const edited = await api(`${base}/regions/${regionId}`, json(auth, "PATCH", { text: "afterwards" }));
      expect(edited.status, await edited.clone().text()).toBe(200);
    },
  );

  it("refuses to retry a job whose project another job is processing, and moves nothing", async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const p = await seedProject(userId, { status: "processing" });
    const jobId = await failedRerender(userId, p.projectId);
    await expectBusy(await api(`/api/v1/jobs/${jobId}/retry`, { method: "POST", headers: auth }), "retry");
    const job = await env.DB.prepare("SELECT status, attempt FROM jobs WHERE id = ?").bind(jobId).first();
    expect(job).toEqual({ status: "failed", attempt: 0 });
    expect(await projectStatus(p.projectId)).toBe("processing");
  });
});
