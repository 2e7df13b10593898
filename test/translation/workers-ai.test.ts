import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db as makeDb } from "../../src/db/client";
import { ApiError } from "../../src/http/errors";
import { translateSegments } from "../../src/modules/translation/translation.service";
import { INSTRUCT_MODEL, M2M100_MODEL, ProviderError, WorkersAiContextPass } from "../../src/providers/translators";
import { api, body, seedAccount } from "../helpers/api";

// Workers AI cannot run offline: the AI binding is replaced at its boundary (`run`).

type Call = { model: string; inputs: any };

/** Whole sentences the fake m2m100 knows; anything else is translated word by word. */
const SENTENCES: Record<string, string> = {
  "Captain Smith arrives at the harbour.": "El capitán Herrero llega al puerto.",
  "Smith is tired.": "Smith está cansado.",
  "The ship is old.": "El barco es viejo.",
};
const WORDS: Record<string, string> = { my: "mi", dog: "perro", sleeps: "duerme", the: "el", cat: "gato", is: "es", here: "aquí" };

function m2m100(text: string): string {
  if (SENTENCES[text]) return SENTENCES[text];
  // Unknown words (names, placeholders) pass through, like a neural model copying a code.
  return text.replace(/[\p{L}\p{N}]+/gu, (w) => {
    const t = WORDS[w.toLowerCase()];
    if (!t) return w;
    return w[0] === w[0]!.toUpperCase() ? t[0]!.toUpperCase() + t.slice(1) : t;
  });
}

/** A stand-in AI binding: m2m100 via the fake above, the instruction model via `instruct`. */
function fakeAi(
  instruct: (inputs: any) => Promise<unknown>,
  translate: (inputs: any) => Promise<unknown> = async (i) => ({ translated_text: m2m100(i.text) }),
) {
  const calls: Call[] = [];
  const run = vi.fn(async (model: string, inputs: any) => {
    calls.push({ model, inputs });
    if (model === M2M100_MODEL) return translate(inputs);
    if (model === INSTRUCT_MODEL) return instruct(inputs);
    throw new Error(`5007: No such model ${model}`);
  });
  return { ai: { run } as unknown as Ai, calls, run };
}

const userPayload = (call: Call) => JSON.parse(call.inputs.messages[1].content);

const db = makeDb(env.DB);
let user: Awaited<ReturnType<typeof seedAccount>>;
beforeAll(async () => {
  user = await seedAccount();
});

