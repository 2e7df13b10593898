import { describe, expect, it } from "vitest";
import {
  ApertiumTranslator,
  fromApertiumCode,
  ProviderError,
  servedPairs,
  tesseractToIso1,
  toApertiumCode,
  translatorsFromEnv,
  translateWithFallback,
  WorkersAiTranslator,
  type LanguagePair,
  type Translator,
} from "../../src/providers/translators";

/** A scripted translator for the selection and fallback logic. */
function stub(name: string, pairs: LanguagePair[], translate: Translator["translate"]): Translator {
  return { name, health: async () => ({ name, status: "ok" }), pairs: async () => pairs, translate };
}
const unavailable =
  (name: string, retryable = true) =>
  async () => {
    throw new ProviderError("provider_unavailable", `${name} is down`, { provider: name, retryable });
  };
const unsupported = (name: string) => async () => {
  throw new ProviderError("unsupported_language_pair", `${name} does not serve it`, { provider: name, retryable: false });
};
const fakeAi = { run: async () => ({ translated_text: "x" }) } as unknown as Ai;

describe("translatorsFromEnv", () => {
  it("builds the providers in TRANSLATOR order", () => {
    const list = translatorsFromEnv({ TRANSLATOR: " workers-ai , apertium ", APERTIUM_URL: "http://127.0.0.1:2737", AI: fakeAi });
    expect(list.map((t) => t.name)).toEqual(["workers-ai", "apertium"]);
    expect(list[0]).toBeInstanceOf(WorkersAiTranslator);
    expect(list[1]).toBeInstanceOf(ApertiumTranslator);
    expect(translatorsFromEnv({ TRANSLATOR: "", APERTIUM_URL: "" })).toEqual([]);
  });

  it("keeps workers-ai in the list without a binding, reporting not_configured", async () => {
    const [t] = translatorsFromEnv({ TRANSLATOR: "workers-ai", APERTIUM_URL: "" });
    expect((await t!.health()).status).toBe("not_configured");
  });

  it("refuses an unknown provider name", () => {
    expect(() => translatorsFromEnv({ TRANSLATOR: "apertium,deepl", APERTIUM_URL: "" })).toThrow(/unknown provider "deepl"/);
  });
});

describe("servedPairs", () => {
  it("merges pairs with their providers in fallback order and skips a provider that is down", async () => {
    const a = stub(
      "a",
      [
        { source: "en", target: "es" },
        { source: "es", target: "en" },
      ],
      unavailable("a"),
    );
    const b = stub(
      "b",
      [
        { source: "en", target: "es" },
        { source: "en", target: "fr", via: "es" },
      ],
      unavailable("b"),
    );
    const down: Translator = { ...stub("down", [], unavailable("down")), pairs: async () => Promise.reject(new Error("down")) };
    expect(await servedPairs([a, down, b])).toEqual([
      { source: "en", target: "es", providers: ["a", "b"] },
      { source: "en", target: "fr", providers: ["b"] },
      { source: "es", target: "en", providers: ["a"] },
    ]);
  });
});

describe("translateWithFallback", () => {
  const req = { source: "en", target: "es", segments: [{ id: "1", text: "Hi" }] };
  const ok = (name: string) =>
    stub(name, [], async (r) => r.segments.map((s) => ({ id: s.id, text: `${name}:${s.text}`, provider: name })));

  it("moves on after an outage or an unsupported pair", async () => {
    expect(await translateWithFallback([stub("a", [], unavailable("a")), stub("b", [], unsupported("b")), ok("c")], req)).toEqual([
      { id: "1", text: "c:Hi", provider: "c" },
    ]);
  });

  it("reports an outage before an unsupported pair when nobody succeeds", async () => {
    const err = await translateWithFallback([stub("a", [], unsupported("a")), stub("b", [], unavailable("b"))], req).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "provider_unavailable", retryable: true });
    const none = await translateWithFallback([stub("a", [], unsupported("a"))], req).catch((e: unknown) => e);
    expect(none).toMatchObject({ code: "unsupported_language_pair", retryable: false });
  });
});

describe("language codes", () => {
  it("maps ISO 639-1 to Apertium codes and back, without variants", () => {
    expect(toApertiumCode("en")).toBe("eng");
    expect(toApertiumCode("ES")).toBe("spa");
    expect(toApertiumCode("zz")).toBeUndefined();
    expect(fromApertiumCode("glg")).toBe("gl");
    expect(fromApertiumCode("cat_valencia")).toBeUndefined();
    expect(fromApertiumCode("por_BR")).toBeUndefined();
  });

  it.each([
    ["eng", "en"],
    ["chi_sim", "zh"],
    ["chi_tra_vert", "zh"],
    ["jpn", "ja"],
    ["deu_frak", "de"],
    ["spa_old", "es"],
    ["fr", "fr"],
    ["osd", undefined],
    ["equ", undefined],
    ["script/Latin", undefined],
  ])("tesseract %s → %s", (code, iso1) => {
    expect(tesseractToIso1(code)).toBe(iso1);
  });
});
