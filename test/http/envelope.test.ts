import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { api, body, seedAccount } from "../helpers/api";

function expectEnvelope(res: Response, b: any, code: string, status: number) {
  expect(res.status, JSON.stringify(b)).toBe(status);
  expect(b.error.code, JSON.stringify(b)).toBe(code);
  expect(typeof b.error.message).toBe("string");
  expect(typeof b.error.retryable).toBe("boolean");
  expect(b.error.details).toBeTypeOf("object");
  expect(b.error.request_id).toMatch(/^req_[a-z0-9]{20}$/);
  expect(res.headers.get("X-Request-Id")).toBe(b.error.request_id);
  expect(res.headers.get("Content-Type")).toContain("application/json");
}

describe("error envelope", () => {
  it("answers unknown routes with 404 route_not_found", async () => {
    const res = await api("/api/v1/nope");
    expectEnvelope(res, await body(res), "route_not_found", 404);
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const res = await api("/api/v1/config", { method: "DELETE" });
    const b = await body(res);
    expectEnvelope(res, b, "method_not_allowed", 405);
    expect(res.headers.get("Allow")).toBe("GET");
    expect(b.error.details.allowed).toEqual(["GET"]);
  });

  it("answers failed validation with 422 listing the fields", async () => {
    const { auth } = await seedAccount();
    const res = await api("/api/v1/jobs?limit=abc&offset=-1&job_status=nope", { headers: auth });
    const b = await body(res);
    expectEnvelope(res, b, "validation_error", 422);
    expect(b.error.retryable).toBe(false);
    const fields = b.error.details.fields.map((f: any) => f.field).sort();
    expect(fields).toEqual(["job_status", "limit", "offset"]);
    expect(b.error.details.fields[0].location).toBe("query");
  });

  it("answers malformed JSON with 400 invalid_json", async () => {
    const res = await api("/api/v1/admin/status-overrides", {
      method: "POST",
      headers: { Authorization: `Bearer ${env.ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: '{"component": "api", ',
    });
    expectEnvelope(res, await body(res), "invalid_json", 400);
  });

  it("answers an unexpected exception with 500 internal_error without leaking it", async () => {
    const app = createApp();
    app.get("/boom", () => {
      throw new Error("secret database password in a stack trace");
    });
    const res = await app.request("/boom", {}, env, {
      waitUntil: () => undefined,
      passThroughOnException: () => undefined,
      props: {},
    } as unknown as ExecutionContext);
    const text = await res.clone().text();
    expect(text).not.toContain("secret");
    const b = await body(res);
    expectEnvelope(res, b, "internal_error", 500);
    expect(b.error.retryable).toBe(true);
  });

  it("refuses requests without credentials with 401", async () => {
    const res = await api("/api/v1/jobs");
    expectEnvelope(res, await body(res), "unauthorized", 401);
  });

  it("refuses an unknown API key with 401 invalid_api_key", async () => {
    const res = await api("/api/v1/jobs", { headers: { Authorization: "Bearer lik_live_notarealkey" } });
    expectEnvelope(res, await body(res), "invalid_api_key", 401);
  });

  it("refuses another account's job with 404", async () => {
    const a = await seedAccount();
    const b = await seedAccount();
    await env.DB.prepare(
      "INSERT INTO jobs (id, user_id, tool, status, options, created_at, updated_at) VALUES ('job_ownedbyaccounta00000', ?, 'ocr', 'queued', '{}', 1, 1)",
    )
      .bind(a.userId)
      .run();
    expect((await api("/api/v1/jobs/job_ownedbyaccounta00000", { headers: a.auth })).status).toBe(200);
    const res = await api("/api/v1/jobs/job_ownedbyaccounta00000", { headers: b.auth });
    expectEnvelope(res, await body(res), "not_found", 404);
  });
});
