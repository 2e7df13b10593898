import type { z } from "@hono/zod-openapi";
import { ocrModel } from "../../../workers/shared/ocr-models";
import { LIMITS } from "../../lib/limits";
import { withTimeout } from "../../lib/timing";
import { servedPairs, translatorsFromEnv } from "../../providers/translators";
import { configuredProviders } from "../auth/oauth.service";
import { PLANS } from "../billing/plans";
import { JOB_STATUSES, TOOLS } from "../jobs/tools";
import { WEBHOOK_EVENT_TYPES } from "../webhooks/events";
import type { AppConfigOut, CheckOut, ComponentStatus, LanguageOut, StatusOut } from "./system.schemas";
import { activeOverrides } from "./system.repo";
import type { DB } from "../../db/client";

export const VERSION = "1.0.0";
const CHECK_TIMEOUT_MS = 3000;

type Check = z.infer<typeof CheckOut>;

async function check(name: string, fn: () => Promise<string | void>): Promise<[string, Check]> {
  const started = Date.now();
  try {
    const detail = await withTimeout(CHECK_TIMEOUT_MS, name, fn);
    return [name, { status: "ok", latency_ms: Date.now() - started, ...(detail ? { detail } : {}) }];
  } catch (err) {
    return [name, { status: "fail", latency_ms: Date.now() - started, detail: err instanceof Error ? err.message : String(err) }];
  }
}

/** Checks every dependency needed to do work: D1, both R2 buckets, the engine and a translator. */
export async function readiness(env: Env): Promise<{ ok: boolean; checks: Record<string, Check> }> {
  const results = await Promise.all([
    check("database", async () => {
      await env.DB.prepare("SELECT 1").first();
    }),
    check("files", async () => {
      await env.FILES.head("health/probe");
    }),
    check("models", async () => {
      const count = (await modelKeys(env)).length;
      if (count === 0) throw new Error("no OCR model is seeded in MODELS (run npm run seed:models)");
      return `${count} OCR models`;
    }),
    check("engine", async () => {
      const h = await env.ENGINE.health();
      if (!h.ok) throw new Error("engine reports no OCR language");
      return `OCR: ${h.ocrLanguages.join(", ")}; tesseract ${h.tesseract.version} (${h.tesseract.kernel}, ${h.tesseract.module})`;
    }),
    check("translator", async () => {
      const healths = await Promise.all(translatorsFromEnv(env).map((t) => t.health()));
      const up = healths.filter((h) => h.status === "ok");
      if (up.length === 0)
        throw new Error(
          healths.map((h) => `${h.name}: ${h.status}${h.detail ? ` (${h.detail})` : ""}`).join("; ") || "no translator configured",
        );
      return up.map((h) => h.name).join(", ");
    }),
  ]);
  const checks = Object.fromEntries(results);
  return { ok: results.every(([, c]) => c.status === "ok"), checks };
}

/** Each provider's state, for operators: OCR engine, translators, browser and AI bindings. */
export async function providers(env: Env) {
  const [ocr, translation] = await Promise.all([
    withTimeout(CHECK_TIMEOUT_MS, "engine", () => env.ENGINE.health()).then(
      (h) => ({ name: "tesseract-wasm", status: h.ok ? "ok" : "down", languages: h.ocrLanguages, fonts: h.fonts }),
      (err: unknown) => ({ name: "tesseract-wasm", status: "down", detail: err instanceof Error ? err.message : String(err) }),
    ),
    Promise.all(translatorsFromEnv(env).map((t) => t.health())),
  ]);
  return {
    ocr: [ocr],
    translation,
    translation_order: env.TRANSLATOR.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    browser_rendering: { status: env.BROWSER ? "ok" : "not_configured" },
    workers_ai: { status: env.AI ? "ok" : "not_configured" },
  };
}

/** Keys of the OCR models in MODELS, every page of the listing (production seeds over a hundred). */
async function modelKeys(env: Env): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.MODELS.list({ prefix: "tessdata/", cursor });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/**
 * The OCR models seeded in MODELS, described by the catalogue. `code` is what `source_language`
 * takes to select the model: its ISO 639-1 code for a language's main model, else its tesseract code.
 */
async function ocrLanguages(env: Env): Promise<z.infer<typeof LanguageOut>[]> {
  return (await modelKeys(env))
    .map((key) => /^tessdata\/(.+)\.traineddata(\.gz)?$/.exec(key)?.[1])
    .map((c) => (c ? ocrModel(c) : undefined))
    .filter((m) => m !== undefined)
    .map((m) => ({
      code: m.iso && !m.variant ? m.iso : m.code,
      name: m.name,
      ocr_code: m.code,
      script: m.script,
      direction: m.direction,
      vertical: !!m.vertical,
    }));
}

/** OCR and translation coverage that the configured providers really serve right now. */
export async function languages(env: Env) {
  const [ocr, pairs] = await Promise.all([ocrLanguages(env), servedPairs(translatorsFromEnv(env))]);
  return { ocr, translation_pairs: pairs };
}

/** GET /config: what clients need to build their forms, and the sign-in providers (never their secrets). */
export async function appConfig(env: Env): Promise<z.infer<typeof AppConfigOut>> {
  return {
    version: VERSION,
    environment: env.ENVIRONMENT,
    job_states: [...JOB_STATUSES],
    tools: Object.values(TOOLS).map((t) => ({ ...t, inputs: [...t.inputs] })),
    languages: await languages(env),
    plans: Object.values(PLANS),
    limits: { ...LIMITS },
    webhook_events: [...WEBHOOK_EVENT_TYPES],
    oauth_providers: configuredProviders(env),
  };
}

const SEVERITY: z.infer<typeof ComponentStatus>[] = ["operational", "maintenance", "degraded", "partial_outage", "major_outage"];

/** Public status: live health checks, with any active administrator override taking precedence. */
export async function status(env: Env, db: DB): Promise<z.infer<typeof StatusOut>> {
  const [{ checks }, overrides] = await Promise.all([readiness(env), activeOverrides(db, Date.now())]);
  const components = new Map<string, z.infer<typeof StatusOut>["components"][number]>();
  const name = { database: "api", files: "storage", models: "ocr", engine: "ocr", translator: "translation" } as const;
  for (const [check, result] of Object.entries(checks)) {
    const component = name[check as keyof typeof name] ?? check;
    const current = components.get(component);
    if (current?.status === "major_outage") continue;
    components.set(component, {
      name: component,
      status: result.status === "ok" ? "operational" : "major_outage",
      message: result.status === "ok" ? null : (result.detail ?? null),
      source: "health_check",
    });
  }
  for (const o of overrides) components.set(o.component, { name: o.component, status: o.status, message: o.message, source: "override" });
  const list = [...components.values()].sort((a, b) => a.name.localeCompare(b.name));
  const worst = list.reduce(
    (w, c) => (SEVERITY.indexOf(c.status) > SEVERITY.indexOf(w) ? c.status : w),
    "operational" as z.infer<typeof ComponentStatus>,
  );
  return { status: worst, components: list, updated_at: new Date().toISOString() };
}
