import { describe, expect, it } from "vitest";
import { ApertiumTranslator, ProviderError } from "../../src/providers/translators";

// How the Apertium provider asks for and keeps its pair list. A translator is built per request, so
// the list has to outlive the instance: under load, a fresh /listPairs on every intake check let
// one slow answer refuse a valid translate job with provider_unavailable.

const PAIRS = { responseData: [{ sourceLanguage: "eng", targetLanguage: "spa" }], responseStatus: 200 };

/** A scripted apertium-apy: counts /listPairs calls; /translate answers with `translate`. */
function server(translate: () => Response = () => Response.json({ responseData: { translatedText: "hola" } })) {
  const seen = { lists: 0, translations: 0 };
  const impl: typeof fetch = async (input) => {
    if (new URL(String(input)).pathname === "/listPairs") {
      seen.lists++;
      return Response.json(PAIRS);
    }
    seen.translations++;
    return translate();
  };
  return { seen, impl };
}

async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    (v) => {
      throw new Error(`expected a ProviderError, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe("Apertium pair list", () => {
  it("is shared by every instance for a minute: one /listPairs, not one per request", async () => {
    const { seen, impl } = server();
    const first = new ApertiumTranslator("http://apertium.test", impl);
    expect(await first.pairs()).toEqual([{ source: "en", target: "es" }]);
    // A later request builds its own translator, checks the pair and translates.
    const later = new ApertiumTranslator("http://apertium.test", impl);
    expect(await later.pairs()).toEqual([{ source: "en", target: "es" }]);
    const out = await later.translate({ source: "en", target: "es", segments: [{ id: "1", text: "Hello" }] });
    expect(out).toEqual([{ id: "1", text: "hola", provider: "apertium" }]);
    expect(seen).toEqual({ lists: 1, translations: 1 });

    // Another server (URL) has its own list; an expired list is asked for again.
    await new ApertiumTranslator("http://other-apertium.test", impl).pairs();
    await new ApertiumTranslator("http://apertium.test", impl, { pairsTtlMs: 0 }).pairs();
    expect(seen.lists).toBe(3);
  });

  it("asks again after a failed lookup", async () => {
    let calls = 0;
    const impl: typeof fetch = async () => (++calls === 1 ? new Response("busy", { status: 503 }) : Response.json(PAIRS));
    const err = await rejection(new ApertiumTranslator("http://apertium.test", impl).pairs());
    expect(err).toMatchObject({ code: "provider_unavailable", retryable: true });
    expect(await new ApertiumTranslator("http://apertium.test", impl).pairs()).toEqual([{ source: "en", target: "es" }]);
    expect(calls).toBe(2);
  });

  it("forgets the list when the server says a listed pair is not installed", async () => {
    const { seen, impl } = server(() =>
      Response.json({ status: "error", code: 400, explanation: "That pair is not installed" }, { status: 400 }),
    );
    const t = new ApertiumTranslator("http://apertium.test", impl);
    const err = await rejection(t.translate({ source: "en", target: "es", segments: [{ id: "1", text: "Hi" }] }));
    expect(err.code).toBe("unsupported_language_pair");
    await new ApertiumTranslator("http://apertium.test", impl).pairs();
    expect(seen.lists).toBe(2);
  });

  it("reports a body that stalls past the deadline as a timeout, not as a malformed answer", async () => {
    // Headers arrive at once; the body starts, then stops until the request is aborted.
    const stalled: typeof fetch = async (_input, init) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"responseData": ['));
            init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
          },
        }),
        { headers: { "Content-Type": "application/json" } },
      );
    const err = await rejection(new ApertiumTranslator("http://apertium.test", stalled, { listTimeoutMs: 100 }).pairs());
    expect(err).toMatchObject({ code: "provider_unavailable", retryable: true });
    expect(err.message).toMatch(/did not answer \/listPairs within 100 ms/);
  });
});
