import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { db as makeDb } from "../../src/db/client";
import { rememberTranslation } from "../../src/modules/translation/translation.service";
import { api, body, seedAccount } from "../helpers/api";

const db = makeDb(env.DB);
/** Creation times are milliseconds: a short pause keeps the newest-first order unambiguous. */
const tick = () => new Promise((r) => setTimeout(r, 5));
const json = (auth: Record<string, string>) => ({ ...auth, "Content-Type": "application/json" });

async function call(method: string, path: string, auth: Record<string, string>, payload?: unknown) {
  const res = await api(path, { method, headers: json(auth), ...(payload === undefined ? {} : { body: JSON.stringify(payload) }) });
  const text = await res.text();
  return { status: res.status, out: text ? JSON.parse(text) : null, raw: text };
}

describe("glossaries", () => {
  it("creates a glossary with its terms and answers GlossaryOut", async () => {
    const user = await seedAccount();
    const { status, out, raw } = await call("POST", "/api/v1/account/glossaries", user.auth, {
      name: "Brand",
      source_language: "en",
      target_language: "es",
      case_sensitive: true,
      terms: [
        { source: "Lingoscan", target: "Lingoscan" },
        { source: "dog", target: "chucho", case_sensitive: false },
      ],
    });
    expect(status, raw).toBe(201);
    expect(out).toEqual({
      id: expect.stringMatching(/^gls_[0-9a-z]{20}$/),
      name: "Brand",
      source_language: "en",
      target_language: "es",
      term_count: 2,
      terms: [
        { source: "Lingoscan", target: "Lingoscan", case_sensitive: true },
        { source: "dog", target: "chucho", case_sensitive: false },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it.each([
    ["the same language on both sides", { name: "x", source_language: "en", target_language: "en" }, "target_language"],
    ["a malformed language code", { name: "x", source_language: "English", target_language: "es" }, "source_language"],
    ["no name", { source_language: "en", target_language: "es" }, "name"],
    ["an empty term", { name: "x", source_language: "en", target_language: "es", terms: [{ source: " ", target: "b" }] }, "terms.0.source"],
    [
      "the same source twice",
      {
        name: "x",
        source_language: "en",
        target_language: "es",
        terms: [
          { source: "Dog", target: "a" },
          { source: "dog", target: "b" },
        ],
      },
      "terms.1.source",
    ],
  ])("refuses %s with 422", async (_label, payload, field) => {
    const user = await seedAccount();
    const { status, out, raw } = await call("POST", "/api/v1/account/glossaries", user.auth, payload);
    expect(status, raw).toBe(422);
    expect(out.error.code).toBe("validation_error");
    expect(out.error.details.fields.map((f: any) => f.field)).toContain(field);
  });

  it("lists newest first with paging", async () => {
    const user = await seedAccount();
    for (const name of ["one", "two", "three"]) {
      const { status } = await call("POST", "/api/v1/account/glossaries", user.auth, {
        name,
        source_language: "en",
        target_language: "es",
      });
      expect(status).toBe(201);
      await tick();
    }
    const other = await seedAccount();
    await call("POST", "/api/v1/account/glossaries", other.auth, { name: "foreign", source_language: "en", target_language: "es" });

    const first = await call("GET", "/api/v1/account/glossaries?limit=2", user.auth);
    expect(first.status, first.raw).toBe(200);
    expect(first.out.map((g: any) => g.name)).toEqual(["three", "two"]);
    const rest = await call("GET", "/api/v1/account/glossaries?limit=2&offset=2", user.auth);
    expect(rest.out.map((g: any) => g.name)).toEqual(["one"]);
    const all = await call("GET", "/api/v1/account/glossaries", user.auth);
    expect(all.out).toHaveLength(3);
    for (const bad of ["limit=0", "limit=101", "offset=-1", "limit=abc"]) {
      const r = await call("GET", `/api/v1/account/glossaries?${bad}`, user.auth);
      expect([r.status, r.out.error.code], r.raw).toEqual([422, "validation_error"]);
    }
  });

  it("replaces the terms, deletes, and answers 404 for another account's glossary", async () => {
    const owner = await seedAccount();
    const stranger = await seedAccount();
    const created = await call("POST", "/api/v1/account/glossaries", owner.auth, {
      name: "g",
      source_language: "en",
      target_language: "es",
      terms: [{ source: "a", target: "b" }],
    });
    const id = created.out.id;

    const put = await call("PUT", `/api/v1/account/glossaries/${id}/terms`, owner.auth, [
      { source: "house", target: "mansión" },
      { source: "Apple", target: "Apple", case_sensitive: true },
      { source: "apple", target: "manzana", case_sensitive: true },
    ]);
    expect(put.status, put.raw).toBe(200);
    expect(put.out).toMatchObject({
      id,
      term_count: 3,
      terms: [
        { source: "house", target: "mansión", case_sensitive: false },
        { source: "Apple", target: "Apple", case_sensitive: true },
        { source: "apple", target: "manzana", case_sensitive: true },
      ],
    });

    const many = Array.from({ length: 1001 }, (_, i) => ({ source: `t${i}`, target: `u${i}` }));
    expect((await call("PUT", `/api/v1/account/glossaries/${id}/terms`, owner.auth, many)).status).toBe(422);
    expect((await call("PUT", `/api/v1/account/glossaries/${id}/terms`, owner.auth, { source: "a", target: "b" })).status).toBe(422);
    const full = await call("PUT", `/api/v1/account/glossaries/${id}/terms`, owner.auth, many.slice(0, 1000));
    expect([full.status, full.out.term_count], full.raw.slice(0, 300)).toEqual([200, 1000]);
    expect(full.out.terms.at(-1)).toEqual({ source: "t999", target: "u999", case_sensitive: false });

    for (const [method, path, payload] of [
      ["PUT", `/api/v1/account/glossaries/${id}/terms`, []],
      ["DELETE", `/api/v1/account/glossaries/${id}`, undefined],
      ["PUT", "/api/v1/account/glossaries/gls_unknown/terms", []],
    ] as const) {
      const r = await call(method, path, stranger.auth, payload);
      expect([r.status, r.out?.error?.code], r.raw).toEqual([404, "not_found"]);
    }
    // The owner's glossary is untouched by the stranger's attempts.
    expect((await call("GET", "/api/v1/account/glossaries", owner.auth)).out[0].term_count).toBe(1000);

    const del = await call("DELETE", `/api/v1/account/glossaries/${id}`, owner.auth);
    expect(del.status, del.raw).toBe(204);
    expect((await call("DELETE", `/api/v1/account/glossaries/${id}`, owner.auth)).status).toBe(404);
    expect((await call("GET", "/api/v1/account/glossaries", owner.auth)).out).toEqual([]);
    const terms = await env.DB.prepare("SELECT COUNT(*) AS n FROM glossary_terms WHERE glossary_id = ?").bind(id).first();
    expect(terms).toEqual({ n: 0 });
  });

  it("needs credentials", async () => {
    expect((await api("/api/v1/account/glossaries")).status).toBe(401);
    expect((await api("/api/v1/account/translation-memory")).status).toBe(401);
  });
});

describe("translation memory", () => {
  it("lists entries newest first with paging and filters, and deletes only the account's own", async () => {
    const owner = await seedAccount();
    const stranger = await seedAccount();
    await rememberTranslation(db, owner.userId, "en", "es", "One.", "Uno.");
    await tick();
    await rememberTranslation(db, owner.userId, "en", "ca", "Two.", "Dos.");
    await tick();
    await rememberTranslation(db, owner.userId, "en", "es", "Three.", "Tres.");
    // The same source again replaces the target of its entry.
    await rememberTranslation(db, owner.userId, "en", "es", "  One. ", "¡Uno!");
    await rememberTranslation(db, stranger.userId, "en", "es", "Foreign.", "Ajeno.");

    const all = await call("GET", "/api/v1/account/translation-memory", owner.auth);
    expect(all.status, all.raw).toBe(200);
    expect(all.out.map((e: any) => [e.source_text, e.target_text])).toEqual([
      ["Three.", "Tres."],
      ["Two.", "Dos."],
      ["One.", "¡Uno!"],
    ]);
    expect(all.out[0]).toEqual({
      id: expect.stringMatching(/^tm_/),
      source_language: "en",
      target_language: "es",
      source_text: "Three.",
      target_text: "Tres.",
      uses: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_used_at: null,
    });
    const page = await call("GET", "/api/v1/account/translation-memory?limit=1&offset=1", owner.auth);
    expect(page.out.map((e: any) => e.source_text)).toEqual(["Two."]);
    const ca = await call("GET", "/api/v1/account/translation-memory?target_language=ca", owner.auth);
    expect(ca.out.map((e: any) => e.source_text)).toEqual(["Two."]);
    expect((await call("GET", "/api/v1/account/translation-memory?limit=500", owner.auth)).status).toBe(422);

    const id = all.out[0].id;
    const foreign = await call("DELETE", `/api/v1/account/translation-memory/${id}`, stranger.auth);
    expect([foreign.status, foreign.out?.error?.code], foreign.raw).toEqual([404, "not_found"]);
    const del = await call("DELETE", `/api/v1/account/translation-memory/${id}`, owner.auth);
    expect(del.status, del.raw).toBe(204);
    expect((await call("DELETE", `/api/v1/account/translation-memory/${id}`, owner.auth)).status).toBe(404);
    const after = await call("GET", "/api/v1/account/translation-memory", owner.auth);
    expect(after.out.map((e: any) => e.source_text)).toEqual(["Two.", "One."]);
  });
});

describe("OpenAPI document", () => {
  it("describes the glossary, translation-memory and region translation operations with the spec's schema names", async () => {
    const doc = await body(await api("/api/v1/openapi.json"));
    const ops = (path: string) => Object.values(doc.paths[path] ?? {}).map((o: any) => o.operationId);
    expect(ops("/api/v1/account/glossaries")).toEqual(expect.arrayContaining(["listGlossaries", "createGlossary"]));
    expect(ops("/api/v1/account/glossaries/{glossary_id}/terms")).toEqual(["replaceGlossaryTerms"]);
    expect(ops("/api/v1/account/glossaries/{glossary_id}")).toEqual(["deleteGlossary"]);
    expect(ops("/api/v1/account/translation-memory")).toEqual(["listTranslationMemory"]);
    expect(ops("/api/v1/account/translation-memory/{entry_id}")).toEqual(["deleteTranslationMemoryEntry"]);
    expect(ops("/api/v1/projects/{project_id}/regions/{region_id}/retranslate")).toEqual(["retranslateRegion"]);
    expect(ops("/api/v1/projects/{project_id}/regions/{region_id}/alternatives")).toEqual(["getRegionAlternatives"]);
    for (const name of [
      "GlossaryCreateRequest",
      "GlossaryOut",
      "GlossaryTermIn",
      "TranslationMemoryOut",
      "RetranslateRequest",
      "RegionOut",
    ]) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
  });
});
