import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { api, body } from "../helpers/api";
import { registered, SessionClient } from "../auth/session-client";

/**
 * The shared security table: every operation the OpenAPI document marks as protected (security
 * with bearerAuth or cookieAuth) is called without credentials, with a revoked API key, with an
 * expired session, without CSRF, and with another account's resource ids. The list comes from
 * the document at run time, so routes added later are covered without touching this file;
 * a new path parameter needs an owner-seeded id below (the test says so when one is missing).
 */

interface Operation {
  method: string;
  path: string;
  op: any;
}

const UNSAFE = new Set(["post", "put", "patch", "delete"]);

let doc: any;
let operations: Operation[];
let revokedKey: string;
let expired: SessionClient;
let owner: { client: SessionClient; apiKey: string };
/** Ids of resources that belong to another account, by path parameter name. */
const othersIds: Record<string, string> = {};

function resolve(schema: any): any {
  if (schema?.$ref) return resolve(doc.components.schemas[schema.$ref.split("/").pop()]);
  return schema ?? {};
}

/** A small valid instance of a JSON schema, so validation passes and the route reaches its ownership check. */
function sample(raw: any): unknown {
  const s = resolve(raw);
  if (s.default !== undefined) return s.default;
  if (s.enum) return s.enum[0];
  for (const k of ["allOf", "anyOf", "oneOf"]) if (s[k]) return sample(s[k].find((x: any) => resolve(x).type !== "null") ?? s[k][0]);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      // Required properties; a schema with none (a partial update) gets its first property.
      const keys: string[] = s.required?.length ? s.required : Object.keys(s.properties ?? {}).slice(0, 1);
      for (const key of keys) out[key] = sample(s.properties?.[key]);
      return out;
    }
    case "array":
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(s.items));
    case "integer":
    case "number":
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case "boolean":
      return false;
    case "string": {
      if (s.example !== undefined && typeof s.example === "string") return s.example;
      if (s.format === "email") return "someone@example.com";
      if (s.format === "uri" || s.format === "url") return "https://example.com/hook";
      if (s.format === "date-time") return new Date().toISOString();
      return "x".repeat(Math.max(1, s.minLength ?? 1));
    }
    default:
      return s.example ?? null;
  }
}

/**
 * Candidate bodies for an operation, tried in order until one passes validation: the documented
 * example, the required properties, then the required ones plus each optional property in turn
 * (cross-field rules such as "exactly one of a and b" are not expressed in JSON Schema).
 */
function requestBodies(op: any): { body?: BodyInit; headers: Record<string, string> }[] {
  const content = op.requestBody?.content;
  if (!content) return [{ headers: {} }];
  const media = content["application/json"];
  if (media) {
    const schema = resolve(media.schema);
    const required: string[] = schema.required ?? [];
    const base = Object.fromEntries(required.map((k) => [k, sample(schema.properties?.[k])]));
    const candidates: unknown[] = [];
    if (media.example !== undefined) candidates.push(media.example);
    if (schema.example !== undefined) candidates.push(schema.example);
    candidates.push(sample(schema));
    if (schema.type === "object") {
      for (const k of Object.keys(schema.properties ?? {}))
        if (!required.includes(k)) candidates.push({ ...base, [k]: sample(schema.properties[k]) });
    }
    return candidates.map((c) => ({ body: JSON.stringify(c), headers: { "Content-Type": "application/json" } }));
  }
  if (content["multipart/form-data"]) {
    const form = new FormData();
    const schema = resolve(content["multipart/form-data"].schema);
    for (const [key, prop] of Object.entries<any>(schema.properties ?? {})) {
      if (resolve(prop).format === "binary")
        form.set(key, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "x.png", { type: "image/png" }));
      else if ((schema.required ?? []).includes(key)) form.set(key, String(sample(prop)));
    }
    return [{ body: form, headers: {} }];
  }
  return [{ headers: {} }];
}

/** The first candidate body. Credential checks come before validation, so any body will do for them. */
const requestBody = (op: any) => requestBodies(op)[0]!;

/** Whether an answer is a validation failure of the body (so another candidate body should be tried). */
const bodyRefused = (status: number, b: any) =>
  status === 422 && (b.error?.details?.fields ?? []).some((f: any) => f.location === "json" || f.location === "form");

function fill(path: string, ids: (param: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_, p: string) => encodeURIComponent(ids(p)));
}

/** A syntactically plausible id for a parameter nobody seeded (answers 404 or fails loudly below). */
const anyId = (param: string) => othersIds[param] ?? newId(param.replace(/_id$/, "").slice(0, 3));

const describeOp = (o: Operation) => `${o.method.toUpperCase()} ${o.path} (${o.op.operationId})`;

