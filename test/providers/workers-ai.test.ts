import { describe, expect, it, vi } from "vitest";
import { M2M100_MODEL, ProviderError, WorkersAiTranslator } from "../../src/providers/translators";

type RunInput = { text: string; source_lang: string; target_lang: string };

/** A stand-in for the AI binding: only `run` is used by the provider. */
function fakeAi(run: (model: string, input: RunInput) => Promise<unknown>) {
  const spy = vi.fn(run);
  return { ai: { run: spy } as unknown as Ai, run: spy };
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

describe("WorkersAiTranslator", () => {
  it("translates a batch one model call per segment, aligned, a few at a time", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const { ai, run } = fakeAi(async (_model, input) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // Later segments answer first: the output order must still follow the input.
      await new Promise((r) => setTimeout(r, 30 - Number(input.text.split(" ")[1]) * 2));
      inFlight--;
      return { translated_text: `[${input.source_lang}>${input.target_lang}] ${input.text}` };
    });
    const t = new WorkersAiTranslator(ai);
    const segments = Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, text: `segment ${i}` }));
    segments.push({ id: "blank", text: "  " });

    const out = await t.translate({ source: "en", target: "fr", segments });

    expect(out).toEqual([
      ...segments.slice(0, 10).map((s) => ({ id: s.id, text: `[en>fr] ${s.text}`, provider: "workers-ai" })),
      { id: "blank", text: "  ", provider: "workers-ai" },
    ]);
    expect(run).toHaveBeenCalledTimes(10);
    expect(run.mock.calls[0]?.[0]).toBe(M2M100_MODEL);
    expect(run.mock.calls[0]?.[1]).toEqual({ text: "segment 0", source_lang: "en", target_lang: "fr" });
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(4);
  });

  it("turns a failing model call into a retryable provider_unavailable", async () => {
    const { ai } = fakeAi(async () => {
      throw new Error("3040: Capacity temporarily exceeded, please try again.");
    });
    const err = await providerError(
      new WorkersAiTranslator(ai).translate({ source: "en", target: "de", segments: [{ id: "1", text: "Hi" }] }),
    );
    expect(err.code).toBe("provider_unavailable");
    expect(err.retryable).toBe(true);
    expect(err.message).toContain("Capacity temporarily exceeded");
  });

  it("never passes off an answer without translated_text as a translation", async () => {
    const { ai } = fakeAi(async () => ({ request_id: "abc" }));
    const err = await providerError(
      new WorkersAiTranslator(ai).translate({ source: "en", target: "de", segments: [{ id: "1", text: "Hi" }] }),
    );
    expect(err.code).toBe("provider_unavailable");
  });

  it("rejects a pair outside its languages without calling the model", async () => {
    const { ai, run } = fakeAi(async () => ({ translated_text: "x" }));
    const t = new WorkersAiTranslator(ai);
    for (const [source, target] of [
      ["en", "tlh"],
      ["en", "en"],
    ] as const) {
      const err = await providerError(t.translate({ source, target, segments: [{ id: "1", text: "Hi" }] }));
      expect(err.code).toBe("unsupported_language_pair");
      expect(err.retryable).toBe(false);
    }
    expect(run).not.toHaveBeenCalled();
  });

  it("serves every ordered pair of its languages", async () => {
    const { ai } = fakeAi(async () => ({ translated_text: "x" }));
    const pairs = await new WorkersAiTranslator(ai, { languages: ["en", "es", "zh", "not-a-language"] }).pairs();
    expect(pairs).toEqual([
      { source: "en", target: "es" },
      { source: "en", target: "zh" },
      { source: "es", target: "en" },
      { source: "es", target: "zh" },
      { source: "zh", target: "en" },
      { source: "zh", target: "es" },
    ]);
  });

  it("reports health from a real probe call", async () => {
    const { ai, run } = fakeAi(async () => ({ translated_text: "Hola" }));
    const h = await new WorkersAiTranslator(ai).health();
    expect(h).toMatchObject({ name: "workers-ai", status: "ok" });
    expect(h.latency_ms).toBeGreaterThanOrEqual(0);
    expect(run).toHaveBeenCalledTimes(1);
    // Reused for a minute: probes cost money.
    await new WorkersAiTranslator(ai).health();
    expect(run).toHaveBeenCalledTimes(1);

    const broken = fakeAi(async () => {
      throw new Error("boom");
    });
    expect(await new WorkersAiTranslator(broken.ai).health()).toMatchObject({ status: "down", detail: expect.stringContaining("boom") });
  });

  it("is not_configured without an AI binding: no pairs, no translation", async () => {
    const t = new WorkersAiTranslator(undefined);
    expect(await t.health()).toMatchObject({ name: "workers-ai", status: "not_configured" });
    expect(await t.pairs()).toEqual([]);
    const err = await providerError(t.translate({ source: "en", target: "es", segments: [{ id: "1", text: "Hi" }] }));
    expect(err.code).toBe("provider_unavailable");
    expect(err.retryable).toBe(false);
  });
});
