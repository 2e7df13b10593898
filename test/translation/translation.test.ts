import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { db as makeDb } from "../../src/db/client";
import { ApiError } from "../../src/http/errors";
import { alternatives, assertPairServed, rememberTranslation, translateSegments } from "../../src/modules/translation/translation.service";
import { ApertiumTranslator } from "../../src/providers/translators";
import { api, body, seedAccount } from "../helpers/api";

// A real apertium-apy on loopback, started by test/providers/apertium-global-setup.ts.
const url = inject("apertiumUrl");
const db = makeDb(env.DB);

/** An Apertium translator whose fetch counts /translate requests and records the text sent. */
function countingApertium() {
  const sent: string[] = [];
  const impl: typeof fetch = async (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if (path === "/translate") sent.push(init?.body instanceof URLSearchParams ? (init.body.get("q") ?? "") : "");
    return fetch(input, init);
  };
  return { translator: new ApertiumTranslator(url, impl), sent };
}

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    (v) => {
      throw new Error(`expected an ApiError, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

async function createGlossary(auth: Record<string, string>, g: object): Promise<string> {
  const res = await api("/api/v1/account/glossaries", {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(g),
  });
  const out = await body(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out.id;
}

let user: Awaited<ReturnType<typeof seedAccount>>;

beforeAll(async () => {
  user = await seedAccount();
  // The first request of a pair starts its pipeline (a few hundred ms): warm the pairs used here.
  const warm = new ApertiumTranslator(url);
  for (const [source, target] of [
    ["en", "es"],
    ["es", "ca"],
    ["ca", "es"],
  ] as const) {
    await warm.translate({ source, target, segments: [{ id: "w", text: "Hello" }] });
  }
});

describe("translateSegments through Apertium", () => {
  it("translates English into Spanish", async () => {
    const r = await translateSegments(env, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      segments: [
        { id: "a", text: "The house is red." },
        { id: "b", text: "My brother has two\ncats." },
      ],
    });
    expect(r.segments.map((s) => [s.id, s.origin, s.provider, s.source_language])).toEqual([
      ["a", "provider", "apertium", "en"],
      ["b", "provider", "apertium", "en"],
    ]);
    expect(r.segments[0]!.text).toMatch(/casa/);
    expect(r.segments[0]!.text).toMatch(/roja/);
    // A line break inside a paragraph is joined: the sentence is translated as one.
    expect(r.segments[1]!.text).toMatch(/hermano tiene dos gatos/);
  });

  it("joins a word hyphenated at a line's end before translating it, and keeps a compound's hyphen", async () => {
    const r = await translateSegments(env, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      segments: [
        { id: "a", text: "The children were play-\ning in the gar-\nden." },
        { id: "b", text: "THE FLY-\nSWATTER" },
      ],
    });
    expect(r.segments[0]!.text).toMatch(/en el jardín/);
    expect(r.segments[0]!.text).not.toMatch(/-/);
    expect(r.segments[1]!.text).toMatch(/-/);
  });

  it("keeps short lines without punctuation apart (headings, labels)", async () => {
    const r = await translateSegments(env, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      segments: [
        { id: "1", text: "dog" },
        { id: "2", text: "house" },
        { id: "3", text: "red house" },
        { id: "4", text: "big dog" },
      ],
    });
    expect(r.segments.map((s) => s.text.toLowerCase())).toEqual(["perro", "casa", "casa roja", "perro grande"]);
  });

  it("translates Spanish into Catalan", async () => {
    const r = await translateSegments(env, db, {
      userId: user.userId,
      source: "es",
      target: "ca",
      segments: [{ id: "a", text: "El perro duerme en la casa." }],
    });
    expect(r.segments[0]!.text, JSON.stringify(r)).toMatch(/gos/);
    expect(r.segments[0]!.text).toMatch(/casa/);
    expect(r.segments[0]!.origin).toBe("provider");
  });

  it("accepts a tesseract code as the source and copies segments without letters", async () => {
    const r = await translateSegments(env, db, {
      userId: user.userId,
      source: "eng",
      target: "es",
      segments: [
        { id: "n", text: "42 – 3.50 $" },
        { id: "t", text: "Good morning" },
      ],
    });
    expect(r.segments[0]).toMatchObject({ text: "42 – 3.50 $", origin: "copy", provider: null });
    expect(r.segments[1]!.text).toMatch(/Buenos días/i);
  });

  it("translates the same source segment the same way, with one provider request for it", async () => {
    const { translator, sent } = countingApertium();
    const r = await translateSegments(
      env,
      db,
      {
        userId: user.userId,
        source: "en",
        target: "es",
        segments: [
          { id: "1", text: "The cat sleeps." },
          { id: "2", text: "The book is new." },
          { id: "3", text: "The  cat\nsleeps." },
          { id: "4", text: "The cat sleeps." },
        ],
      },
      { translators: [translator] },
    );
    const texts = r.segments.map((s) => s.text);
    expect(texts[0]).toMatch(/gato/);
    expect(texts[2]).toBe(texts[0]);
    expect(texts[3]).toBe(texts[0]);
    const lines = sent.flatMap((q) => q.split("\n"));
    expect(lines.filter((l) => l === "The cat sleeps.")).toHaveLength(1);
  });
});

describe("glossaries", () => {
  it("makes a term come out as its target where Apertium would translate it otherwise", async () => {
    const plain = await translateSegments(env, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      segments: [{ id: "p", text: "My dog eats. Dog food is cheap." }],
    });
    expect(plain.segments[0]!.text).toMatch(/perro/i);

    const glossaryId = await createGlossary(user.auth, {
      name: "Pets",
      source_language: "en",
      target_language: "es",
      terms: [
        { source: "dog", target: "chucho" },
        { source: "Apple", target: "Apple", case_sensitive: true },
        { source: "house", target: "mansión" },
      ],
    });
    const r = await translateSegments(env, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      segments: [
        { id: "a", text: "My dog eats. Dog food is cheap." },
        { id: "b", text: "Apple sells an apple." },
        { id: "c", text: "dog" },
        { id: "d", text: "The house is my home." },
      ],
      glossaryIds: [glossaryId],
    });
    const [a, b, c, d] = r.segments;
    expect(a!.text, JSON.stringify(r)).toMatch(/chucho/);
    // Post-edited into the provider's own sentence: "Dog food" keeps Apertium's "Comida de …".
    expect(a!.text).toMatch(/Comida de chucho/);
    expect(a!.text).not.toMatch(/perro/i);
    expect(a!.origin).toBe("provider");
    expect(a!.term_hits).toEqual([{ glossary_id: glossaryId, source: "dog", target: "chucho", count: 2, enforced: true }]);
    // Case-sensitive: the company keeps its name, the fruit is still translated.
    expect(b!.text).toMatch(/^Apple/);
    expect(b!.text).toMatch(/manzana/);
    expect(b!.term_hits).toEqual([{ glossary_id: glossaryId, source: "Apple", target: "Apple", count: 1, enforced: true }]);
    // "house" and "home" are both "casa" in Spanish: post-editing cannot tell them apart, so the
    // term goes through a placeholder and only the house becomes a mansion.
    expect(d!.text).toMatch(/mansión/);
    expect(d!.text).toMatch(/mi casa/);
    expect(d!.term_hits).toEqual([{ glossary_id: glossaryId, source: "house", target: "mansión", count: 1, enforced: true }]);
    // A segment that is only a term needs no provider.
    expect(c).toMatchObject({ text: "chucho", origin: "glossary", provider: null });
    expect(r.term_hits).toEqual(
      expect.arrayContaining([
        { glossary_id: glossaryId, source: "dog", target: "chucho", count: 3, enforced: true },
        { glossary_id: glossaryId, source: "Apple", target: "Apple", count: 1, enforced: true },
      ]),
    );
  });

  it("refuses a glossary of another account", async () => {
    const other = await seedAccount();
    const foreign = await createGlossary(other.auth, {
      name: "x",
      source_language: "en",
      target_language: "es",
      terms: [{ source: "a", target: "b" }],
    });
    const err = await apiError(
      translateSegments(env, db, {
        userId: user.userId,
        source: "en",
        target: "es",
        segments: [{ id: "a", text: "Hi" }],
        glossaryIds: [foreign],
      }),
    );
    expect(err.code).toBe("not_found");
  });
});

describe("translation memory", () => {
  it("reuses an exact match without calling the provider", async () => {
    const account = await seedAccount();
    const { translator, sent } = countingApertium();
    const input = { userId: account.userId, source: "en", target: "es", segments: [{ id: "a", text: "The garden is green." }] };

    const first = await translateSegments(env, db, input, { translators: [translator] });
    expect(first.segments[0]!.origin).toBe("provider");
    expect(sent.length).toBeGreaterThan(0);

    await rememberTranslation(db, account.userId, "en", "es", "The garden is green.", "El jardín es verde (revisado).");
    sent.length = 0;
    const second = await translateSegments(
      env,
      db,
      {
        ...input,
        segments: [
          { id: "a", text: "The  garden is\ngreen." },
          { id: "b", text: "The garden is green." },
        ],
      },
      { translators: [translator] },
    );
    expect(second.segments.map((s) => [s.origin, s.text])).toEqual([
      ["tm_exact", "El jardín es verde (revisado)."],
      ["tm_exact", "El jardín es verde (revisado)."],
    ]);
    expect(second.segments[0]!.tm_entry_id).toMatch(/^tm_/);
    expect(sent).toEqual([]);

    const list = await body(await api("/api/v1/account/translation-memory", { headers: account.auth }));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      source_text: "The garden is green.",
      target_text: "El jardín es verde (revisado).",
      uses: 1,
      source_language: "en",
      target_language: "es",
    });
  });

  it("does not reuse a match that lacks a glossary target", async () => {
    const account = await seedAccount();
    await rememberTranslation(db, account.userId, "en", "es", "The dog runs.", "El perro corre.");
    const gid = await createGlossary(account.auth, {
      name: "g",
      source_language: "en",
      target_language: "es",
      terms: [{ source: "dog", target: "chucho" }],
    });
    const r = await translateSegments(env, db, {
      userId: account.userId,
      source: "en",
      target: "es",
      segments: [{ id: "a", text: "The dog runs." }],
      glossaryIds: [gid],
    });
    expect(r.segments[0]!.origin).toBe("provider");
    expect(r.segments[0]!.text).toMatch(/chucho/);
  });

  it("offers fuzzy matches at or above the threshold as alternatives, with each provider and the glossary variant", async () => {
    const account = await seedAccount();
    await rememberTranslation(db, account.userId, "en", "es", "The red house is very big.", "La casa roja es muy grande.");
    await rememberTranslation(db, account.userId, "en", "es", "Completely unrelated words here.", "Palabras sin relación.");
    await createGlossary(account.auth, {
      name: "g",
      source_language: "en",
      target_language: "es",
      terms: [{ source: "house", target: "mansión" }],
    });

    const r = await alternatives(env, db, { userId: account.userId, source: "en", target: "es", text: "The red house is big." });
    expect(r.fuzzy_threshold).toBe(0.75);
    const byOrigin = (o: string) => r.candidates.filter((c) => c.origin === o);
    expect(byOrigin("provider")).toEqual([expect.objectContaining({ provider: "apertium", text: expect.stringMatching(/casa/) })]);
    const tmCandidates = byOrigin("translation_memory");
    expect(tmCandidates, JSON.stringify(r)).toHaveLength(1);
    expect(tmCandidates[0]).toMatchObject({
      text: "La casa roja es muy grande.",
      source_text: "The red house is very big.",
      entry_id: expect.stringMatching(/^tm_/),
    });
    expect(tmCandidates[0]!.score).toBeGreaterThanOrEqual(0.75);
    expect(tmCandidates[0]!.score).toBeLessThan(1);
    const glossary = byOrigin("glossary");
    expect(glossary).toHaveLength(1);
    expect(glossary[0]!.text).toMatch(/mansión/);

    // A stricter threshold from TM_FUZZY_THRESHOLD drops the match.
    const strict = await alternatives({ ...env, TM_FUZZY_THRESHOLD: "95" }, db, {
      userId: account.userId,
      source: "en",
      target: "es",
      text: "The red house is big.",
    });
    expect(strict.fuzzy_threshold).toBe(0.95);
    expect(strict.candidates.filter((c) => c.origin === "translation_memory")).toEqual([]);
  });
});

describe("source language detection", () => {
  it("detects each segment's language and translates it, leaving text already in the target alone", async () => {
    const r = await translateSegments(env, db, {
      userId: user.userId,
      source: "auto",
      target: "es",
      segments: [
        { id: "en", text: "The weather is very nice today and we are going to the beach." },
        { id: "ca", text: "Avui fa molt bon temps i anem a la platja amb els nostres amics." },
        { id: "es", text: "Hoy hace muy buen tiempo y vamos a la playa con nuestros amigos." },
        { id: "short", text: "Thanks" },
      ],
    });
    const by = Object.fromEntries(r.segments.map((s) => [s.id, s]));
    expect(by.en).toMatchObject({ source_language: "en", origin: "provider" });
    expect(by.en!.text).toMatch(/playa/);
    expect(by.ca).toMatchObject({ source_language: "ca", origin: "provider" });
    expect(by.ca!.text).toMatch(/playa/);
    expect(by.es).toMatchObject({
      source_language: "es",
      origin: "copy",
      text: "Hoy hace muy buen tiempo y vamos a la playa con nuestros amigos.",
    });
    expect(by.short!.source_language).toMatch(/^(en|es|ca)$/);
  });
});

describe("unsupported pairs", () => {
  it("refuses a pair no translator serves, and reports an unreachable translator as unavailable", async () => {
    await expect(assertPairServed(env, "en", "es")).resolves.toBeUndefined();
    await expect(assertPairServed(env, "auto", "ca")).resolves.toBeUndefined();
    const err = await apiError(assertPairServed(env, "en", "ja"));
    expect(err.code).toBe("unsupported_language_pair");
    expect(err.status).toBe(422);
    expect(err.details).toMatchObject({ source_language: "en", target_language: "ja" });

    const down = await apiError(assertPairServed(env, "en", "es", [new ApertiumTranslator("http://127.0.0.1:9")]));
    expect(down.code).toBe("provider_unavailable");

    const mid = await apiError(
      translateSegments(env, db, { userId: user.userId, source: "en", target: "ja", segments: [{ id: "a", text: "Hello" }] }),
    );
    expect(mid.code).toBe("unsupported_language_pair");
  });
});
