import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { db as makeDb } from "../../src/db/client";
import { newId } from "../../src/lib/ids";
import { rememberTranslation } from "../../src/modules/translation/translation.service";
import { translatingStage } from "../../src/pipeline/stages/translating";
import type { JobPlan } from "../../src/pipeline/stages/types";
import { ApertiumTranslator } from "../../src/providers/translators";
import { api, body, seedAccount } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";

const db = makeDb(env.DB);
const json = (auth: Record<string, string>) => ({ ...auth, "Content-Type": "application/json" });

/** A project with one page and the given regions, as the recognizing stage leaves them. */
async function seedProject(
  userId: string,
  regions: { text: string; userTranslation?: string; sourceLanguage?: string }[],
  opts: { target?: string | null } = {},
) {
  const projectId = newId("prj");
  const pageId = `pg_${projectId.slice(4)}_0`;
  const now = Date.now() - 1000;
  const ids = regions.map(() => newId("rgn"));
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO projects (id, user_id, name, tool, status, source_language, target_language, page_count, created_at, updated_at) VALUES (?, ?, 'Doc', 'translate', 'ready', 'en', ?, 1, ?, ?)",
    ).bind(projectId, userId, opts.target === undefined ? "es" : opts.target, now, now),
    env.DB.prepare(
      "INSERT INTO pages (id, project_id, page_index, width, height, status, created_at, updated_at) VALUES (?, ?, 0, 800, 600, 'ready', ?, ?)",
    ).bind(pageId, projectId, now, now),
    ...regions.map((r, i) =>
      env.DB.prepare(
        "INSERT INTO regions (id, project_id, page_id, reading_order, x, y, w, h, text, source_language, user_translation, confidence, created_at, updated_at) VALUES (?, ?, ?, ?, 10, ?, 300, 40, ?, ?, ?, 0.9, ?, ?)",
      ).bind(ids[i], projectId, pageId, i, 10 + 50 * i, r.text, r.sourceLanguage ?? "eng", r.userTranslation ?? null, now, now),
    ),
  ]);
  return { projectId, pageId, ids };
}

async function balance(userId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT balance FROM wallets WHERE user_id = ?").bind(userId).first<{ balance: number }>();
  return row!.balance;
}

async function retranslate(auth: Record<string, string>, projectId: string, regionId: string, payload: object = {}) {
  const res = await api(`/api/v1/projects/${projectId}/regions/${regionId}/retranslate`, {
    method: "POST",
    headers: json(auth),
    body: JSON.stringify(payload),
  });
  return { res, out: await body(res) };
}

