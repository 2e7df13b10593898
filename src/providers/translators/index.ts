import { ApertiumTranslator } from "./apertium";
import { isProviderError, ProviderError, type TranslatedSegment, type TranslateRequest, type Translator } from "./translator";
import { WorkersAiTranslator } from "./workers-ai";

export * from "./translator";
export { ApertiumTranslator, type ApertiumOptions } from "./apertium";
export {
  WorkersAiTranslator,
  M2M100_MODEL,
  M2M100_LANGUAGES,
  WORKERS_AI_DEFAULT_LANGUAGES,
  isPermanentAiFailure,
  type WorkersAiOptions,
} from "./workers-ai";
export {
  WorkersAiContextPass,
  INSTRUCT_MODEL,
  type ContextEdit,
  type ContextPassOptions,
  type ContextPassRequest,
  type ContextPassResult,
  type ContextSegment,
} from "./workers-ai-context";
export { fromApertiumCode, tesseractToIso1, toApertiumCode } from "./languages";

export type TranslatorEnv = Pick<Env, "TRANSLATOR" | "APERTIUM_URL"> & { AI?: Ai };

/** The provider names `TRANSLATOR` accepts. */
export const TRANSLATOR_NAMES = ["workers-ai", "apertium"] as const;

/**
 * The configured translators in fallback order, from `TRANSLATOR` (comma-separated, e.g.
 * "apertium" locally, "workers-ai,apertium" in production). A provider whose binding or URL is
 * missing is still listed: it reports `not_configured` and serves no pair. An unknown name is a
 * configuration error and throws.
 */
export function translatorsFromEnv(env: TranslatorEnv): Translator[] {
  const names = [
    ...new Set(
      (env.TRANSLATOR ?? "")
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  return names.map((name): Translator => {
    switch (name) {
      case "apertium":
        return new ApertiumTranslator(env.APERTIUM_URL ?? "");
      case "workers-ai":
        return new WorkersAiTranslator(env.AI);
      default:
        throw new Error(`TRANSLATOR names an unknown provider "${name}" (known: ${TRANSLATOR_NAMES.join(", ")})`);
    }
  });
}

/** A pair and the providers serving it, in fallback order. */
export interface ServedPair {
  source: string;
  target: string;
  providers: string[];
}

/**
 * Every pair at least one translator serves right now, with the providers that serve it. A
 * provider that cannot list its pairs (down) contributes none: never claim a pair nobody serves.
 */
export async function servedPairs(translators: readonly Translator[]): Promise<ServedPair[]> {
  const lists = await Promise.allSettled(translators.map((t) => t.pairs()));
  const merged = new Map<string, ServedPair>();
  lists.forEach((list, i) => {
    if (list.status !== "fulfilled") return;
    const name = (translators[i] as Translator).name;
    for (const { source, target } of list.value) {
      const key = `${source}|${target}`;
      const entry = merged.get(key) ?? { source, target, providers: [] };
      if (!entry.providers.includes(name)) entry.providers.push(name);
      merged.set(key, entry);
    }
  });
  return [...merged.values()].sort((a, b) => a.source.localeCompare(b.source) || a.target.localeCompare(b.target));
}

/**
 * Translates with the first translator that can: on a `ProviderError` (pair not served, provider
 * down or not configured) the next one in the fallback order is tried. When none succeeds, throws
 * the first `provider_unavailable` error (retryable if any failure was), else
 * `unsupported_language_pair`. Other errors are bugs and propagate at once.
 */
export async function translateWithFallback(translators: readonly Translator[], req: TranslateRequest): Promise<TranslatedSegment[]> {
  const failures: ProviderError[] = [];
  for (const t of translators) {
    try {
      return await t.translate(req);
    } catch (err) {
      if (!isProviderError(err)) throw err;
      failures.push(err);
    }
  }
  const unavailable = failures.filter((e) => e.code === "provider_unavailable");
  const first = unavailable[0];
  if (first) {
    const message = unavailable.map((e) => e.message).join("; ");
    throw new ProviderError("provider_unavailable", message, {
      provider: first.provider,
      retryable: unavailable.some((e) => e.retryable),
      cause: first,
    });
  }
  throw new ProviderError("unsupported_language_pair", `No configured translator serves ${req.source} → ${req.target}`, {
    provider: translators.map((t) => t.name).join(",") || "none",
    retryable: false,
  });
}
