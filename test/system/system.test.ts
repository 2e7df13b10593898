import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../src/modules/webhooks/events";
import { api, body } from "../helpers/api";

const admin = { Authorization: `Bearer ${env.ADMIN_TOKEN}`, "Content-Type": "application/json" };

describe("health", () => {
  it("live answers without dependencies", async () => {
    const res = await api("/health/live");
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b).toMatchObject({ status: "ok", version: "1.0.0" });
  });

  it("ready checks every dependency", async () => {
    const res = await api("/health/ready");
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(Object.keys(b.checks).sort()).toEqual(["database", "engine", "files", "models", "translator"]);
    for (const c of Object.values<any>(b.checks)) expect(c.status).toBe("ok");
    expect(b.checks.engine.detail).toContain("eng");
    // The build the engine loads: workerd validates relaxed SIMD, so the relaxed-SIMD module.
    expect(b.checks.engine.detail).toContain("tesseract 5.3.0 (relaxed-simd, tesseract-relaxed.wasm)");
  });

  it("providers reports the OCR engine and translators", async () => {
    const b = await body(await api("/health/providers"));
    expect(b.ocr[0]).toMatchObject({ name: "tesseract-wasm", status: "ok" });
    expect(b.ocr[0].languages).toContain("eng");
    expect(b.translation.map((t: any) => t.name)).toContain("apertium");
    expect(b.workers_ai.status).toBe("not_configured");
  });
});

describe("config and languages", () => {
  it("config lists tools with stages, plans with page limits and limits", async () => {
    const b = await body(await api("/api/v1/config"));
    const ocr = b.tools.find((t: any) => t.id === "ocr");
    expect(ocr.stages).toEqual(["preprocessing", "detecting", "recognizing", "exporting"]);
    expect(ocr.export_formats).toEqual(expect.arrayContaining(["txt", "json"]));
    expect(ocr.inputs).toEqual(expect.arrayContaining(["png", "jpeg", "pdf"]));
    expect(b.plans.map((p: any) => p.id)).toEqual(["free", "pro", "business"]);
    for (const p of b.plans) expect(p.page_limit).toBeGreaterThan(0);
    expect(b.limits.max_upload_bytes).toBeGreaterThan(0);
    expect(b.job_states).toContain("partially_completed");
    expect(b.webhook_events).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(b.webhook_events).toContain("job.completed");
  });

  it("languages lists only the OCR models really installed", async () => {
    const b = await body(await api("/api/v1/languages"));
    expect(b.ocr.map((l: any) => l.ocr_code)).toEqual(["eng"]);
    expect(b.ocr[0]).toMatchObject({ code: "en", name: "English" });
    expect(b.translation_pairs).toEqual(expect.arrayContaining([expect.objectContaining({ source: "en", target: "es" })]));
  });
});

describe("status with administrator overrides", () => {
  it("derives status from health checks", async () => {
    const b = await body(await api("/api/v1/status"));
    expect(b.status).toBe("operational");
    expect(b.components.every((c: any) => c.source === "health_check")).toBe(true);
  });

  it("an override takes precedence until cleared", async () => {
    const set = await api("/api/v1/admin/status-overrides", {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ component: "translation", status: "maintenance", message: "Upgrading language pairs" }),
    });
    expect(set.status, await set.clone().text()).toBe(201);
    let b = await body(await api("/api/v1/status"));
    expect(b.components.find((c: any) => c.name === "translation")).toMatchObject({
      status: "maintenance",
      source: "override",
      message: "Upgrading language pairs",
    });
    expect(b.status).toBe("maintenance");

    expect((await api("/api/v1/admin/status-overrides/translation", { method: "DELETE", headers: admin })).status).toBe(204);
    b = await body(await api("/api/v1/status"));
    expect(b.status).toBe("operational");
    expect((await api("/api/v1/admin/status-overrides/translation", { method: "DELETE", headers: admin })).status).toBe(404);
  });

  it("refuses overrides without the administrator token", async () => {
    const payload = { method: "POST", body: JSON.stringify({ component: "api", status: "major_outage" }) };
    expect((await api("/api/v1/admin/status-overrides", { ...payload, headers: { "Content-Type": "application/json" } })).status).toBe(401);
    const wrong = await api("/api/v1/admin/status-overrides", {
      ...payload,
      headers: { "Content-Type": "application/json", Authorization: "Bearer nope" },
    });
    expect((await body(wrong)).error.code).toBe("forbidden");
  });
});

describe("OpenAPI", () => {
  it("publishes a 3.1 document with the spec's schema names", async () => {
    const doc = await body(await api("/api/v1/openapi.json"));
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    for (const name of ["JobOut", "JobListOut", "HealthOut", "StatusOut", "AppConfigOut", "ErrorOut"])
      expect(doc.components.schemas).toHaveProperty(name);
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
    expect(doc.paths["/api/v1/process"].post.responses["202"]).toBeDefined();
  });

  it("serves an interactive reference at /docs", async () => {
    const res = await api("/docs");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("/api/v1/openapi.json");
  });
});

describe("readiness failure", () => {
  it("answers 503 in the envelope when a dependency fails", async () => {
    const listed = await env.MODELS.list({ prefix: "tessdata/" });
    await env.MODELS.delete(listed.objects.map((o) => o.key));
    const res = await api("/health/ready");
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(503);
    expect(b.error.code).toBe("service_unavailable");
    expect(b.error.retryable).toBe(true);
    expect(b.error.details.checks.models.status).toBe("fail");
  });
});