async function createGlossary(auth: Record<string, string>, g: object): Promise<string> {
  const res = await api("/api/v1/account/glossaries", { method: "POST", headers: json(auth), body: JSON.stringify(g) });
  const out = await body(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out.id;
}

beforeAll(async () => {
  await new ApertiumTranslator(inject("apertiumUrl")).translate({ source: "en", target: "es", segments: [{ id: "w", text: "Hello" }] });
});

describe("POST /projects/{id}/regions/{id}/retranslate", () => {
  it("translates the region again, clears the edited translation, charges 1 credit and feeds the memory", async () => {
    const user = await seedAccount({ credits: 10 });
    const { projectId, pageId, ids } = await seedProject(user.userId, [{ text: "The house is red.", userTranslation: "Mi edición" }]);

    const { res, out } = await retranslate(user.auth, projectId, ids[0]!);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(out).toMatchObject({
      id: ids[0],
      page_id: pageId,
      page_index: 0,
      order: 0,
      kind: "text",
      box: { x: 10, y: 10, w: 300, h: 40 },
      text: "The house is red.",
      user_text: null,
      source_language: "en",
      user_translation: null,
      confidence: 0.9,
      vertical: false,
      leftover_text: false,
    });
    expect(out.translation).toMatch(/casa/);
    expect(await balance(user.userId)).toBe(9);
    const ledger = await env.DB.prepare("SELECT kind, amount, dedupe_key FROM ledger_entries WHERE user_id = ? AND kind = 'charge'")
      .bind(user.userId)
      .all();
    expect(ledger.results).toEqual([
      { kind: "charge", amount: -1, dedupe_key: expect.stringMatching(new RegExp(`^retranslate:${ids[0]}:`)) },
    ]);

    const tm = await body(await api("/api/v1/account/translation-memory", { headers: user.auth }));
    expect(tm).toEqual([
      expect.objectContaining({
        source_text: "The house is red.",
        target_text: out.translation,
        source_language: "en",
        target_language: "es",
      }),
    ]);

    // Another language, provider and a glossary: the term is enforced.
    const gid = await createGlossary(user.auth, {
      name: "g",
      source_language: "en",
      target_language: "ca",
      terms: [{ source: "house", target: "mansió" }],
    });
    const again = await retranslate(user.auth, projectId, ids[0]!, {
      provider: "apertium",
      target_language: "ca",
      glossary_ids: [gid],
      context: "A house",
    });
    expect(again.res.status, JSON.stringify(again.out)).toBe(200);
    expect(again.out.translation).toMatch(/mansió/);
    expect(again.out.translation).toMatch(/^La mansió és vermell/);
    expect(await balance(user.userId)).toBe(8);
  });

  it("refuses what it cannot do before charging anything", async () => {
    const user = await seedAccount({ credits: 10 });
    const { projectId, ids } = await seedProject(user.userId, [{ text: "The house is red." }, { text: "   " }]);
    const cases: [object, number, string][] = [
      [{ target_language: "ja" }, 422, "unsupported_language_pair"],
      [{ provider: "workers-ai" }, 422, "validation_error"],
      [{ provider: "babelfish" }, 422, "validation_error"],
      [{ glossary_ids: ["gls_doesnotexist0000000"] }, 404, "not_found"],
      [{ unknown_field: 1 }, 422, "validation_error"],
    ];
    for (const [payload, status, code] of cases) {
      const { res, out } = await retranslate(user.auth, projectId, ids[0]!, payload);
      expect([res.status, out.error?.code], JSON.stringify(out)).toEqual([status, code]);
    }
    const blank = await retranslate(user.auth, projectId, ids[1]!);
    expect([blank.res.status, blank.out.error?.code], JSON.stringify(blank.out)).toEqual([409, "conflict"]);

    const noTarget = await seedProject(user.userId, [{ text: "Hello" }], { target: null });
    const nt = await retranslate(user.auth, noTarget.projectId, noTarget.ids[0]!);
    expect([nt.res.status, nt.out.error?.code], JSON.stringify(nt.out)).toEqual([422, "validation_error"]);
    expect(await balance(user.userId)).toBe(10);
  });

  it("answers 402 without credits and leaves the region as it was", async () => {
    const user = await seedAccount({ credits: 0 });
    const { projectId, ids } = await seedProject(user.userId, [{ text: "The house is red." }]);
    const { res, out } = await retranslate(user.auth, projectId, ids[0]!);
    expect([res.status, out.error?.code], JSON.stringify(out)).toEqual([402, "insufficient_credits"]);
    // The body is optional: a bare POST is the same request.
    const bare = await api(`/api/v1/projects/${projectId}/regions/${ids[0]}/retranslate`, { method: "POST", headers: user.auth });
    expect(bare.status, await bare.text()).toBe(402);
    const row = await env.DB.prepare("SELECT translation FROM regions WHERE id = ?").bind(ids[0]).first();
    expect(row).toEqual({ translation: null });
  });

  it("answers 404 for another account's project or region, and for unknown ids", async () => {
    const owner = await seedAccount();
    const stranger = await seedAccount();
    const { projectId, ids } = await seedProject(owner.userId, [{ text: "The house is red." }]);
    const mine = await seedProject(stranger.userId, [{ text: "Hello" }]);
    for (const [p, r] of [
      [projectId, ids[0]!],
      [mine.projectId, ids[0]!],
      [projectId, "rgn_unknown"],
    ] as const) {
      const a = await retranslate(stranger.auth, p, r);
      expect([a.res.status, a.out.error?.code], JSON.stringify(a.out)).toEqual([404, "not_found"]);
      const b = await api(`/api/v1/projects/${p}/regions/${r}/alternatives`, { headers: stranger.auth });
      expect(b.status).toBe(404);
    }
    const noAuth = await api(`/api/v1/projects/${projectId}/regions/${ids[0]}/alternatives`);
    expect(noAuth.status).toBe(401);
  });
});

describe("GET /projects/{id}/regions/{id}/alternatives", () => {
  it("lists the provider's candidate, fuzzy memory matches and the glossary variant, for free", async () => {
    const user = await seedAccount({ credits: 5 });
    const { projectId, ids } = await seedProject(user.userId, [{ text: "The red house is big." }]);
    await rememberTranslation(db, user.userId, "en", "es", "The red house is very big.", "La casa roja es muy grande.");
    await createGlossary(user.auth, {
      name: "g",
      source_language: "en",
      target_language: "es",
      terms: [{ source: "house", target: "mansión" }],
    });

    const res = await api(`/api/v1/projects/${projectId}/regions/${ids[0]}/alternatives`, { headers: user.auth });
    const out = await body(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(out).toMatchObject({
      region_id: ids[0],
      source_language: "en",
      target_language: "es",
      source_text: "The red house is big.",
      current: { translation: null, user_translation: null },
    });
    expect(out.candidates.map((c: any) => c.origin)).toEqual(["provider", "translation_memory", "glossary"]);
    expect(out.candidates[0]).toMatchObject({ provider: "apertium", text: expect.stringMatching(/casa roja/) });
    expect(out.candidates[1]).toMatchObject({ text: "La casa roja es muy grande.", score: expect.any(Number) });
    expect(out.candidates[1].score).toBeGreaterThanOrEqual(0.75);
    expect(out.candidates[2].text).toMatch(/mansión/);
    expect(await balance(user.userId)).toBe(5);

    const ca = await body(
      await api(`/api/v1/projects/${projectId}/regions/${ids[0]}/alternatives?target_language=ca`, { headers: user.auth }),
    );
    expect(ca.candidates.map((c: any) => c.origin)).toEqual(["provider"]);
    expect(ca.candidates[0].text).toMatch(/casa/);
  });
});

describe("the translating stage", () => {
  it("translates a page's regions consistently, records term hits in the timeline and feeds the memory", async () => {
    const user = await seedAccount();
    const gid = await createGlossary(user.auth, {
      name: "g",
      source_language: "en",
      target_language: "es",
      terms: [{ source: "dog", target: "chucho" }],
    });
    const { projectId, ids } = await seedProject(user.userId, [
      { text: "The house is red." },
      { text: "My dog eats." },
      { text: "The  house\nis red." },
      { text: "" },
    ]);
    const jobId = newId("job");
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO jobs (id, user_id, project_id, tool, status, stage, options, created_at, updated_at) VALUES (?, ?, ?, 'translate', 'translating', 'translating', ?, ?, ?)",
    )
      .bind(
        jobId,
        user.userId,
        projectId,
        JSON.stringify({ tool: "translate", source_language: "en", target_language: "es", glossary_ids: [gid] }),
        now,
        now,
      )
      .run();
    const plan: JobPlan = {
      jobId,
      attempt: 0,
      kind: "single",
      userId: user.userId,
      projectId,
      tool: "translate",
      pages: 1,
      pagesToRun: [0],
      exportPages: [0],
      sourceKey: null,
      languages: ["eng"],
      targetLanguage: "es",
      formats: [],
      baseName: "doc",
      concurrency: 1,
    };

    const result = await translatingStage(env, db, plan, 0);
    expect(result).toEqual({ regions: 3 });
    const rows = (
      await env.DB.prepare("SELECT id, translation, source_language FROM regions WHERE project_id = ? ORDER BY reading_order")
        .bind(projectId)
        .all<any>()
    ).results;
    expect(rows[0].translation).toMatch(/casa/);
    expect(rows[2].translation).toBe(rows[0].translation);
    expect(rows[1].translation).toMatch(/chucho/);
    expect(rows.slice(0, 3).map((r) => r.source_language)).toEqual(["en", "en", "en"]);
    expect(rows[3]).toMatchObject({ id: ids[3], translation: null });

    const timeline = await body(await api(`/api/v1/jobs/${jobId}/timeline`, { headers: user.auth }));
    const event = timeline.events.find((e: any) => e.stage === "translating" && e.data.term_hits);
    expect(event, JSON.stringify(timeline)).toBeDefined();
    expect(event.data.term_hits).toEqual([{ glossary_id: gid, source: "dog", target: "chucho", count: 1, enforced: true }]);
    expect(event.data.origins).toEqual({ provider: 3 });
    expect(event.message).toMatch(/dog → chucho ×1/);

    const tm = await body(await api("/api/v1/account/translation-memory", { headers: user.auth }));
    expect(tm.map((e: any) => e.source_text).sort()).toEqual(["My dog eats.", "The house is red."]);

    // A retried step: the memory now answers, and the rows are rewritten the same way.
    await translatingStage(env, db, plan, 0);
    const second = (await body(await api(`/api/v1/jobs/${jobId}/timeline`, { headers: user.auth }))).events
      .filter((e: any) => e.data.term_hits)
      .at(-1);
    expect(second.data.origins).toEqual({ tm_exact: 3 });
    const again = (
      await env.DB.prepare("SELECT translation FROM regions WHERE project_id = ? ORDER BY reading_order").bind(projectId).all<any>()
    ).results;
    expect(again.map((r: any) => r.translation)).toEqual(rows.map((r: any) => r.translation));
  });
});

describe("job creation", () => {
  it("refuses a translate job for a pair no translator serves, leaving nothing behind", async () => {
    const user = await seedAccount({ credits: 50 });
    const png = await renderTextPng(["Hello world"]);
    const form = new FormData();
    form.append("file", new File([png], "hello.png", { type: "image/png" }));
    form.append("options", JSON.stringify({ tool: "translate", source_language: "en", target_language: "ja" }));
    const res = await api("/api/v1/process", { method: "POST", headers: user.auth, body: form });
    const out = await body(res);
    expect([res.status, out.error?.code], JSON.stringify(out)).toEqual([422, "unsupported_language_pair"]);
    expect(out.error.details).toMatchObject({ source_language: "en", target_language: "ja" });
    const jobs = await body(await api("/api/v1/jobs", { headers: user.auth }));
    expect(jobs.total).toBe(0);
    expect(await balance(user.userId)).toBe(50);
  });
});