describe("Workers AI translation with the context pass", () => {
  it("sends m2m100 one request per distinct segment, then one constrained instruction call for the page", async () => {
    const { ai, calls } = fakeAi(async (inputs) => {
      const page = JSON.parse(inputs.messages[1].content);
      const id = (needle: string) => page.segments.find((s: any) => s.translation.includes(needle)).id;
      return {
        response: {
          edits: [
            { id: id("Herrero"), from: "Herrero", to: "Smith" }, // the name as in the other segment: applied
            { id: id("cansado"), from: "cansado", to: "agotadísimo" }, // a new rendering: refused
            { id: id("barco"), from: "barco", to: "navío" }, // not on the page either: refused
            { id: "s99", from: "x", to: "y" }, // unknown segment: refused
          ],
        },
      };
    });
    const aiEnv = { ...env, TRANSLATOR: "workers-ai", AI: ai };
    const r = await translateSegments(aiEnv, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      context: "A sea story.",
      segments: [
        { id: "1", text: "Captain Smith arrives at the harbour." },
        { id: "2", text: "Smith is tired." },
        { id: "3", text: "The ship is old." },
        { id: "4", text: "Smith is tired." },
      ],
    });

    expect(r.segments.map((s) => [s.id, s.text, s.origin, s.provider])).toEqual([
      ["1", "El capitán Smith llega al puerto.", "provider", "workers-ai"],
      ["2", "Smith está cansado.", "provider", "workers-ai"],
      ["3", "El barco es viejo.", "provider", "workers-ai"],
      ["4", "Smith está cansado.", "provider", "workers-ai"],
    ]);
    expect(r.context_edits).toBe(1);

    const translations = calls.filter((c) => c.model === M2M100_MODEL);
    expect(translations.map((c) => c.inputs)).toEqual([
      { text: "Captain Smith arrives at the harbour.", source_lang: "en", target_lang: "es" },
      { text: "Smith is tired.", source_lang: "en", target_lang: "es" },
      { text: "The ship is old.", source_lang: "en", target_lang: "es" },
    ]);
    const instructions = calls.filter((c) => c.model === INSTRUCT_MODEL);
    expect(instructions).toHaveLength(1);
    const call = instructions[0]!;
    expect(call.inputs.messages.map((m: any) => m.role)).toEqual(["system", "user"]);
    expect(call.inputs.messages[0].content).toMatch(/JSON only/);
    expect(call.inputs.response_format).toMatchObject({ type: "json_schema", json_schema: { required: ["edits"] } });
    expect(call.inputs.temperature).toBe(0);
    expect(userPayload(call)).toEqual({
      source_language: "en",
      target_language: "es",
      context: "A sea story.",
      glossary: [],
      segments: [
        { id: "s0", source: "Captain Smith arrives at the harbour.", translation: "El capitán Herrero llega al puerto." },
        { id: "s1", source: "Smith is tired.", translation: "Smith está cansado." },
        { id: "s2", source: "The ship is old.", translation: "El barco es viejo." },
      ],
    });
  });

  it("enforces glossary terms on m2m100 output and keeps them out of the model's reach", async () => {
    const res = await api("/api/v1/account/glossaries", {
      method: "POST",
      headers: { ...user.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "pets", source_language: "en", target_language: "es", terms: [{ source: "dog", target: "chucho" }] }),
    });
    const glossary = await body(res);
    expect(res.status, JSON.stringify(glossary)).toBe(201);
    const { ai, calls } = fakeAi(async (inputs) => {
      const page = JSON.parse(inputs.messages[1].content);
      // Tries to undo the glossary term: refused (locked).
      return { response: JSON.stringify({ edits: [{ id: page.segments[0].id, from: "chucho", to: "gato" }] }) };
    });
    const r = await translateSegments({ ...env, TRANSLATOR: "workers-ai", AI: ai }, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      glossaryIds: [glossary.id],
      segments: [
        { id: "a", text: "My dog sleeps." },
        { id: "b", text: "The cat is here." },
      ],
    });
    expect(r.segments[0]!.text).toBe("Mi chucho duerme.");
    expect(r.segments[0]!.term_hits).toEqual([{ glossary_id: glossary.id, source: "dog", target: "chucho", count: 1, enforced: true }]);
    expect(r.segments[1]!.text).toBe("El gato es aquí.");
    expect(r.context_edits).toBe(0);
    expect(userPayload(calls.find((c) => c.model === INSTRUCT_MODEL)!).glossary).toEqual([{ source: "dog", target: "chucho" }]);
    // The term was translated alone in the same batch, to find its rendering in the sentence.
    expect(calls.filter((c) => c.model === M2M100_MODEL).map((c) => c.inputs.text)).toEqual(["My dog sleeps.", "The cat is here.", "dog"]);
  });

  it("keeps the provider's translations when the instruction model fails or answers nonsense", async () => {
    for (const instruct of [
      async () => {
        throw new Error("3040: Capacity temporarily exceeded, please try again.");
      },
      async () => ({ response: "Sure! Here are some thoughts about your page." }),
    ]) {
      const { ai } = fakeAi(instruct);
      const r = await translateSegments({ ...env, TRANSLATOR: "workers-ai", AI: ai }, db, {
        userId: user.userId,
        source: "en",
        target: "es",
        segments: [
          { id: "1", text: "Captain Smith arrives at the harbour." },
          { id: "2", text: "Smith is tired." },
        ],
      });
      expect(r.segments.map((s) => s.text)).toEqual(["El capitán Herrero llega al puerto.", "Smith está cansado."]);
      expect(r.context_edits).toBe(0);
    }
  });
});