function expectError(res: Response, b: any, status: number, code: string | null, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(b)}`).toBe(status);
  if (code) expect(b.error?.code, `${what}: ${JSON.stringify(b)}`).toBe(code);
}

/** Seeds one resource of every kind the spec's paths name, owned by `userId`. */
async function seedOtherAccount(userId: string, sessionId: string, keyId: string) {
  const now = Date.now();
  const id = (p: string) => newId(p);
  const ids = {
    project_id: id("prj"),
    job_id: id("job"),
    export_id: id("exp"),
    share_id: id("shr"),
    region_id: id("rgn"),
    table_id: id("tbl"),
    folder_id: id("fld"),
    endpoint_id: id("whe"),
    delivery_id: id("dlv"),
    glossary_id: id("gls"),
    entry_id: id("tm"),
    session_id: sessionId,
    key_id: keyId,
  };
  const pageId = id("pg");
  await env.DB.batch([
    env.DB.prepare("INSERT INTO folders (id, user_id, name, created_at, updated_at) VALUES (?, ?, 'theirs', ?, ?)").bind(
      ids.folder_id,
      userId,
      now,
      now,
    ),
    env.DB.prepare("INSERT INTO projects (id, user_id, name, tool, created_at, updated_at) VALUES (?, ?, 'theirs', 'ocr', ?, ?)").bind(
      ids.project_id,
      userId,
      now,
      now,
    ),
    env.DB.prepare(
      "INSERT INTO jobs (id, user_id, project_id, tool, status, options, created_at, updated_at) VALUES (?, ?, ?, 'ocr', 'failed', '{}', ?, ?)",
    ).bind(ids.job_id, userId, ids.project_id, now, now),
    env.DB.prepare("INSERT INTO pages (id, project_id, page_index, created_at, updated_at) VALUES (?, ?, 0, ?, ?)").bind(
      pageId,
      ids.project_id,
      now,
      now,
    ),
    env.DB.prepare(
      "INSERT INTO regions (id, project_id, page_id, x, y, w, h, created_at, updated_at) VALUES (?, ?, ?, 0, 0, 10, 10, ?, ?)",
    ).bind(ids.region_id, ids.project_id, pageId, now, now),
    env.DB.prepare(
      "INSERT INTO tables (id, project_id, page_id, x, y, w, h, rows, cols, created_at, updated_at) VALUES (?, ?, ?, 0, 0, 10, 10, 1, 1, ?, ?)",
    ).bind(ids.table_id, ids.project_id, pageId, now, now),
    env.DB.prepare(
      "INSERT INTO exports (id, user_id, project_id, job_id, format, status, key, filename, created_at) VALUES (?, ?, ?, ?, 'txt', 'ready', 'exports/x', 'x.txt', ?)",
    ).bind(ids.export_id, userId, ids.project_id, ids.job_id, now),
    env.DB.prepare("INSERT INTO shares (id, user_id, project_id, token_hash, token_prefix, created_at) VALUES (?, ?, ?, ?, 'shr', ?)").bind(
      ids.share_id,
      userId,
      ids.project_id,
      newId("hash"),
      now,
    ),
    env.DB.prepare(
      "INSERT INTO webhook_endpoints (id, user_id, url, secret, secret_prefix, created_at, updated_at) VALUES (?, ?, 'https://example.com/hook', 'whsec_x', 'whsec_', ?, ?)",
    ).bind(ids.endpoint_id, userId, now, now),
    env.DB.prepare(
      "INSERT INTO webhook_deliveries (id, endpoint_id, user_id, event_id, event_type, payload, created_at, updated_at) VALUES (?, ?, ?, 'evt_x', 'job.completed', '{}', ?, ?)",
    ).bind(ids.delivery_id, ids.endpoint_id, userId, now, now),
    env.DB.prepare(
      "INSERT INTO glossaries (id, user_id, name, source_language, target_language, created_at, updated_at) VALUES (?, ?, 'theirs', 'en', 'es', ?, ?)",
    ).bind(ids.glossary_id, userId, now, now),
    env.DB.prepare(
      "INSERT INTO translation_memory (id, user_id, source_language, target_language, source_hash, source_text, target_text, created_at, updated_at) VALUES (?, ?, 'en', 'es', 'h', 'a', 'b', ?, ?)",
    ).bind(ids.entry_id, userId, now, now),
  ]);
  Object.assign(othersIds, ids);
}

beforeAll(async () => {
  doc = await body(await api("/api/v1/openapi.json"));
  operations = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(
        ([method, op]) =>
          ["get", "post", "put", "patch", "delete"].includes(method) &&
          (op.security ?? []).some((req: any) => "bearerAuth" in req || "cookieAuth" in req),
      )
      .map(([method, op]) => ({ method, path, op })),
  );

  const a = await registered();
  const key = await body(await a.client.fetch("/api/v1/account/api-keys", { method: "POST", json: { name: "owner" } }));
  owner = { client: a.client, apiKey: key.key };
  const revoked = await body(await a.client.fetch("/api/v1/account/api-keys", { method: "POST", json: { name: "revoked" } }));
  expect((await a.client.fetch(`/api/v1/account/api-keys/${revoked.id}`, { method: "DELETE" })).status).toBe(204);
  revokedKey = revoked.key;

  const e = await registered();
  await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
    .bind(Date.now() - 1000, e.auth.session_id)
    .run();
  expired = e.client;

  const b = await registered();
  const bKey = await body(await b.client.fetch("/api/v1/account/api-keys", { method: "POST", json: { name: "theirs" } }));
  await seedOtherAccount(b.user.id, b.auth.session_id, bKey.id);
});

const uses = (o: Operation, scheme: string) => (o.op.security ?? []).some((req: any) => scheme in req);

describe("protected routes (from the OpenAPI document)", () => {
  it("finds the protected operations, with the account endpoints among them", () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(ids).toEqual(
      expect.arrayContaining([
        "getMe",
        "listApiKeys",
        "createApiKey",
        "revokeApiKey",
        "deleteAccount",
        "exportAccountData",
        "getJob",
        "listJobs",
      ]),
    );
  });

  it("refuses every one without credentials (401)", async () => {
    for (const o of operations) {
      const { body: payload, headers } = requestBody(o.op);
      const res = await api(fill(o.path, anyId), { method: o.method.toUpperCase(), headers, body: payload });
      expectError(res, await body(res), 401, null, describeOp(o));
    }
  });

  it("refuses a revoked API key with 401 invalid_api_key wherever API keys are accepted", async () => {
    for (const o of operations.filter((o) => uses(o, "bearerAuth"))) {
      const { body: payload, headers } = requestBody(o.op);
      const res = await api(fill(o.path, anyId), {
        method: o.method.toUpperCase(),
        headers: { ...headers, Authorization: `Bearer ${revokedKey}` },
        body: payload,
      });
      expectError(res, await body(res), 401, "invalid_api_key", describeOp(o));
    }
  });

  it("refuses an expired session cookie (401) wherever sessions are accepted", async () => {
    for (const o of operations.filter((o) => uses(o, "cookieAuth"))) {
      const { body: payload, headers } = requestBody(o.op);
      const res = await expired.fetch(fill(o.path, anyId), { method: o.method.toUpperCase(), headers, body: payload });
      expectError(res, await body(res), 401, null, describeOp(o));
    }
  });

  it("refuses unsafe cookie-authenticated requests without the CSRF value (403 csrf_failed)", async () => {
    for (const o of operations.filter((o) => uses(o, "cookieAuth") && UNSAFE.has(o.method))) {
      const { body: payload, headers } = requestBody(o.op);
      const res = await owner.client.fetch(fill(o.path, anyId), { method: o.method.toUpperCase(), headers, body: payload, noCsrf: true });
      expectError(res, await body(res), 403, "csrf_failed", describeOp(o));
    }
    expect((await owner.client.fetch("/api/v1/auth/me")).status).toBe(200);
  });

  it("answers 404 for another account's resource ids", async () => {
    const withParams = operations.filter((o) => o.path.includes("{"));
    expect(withParams.length).toBeGreaterThan(0);
    for (const o of withParams) {
      const params = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const unseeded = params.filter((p) => !(p in othersIds));
      expect(unseeded, `${describeOp(o)}: seed a resource of the other account for these parameters in seedOtherAccount()`).toEqual([]);
      const url = fill(o.path, (p) => othersIds[p]!);
      let answer: { res: Response; b: any } | undefined;
      for (const { body: payload, headers } of requestBodies(o.op)) {
        const init = { method: o.method.toUpperCase(), headers, body: payload };
        const res = uses(o, "bearerAuth")
          ? await api(url, { ...init, headers: { ...headers, Authorization: `Bearer ${owner.apiKey}` } })
          : await owner.client.fetch(url, init);
        answer = { res, b: await body(res) };
        if (!bodyRefused(res.status, answer.b)) break;
      }
      const hint = bodyRefused(answer!.res.status, answer!.b)
        ? " (no candidate body passed validation: give the request schema an `example` that does)"
        : "";
      expectError(answer!.res, answer!.b, 404, "not_found", describeOp(o) + hint);
    }
    // Nothing of the other account was changed by those calls.
    const untouched = await env.DB.prepare(
      "SELECT (SELECT revoked_at FROM sessions WHERE id = ?1) AS session, (SELECT revoked_at FROM api_keys WHERE id = ?2) AS key, (SELECT COUNT(*) FROM projects WHERE id = ?3 AND trashed_at IS NULL) AS projects",
    )
      .bind(othersIds.session_id, othersIds.key_id, othersIds.project_id)
      .first();
    expect(untouched).toEqual({ session: null, key: null, projects: 1 });
  });
});
