import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ApertiumTranslator, ProviderError, servedPairs, translatorsFromEnv } from "../../src/providers/translators";

// A real apertium-apy on loopback, started by test/providers/apertium-global-setup.ts.
const url = inject("apertiumUrl");

/** fetch that records every request's path and text (`q`), to look at how segments are batched. */
function recordingFetch() {
  const calls: { path: string; q?: string }[] = [];
  const impl: typeof fetch = async (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    const body = init?.body instanceof URLSearchParams ? init.body : undefined;
    calls.push({ path, q: body?.get("q") ?? undefined });
    return fetch(input, init);
  };
  return { calls, impl };
}

async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    (value) => {
      throw new Error(`expected a ProviderError, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

const ANIMALS: [en: string, es: string][] = [
  ["dog", "perro"],
  ["cat", "gato"],
  ["house", "casa"],
  ["book", "libro"],
  ["tree", "árbol"],
];

describe("ApertiumTranslator against apertium-apy", () => {
  const apertium = new ApertiumTranslator(url);

  beforeAll(async () => {
    // The first request of a pair starts its pipeline (a few hundred ms); warm it once.
    await apertium.translate({ source: "en", target: "es", segments: [{ id: "warm", text: "Hello" }] });
  });

  it("translates English sentences into Spanish", async () => {
    const out = await apertium.translate({
      source: "en",
      target: "es",
      segments: [
        { id: "a", text: "The house is red." },
        { id: "b", text: "I saw a man with a telescope." },
        { id: "c", text: "My brother has two cats." },
      ],
    });
    expect(out.map((s) => s.id)).toEqual(["a", "b", "c"]);
    expect(out.every((s) => s.provider === "apertium")).toBe(true);
    expect(out[0]?.text).toMatch(/casa/);
    expect(out[0]?.text).toMatch(/roja/);
    expect(out[1]?.text).toMatch(/hombre/);
    expect(out[1]?.text).toMatch(/telescopio/);
    expect(out[2]?.text).toMatch(/gatos/);
  });

  it("leaves one space where it drops a word the target leaves out", async () => {
    // Spanish drops the subject pronoun: "WISH I WAS" comes back as "DESEO ERA", not "DESEO  ERA".
    const [out] = await apertium.translate({
      source: "en",
      target: "es",
      segments: [{ id: "a", text: "SURE DOES! WISH I WAS LIKE HIM!" }],
    });
    expect(out!.text).toMatch(/deseo era/i);
    expect(out!.text).not.toMatch(/ {2}/);
  });

  it("keeps 20 segments aligned, including multi-line, blank and tricky ones", async () => {
    const segments = Array.from({ length: 20 }, (_, i) => {
      const [en] = ANIMALS[i % ANIMALS.length]!;
      return { id: `seg-${i}`, text: `${i + 100}. The ${en} is big.` };
    });
    segments[3] = { id: "seg-3", text: "The house is red.\nThe book is new." };
    segments[7] = { id: "seg-7", text: "" };
    segments[11] = { id: "seg-11", text: "   " };
    segments[15] = { id: "seg-15", text: "Price: $3.50 & <b>tax</b> [1] ^x$ \\ / @ * #" };
    const out = await apertium.translate({ source: "en", target: "es", segments });

    expect(out.map((s) => s.id)).toEqual(segments.map((s) => s.id));
    out.forEach((seg, i) => {
      if ([3, 7, 11, 15].includes(i)) return;
      const [, es] = ANIMALS[i % ANIMALS.length]!;
      expect(seg.text, JSON.stringify(seg)).toContain(`${i + 100}.`);
      expect(seg.text.toLowerCase(), JSON.stringify(seg)).toContain(es);
    });
    expect(out[3]?.text.split("\n")).toHaveLength(2);
    expect(out[3]?.text).toMatch(/^La casa es roja\.\nEl libro es nuevo\.$/);
    expect(out[7]?.text).toBe("");
    expect(out[11]?.text).toBe("   ");
    // Plain-text mode: markup-like characters are text, not tags or entities.
    expect(out[15]?.text).toContain("<b>");
    expect(out[15]?.text).toContain("&");
  });

  it("splits more than 10 KB into requests of at most 4 KB and returns all of it", async () => {
    const { calls, impl } = recordingFetch();
    const t = new ApertiumTranslator(url, impl);
    const segments = Array.from({ length: 40 }, (_, i) => ({
      id: `p${i}`,
      text: `Marker ${1000 + i}. ` + "The old man walks to the market with his dog every morning. ".repeat(5),
    }));
    // One line longer than a request on its own: cut at spaces, translated in pieces.
    segments.push({ id: "long", text: `Start 7777. ${"The children play in the garden. ".repeat(160)}End 8888.` });
    const bytes = new TextEncoder().encode(segments.map((s) => s.text).join("\n")).length;
    expect(bytes).toBeGreaterThan(10_000);

    const out = await t.translate({ source: "en", target: "es", segments });

    const translateCalls = calls.filter((c) => c.path === "/translate");
    expect(translateCalls.length).toBeGreaterThanOrEqual(4);
    for (const c of translateCalls) expect(new TextEncoder().encode(c.q ?? "").length).toBeLessThanOrEqual(4000);
    expect(out).toHaveLength(41);
    out.slice(0, 40).forEach((seg, i) => {
      expect(seg.id).toBe(`p${i}`);
      expect(seg.text).toContain(String(1000 + i));
      expect(seg.text.match(/hombre/g)?.length, seg.text).toBe(5);
      expect(seg.text.match(/perro/g)?.length, seg.text).toBe(5);
    });
    const long = out[40]!;
    expect(long.text).toContain("7777");
    expect(long.text).toContain("8888");
    expect(long.text.match(/jardín/g)?.length, long.text).toBe(160);
  });

  it("translates through a pivot language when there is no direct pair", async () => {
    const pairs = await apertium.pairs();
    expect(pairs).toContainEqual({ source: "en", target: "fr", via: "es" });
    const out = await apertium.translate({ source: "en", target: "fr", segments: [{ id: "x", text: "The house is red." }] });
    expect(out[0]?.text).toMatch(/maison/);
    // No unknown-word marks leak from the intermediate step.
    const names = await apertium.translate({ source: "fr", target: "en", segments: [{ id: "y", text: "Monsieur Xyzzyq habite à Lyon." }] });
    expect(names[0]?.text).toContain("Xyzzyq");
    expect(names[0]?.text).not.toContain("*");
  });

  it("serves en→es directly and reports only ISO 639-1 codes", async () => {
    const pairs = await apertium.pairs();
    expect(pairs).toContainEqual({ source: "en", target: "es" });
    expect(pairs).toContainEqual({ source: "es", target: "en" });
    for (const p of pairs) {
      expect(p.source).toMatch(/^[a-z]{2}$/);
      expect(p.target).toMatch(/^[a-z]{2}$/);
    }
    expect(pairs.find((p) => p.target === "de" || p.source === "de")).toBeUndefined();
  });

  it("rejects a pair it does not serve with unsupported_language_pair", async () => {
    for (const [source, target] of [
      ["en", "de"],
      ["en", "xx"],
      ["en", "en"],
    ] as const) {
      const err = await providerError(apertium.translate({ source, target, segments: [{ id: "1", text: "Hello" }] }));
      expect(err.code).toBe("unsupported_language_pair");
      expect(err.retryable).toBe(false);
    }
  });

  it("reports health ok with its latency and pair count", async () => {
    const h = await apertium.health();
    expect(h, JSON.stringify(h)).toMatchObject({ name: "apertium", status: "ok" });
    expect(h.latency_ms).toBeGreaterThanOrEqual(0);
    expect(h.latency_ms).toBeLessThan(3000);
    expect(h.pairs).toBeGreaterThanOrEqual(2);
  });

  it("is the translator TRANSLATOR=apertium builds from the APERTIUM_URL binding", async () => {
    const [t, ...rest] = translatorsFromEnv(env);
    expect(rest).toHaveLength(0);
    expect(t?.name).toBe("apertium");
    expect((await t!.health()).status).toBe("ok");
    expect(await servedPairs([t!])).toContainEqual({ source: "en", target: "es", providers: ["apertium"] });
  });
});

describe("ApertiumTranslator when the server is down", () => {
  // Port 9 (discard) on loopback: nothing listens there.
  const down = new ApertiumTranslator("http://127.0.0.1:9");

  it("fails translate with a retryable provider_unavailable", async () => {
    const err = await providerError(down.translate({ source: "en", target: "es", segments: [{ id: "1", text: "Hello" }] }));
    expect(err.code).toBe("provider_unavailable");
    expect(err.retryable).toBe(true);
    expect(err.message).toContain("127.0.0.1:9");
  });

  it("reports health down and lists no pairs to servedPairs", async () => {
    const h = await down.health();
    expect(h.status).toBe("down");
    expect(h.detail).toBeTruthy();
    expect(await servedPairs([down])).toEqual([]);
  });

  it("times out a server that does not answer", async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    const slow = new ApertiumTranslator(url, hanging, { listTimeoutMs: 100, timeoutMs: 100 });
    const err = await providerError(slow.translate({ source: "en", target: "es", segments: [{ id: "1", text: "Hello" }] }));
    expect(err.code).toBe("provider_unavailable");
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/did not answer/);
  });

  it("reports not_configured without a URL", async () => {
    const none = new ApertiumTranslator("");
    expect((await none.health()).status).toBe("not_configured");
    expect(await none.pairs()).toEqual([]);
  });
});

describe("ApertiumTranslator with a scripted server", () => {
  const listPairs = () =>
    Response.json({
      responseData: [
        { sourceLanguage: "eng", targetLanguage: "spa" },
        { sourceLanguage: "eng", targetLanguage: "cat_valencia" },
      ],
      responseStatus: 200,
    });

  function scripted(translate: (q: string) => Response) {
    const qs: string[] = [];
    const impl: typeof fetch = async (input, init) => {
      const path = new URL(String(input)).pathname;
      if (path === "/listPairs") return listPairs();
      const q = (init?.body as URLSearchParams).get("q") ?? "";
      qs.push(q);
      return translate(q);
    };
    return { qs, impl };
  }

  it("redoes a batch one line per request when a response loses a unit break", async () => {
    const { qs, impl } = scripted((q) => Response.json({ responseData: { translatedText: q.toUpperCase().replace("\n\n", " ") } }));
    const t = new ApertiumTranslator("http://apertium.test", impl);
    const out = await t.translate({
      source: "en",
      target: "es",
      segments: [
        { id: "a", text: "one" },
        { id: "b", text: "two\nthree" },
        { id: "c", text: "four" },
      ],
    });
    expect(out.map((s) => [s.id, s.text])).toEqual([
      ["a", "ONE"],
      ["b", "TWO\nTHREE"],
      ["c", "FOUR"],
    ]);
    expect(qs).toEqual(["one\n\ntwo\n\nthree\n\nfour", "one", "two", "three", "four"]);
  });

  it("drops the marks Apertium sets before words it could not inflect or transfer, not the source's own", async () => {
    const { impl } = scripted((q) =>
      Response.json({ responseData: { translatedText: q.includes("tag") ? "Ver #tag y @ana" : "Describió #algo de @la vida" } }),
    );
    const t = new ApertiumTranslator("http://apertium.test", impl);
    const out = await t.translate({
      source: "en",
      target: "es",
      segments: [{ id: "a", text: "Described something of the life" }],
    });
    expect(out[0]!.text).toBe("Describió algo de la vida");
    const own = await t.translate({ source: "en", target: "es", segments: [{ id: "b", text: "See #tag and @ana" }] });
    expect(own[0]!.text).toBe("Ver #tag y @ana");
  });

  it("maps server errors: pair not installed → unsupported, 5xx → retryable unavailable", async () => {
    const notInstalled = scripted(() =>
      Response.json({ status: "error", code: 400, explanation: "That pair is not installed" }, { status: 400 }),
    );
    const err1 = await providerError(
      new ApertiumTranslator("http://apertium.test", notInstalled.impl).translate({
        source: "en",
        target: "es",
        segments: [{ id: "1", text: "Hi" }],
      }),
    );
    expect(err1).toMatchObject({ code: "unsupported_language_pair", retryable: false });

    const broken = scripted(() => new Response("oops", { status: 503 }));
    const err2 = await providerError(
      new ApertiumTranslator("http://apertium.test", broken.impl).translate({
        source: "en",
        target: "es",
        segments: [{ id: "1", text: "Hi" }],
      }),
    );
    expect(err2).toMatchObject({ code: "provider_unavailable", retryable: true });

    const empty = scripted(() => Response.json({ responseData: {} }));
    const err3 = await providerError(
      new ApertiumTranslator("http://apertium.test", empty.impl).translate({
        source: "en",
        target: "es",
        segments: [{ id: "1", text: "Hi" }],
      }),
    );
    expect(err3.code).toBe("provider_unavailable");
  });

  it("reuses the pair list for a minute and ignores variant modes", async () => {
    let lists = 0;
    const impl: typeof fetch = async () => {
      lists++;
      return listPairs();
    };
    const t = new ApertiumTranslator("http://apertium.test", impl);
    expect(await t.pairs()).toEqual([{ source: "en", target: "es" }]);
    await t.pairs();
    expect(lists).toBe(1);
  });
});