describe("WorkersAiContextPass", () => {
  const segments = Array.from({ length: 7 }, (_, i) => ({
    id: `s${i}`,
    source: `Line ${i} about Smith.`,
    translation: `Línea ${i} sobre ${i === 3 ? "Herrero" : "Smith"}.`,
  }));

  it("batches a long page into several calls and applies edits across them", async () => {
    const { ai, calls } = fakeAi(async (inputs) => {
      const page = JSON.parse(inputs.messages[1].content);
      return {
        response: {
          edits: page.segments
            .filter((s: any) => s.translation.includes("Herrero"))
            .map((s: any) => ({ id: s.id, from: "Herrero", to: "Smith" })),
        },
      };
    });
    const r = await new WorkersAiContextPass(ai, { maxSegmentsPerCall: 3 }).refine({ source: "en", target: "es", segments, glossary: [] });
    expect(calls.map((c) => userPayload(c).segments.map((s: any) => s.id))).toEqual([["s0", "s1", "s2"], ["s3", "s4", "s5"], ["s6"]]);
    expect(r.applied).toEqual([{ id: "s3", from: "Herrero", to: "Smith" }]);
    expect(r.segments.find((s) => s.id === "s3")!.translation).toBe("Línea 3 sobre Smith.");
    expect(r.rejected).toBe(0);
  });

  it("maps failures: transient ones retried then provider_unavailable (retryable), input errors at once", async () => {
    const transient = fakeAi(async () => {
      throw new Error("3040: Capacity temporarily exceeded, please try again.");
    });
    const err = await new WorkersAiContextPass(transient.ai, { retryDelayMs: 1 })
      .refine({ source: "en", target: "es", segments, glossary: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ code: "provider_unavailable", retryable: true, provider: "workers-ai" });
    expect(transient.run).toHaveBeenCalledTimes(2);

    const invalid = fakeAi(async () => {
      throw new Error("5006: Error: oneOf at '/' not all valid");
    });
    const err2 = await new WorkersAiContextPass(invalid.ai, { retryDelayMs: 1 })
      .refine({ source: "en", target: "es", segments, glossary: [] })
      .catch((e: unknown) => e);
    expect(err2).toMatchObject({ code: "provider_unavailable", retryable: false });
    expect(invalid.run).toHaveBeenCalledTimes(1);
  });
});

describe("m2m100 failures", () => {
  it("retries a transient failure of one segment", async () => {
    let failures = 1;
    const { ai, calls } = fakeAi(
      async () => ({ response: { edits: [] } }),
      async (inputs) => {
        if (failures-- > 0) throw new Error("3040: Capacity temporarily exceeded, please try again.");
        return { translated_text: m2m100(inputs.text) };
      },
    );
    const r = await translateSegments({ ...env, TRANSLATOR: "workers-ai", AI: ai }, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      segments: [{ id: "1", text: "The ship is old." }],
    });
    expect(r.segments[0]!.text).toBe("El barco es viejo.");
    expect(calls.filter((c) => c.model === M2M100_MODEL)).toHaveLength(2);
  });

  it("falls back to the next provider, and answers provider_unavailable when none can", async () => {
    const broken = fakeAi(
      async () => ({ response: { edits: [] } }),
      async () => {
        throw new Error("5006: Error: oneOf at '/' not all valid");
      },
    );
    const viaApertium = await translateSegments({ ...env, TRANSLATOR: "workers-ai,apertium", AI: broken.ai }, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      segments: [{ id: "1", text: "The house is red." }],
    });
    expect(viaApertium.segments[0]).toMatchObject({ provider: "apertium", origin: "provider" });
    expect(viaApertium.segments[0]!.text).toMatch(/casa/);
    // An input error is not retried.
    expect(broken.calls.filter((c) => c.model === M2M100_MODEL)).toHaveLength(1);

    const err = await translateSegments({ ...env, TRANSLATOR: "workers-ai", AI: broken.ai }, db, {
      userId: user.userId,
      source: "en",
      target: "es",
      segments: [{ id: "1", text: "The house is red." }],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: "provider_unavailable",
      details: { provider: "workers-ai", source_language: "en", target_language: "es" },
    });
  });
});
