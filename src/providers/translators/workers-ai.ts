import { mapLimit } from "../../lib/concurrency";
import {
  ProviderError,
  type LanguagePair,
  type ProviderHealth,
  type TranslatedSegment,
  type TranslateRequest,
  type Translator,
} from "./translator";

export const M2M100_MODEL = "@cf/meta/m2m100-1.2b";

/** The 100 languages of M2M100 (ISO 639-1 where one exists, as the model card lists them). */
export const M2M100_LANGUAGES = [
  "af",
  "am",
  "ar",
  "ast",
  "az",
  "ba",
  "be",
  "bg",
  "bn",
  "br",
  "bs",
  "ca",
  "ceb",
  "cs",
  "cy",
  "da",
  "de",
  "el",
  "en",
  "es",
  "et",
  "fa",
  "ff",
  "fi",
  "fr",
  "fy",
  "ga",
  "gd",
  "gl",
  "gu",
  "ha",
  "he",
  "hi",
  "hr",
  "ht",
  "hu",
  "hy",
  "id",
  "ig",
  "ilo",
  "is",
  "it",
  "ja",
  "jv",
  "ka",
  "kk",
  "km",
  "kn",
  "ko",
  "lb",
  "lg",
  "ln",
  "lo",
  "lt",
  "lv",
  "mg",
  "mk",
  "ml",
  "mn",
  "mr",
  "ms",
  "my",
  "ne",
  "nl",
  "no",
  "ns",
  "oc",
  "or",
  "pa",
  "pl",
  "ps",
  "pt",
  "ro",
  "ru",
  "sd",
  "si",
  "sk",
  "sl",
  "so",
  "sq",
  "sr",
  "ss",
  "su",
  "sv",
  "sw",
  "ta",
  "th",
  "tl",
  "tn",
  "tr",
  "uk",
  "ur",
  "uz",
  "vi",
  "wo",
  "xh",
  "yi",
  "yo",
  "zh",
  "zu",
] as const;

/**
 * Languages offered by default: widely used ones that M2M100 translates well, so that the pair
 * list stays readable (every ordered pair among them is served). Pass `languages` to widen it.
 */
export const WORKERS_AI_DEFAULT_LANGUAGES = [
  "ar",
  "ca",
  "cs",
  "da",
  "de",
  "el",
  "en",
  "es",
  "fi",
  "fr",
  "gl",
  "he",
  "hi",
  "hu",
  "id",
  "it",
  "ja",
  "ko",
  "nl",
  "no",
  "pl",
  "pt",
  "ro",
  "ru",
  "sv",
  "th",
  "tr",
  "uk",
  "vi",
  "zh",
];

export interface WorkersAiOptions {
  languages?: readonly string[];
  /** Model calls in flight per translate() call (one call per segment). */
  concurrency?: number;
  /** Timeout of one model call (ms). */
  timeoutMs?: number;
  /** Timeout of the health probe (ms); a slower answer than half of it reports `degraded`. */
  healthTimeoutMs?: number;
  /** Further attempts of a model call after a transient failure (capacity, timeout, network). */
  retries?: number;
  /** Wait before the first retry (ms); doubled for each further one. */
  retryDelayMs?: number;
}

/** Minimal surface used here, so that tests can pass a stub for the `Ai` binding. */
type AiRun = (
  model: string,
  inputs: { text: string; source_lang: string; target_lang: string },
  options?: { signal?: AbortSignal },
) => Promise<unknown>;

const HEALTH_TTL_MS = 60_000;

/**
 * Workers AI failures that another attempt cannot fix: input errors (5xxx: validation, unknown
 * model) and the account's exhausted allocation (3036). Anything else (3040 capacity, 3007
 * timeout, network errors) is transient.
 */
export function isPermanentAiFailure(message: string): boolean {
  return /^\s*(?:AiError:\s*)?(?:5\d{3}|3036)\b/.test(message);
}
const HEALTH_DOWN_TTL_MS = 10_000;
/**
 * Health probes run a real (billed) translation: one a minute per isolate and binding is enough.
 * Only settled results are kept: a pending promise must not be shared across requests in workerd.
 */
const healthCache = new WeakMap<object, { at: number; health: ProviderHealth }>();

/**
 * Neural translation with Workers AI (`@cf/meta/m2m100-1.2b`), the production provider. One model
 * call per segment, a few in flight, each with a timeout and retried with backoff after a
 * transient failure (a permanent one, such as an input error, fails at once, not retryable). Without an AI binding it reports `not_configured`, serves no
 * pair and refuses to translate. Context and glossary are not used by this model.
 */
export class WorkersAiTranslator implements Translator {
  readonly name = "workers-ai";
  private readonly ai: Ai | undefined;
  private readonly languages: ReadonlySet<string>;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly healthTimeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;

  constructor(ai: Ai | undefined, options: WorkersAiOptions = {}) {
    this.ai = ai;
    const supported = new Set<string>(M2M100_LANGUAGES);
    this.languages = new Set((options.languages ?? WORKERS_AI_DEFAULT_LANGUAGES).filter((l) => supported.has(l)));
    this.concurrency = options.concurrency ?? 4;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.healthTimeoutMs = options.healthTimeoutMs ?? 2_500;
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 250;
  }

  async health(): Promise<ProviderHealth> {
    const ai = this.ai;
    if (!ai) return { name: this.name, status: "not_configured", detail: "no AI binding" };
    const cached = healthCache.get(ai);
    // An outage is looked at again sooner than a healthy answer.
    if (cached && Date.now() - cached.at < (cached.health.status === "down" ? HEALTH_DOWN_TTL_MS : HEALTH_TTL_MS)) return cached.health;
    const health = await this.probe(ai);
    healthCache.set(ai, { at: Date.now(), health });
    return health;
  }

  async pairs(): Promise<LanguagePair[]> {
    if (!this.ai) return [];
    const langs = [...this.languages].sort();
    return langs.flatMap((source) => langs.filter((target) => target !== source).map((target) => ({ source, target })));
  }

  async translate(req: TranslateRequest): Promise<TranslatedSegment[]> {
    if (req.segments.length === 0) return [];
    const ai = this.ai;
    if (!ai)
      throw new ProviderError("provider_unavailable", "Workers AI is not configured (no AI binding)", {
        provider: this.name,
        retryable: false,
      });
    const source = req.source.toLowerCase();
    const target = req.target.toLowerCase();
    if (source === target || !this.languages.has(source) || !this.languages.has(target)) {
      throw new ProviderError("unsupported_language_pair", `Workers AI does not translate ${source} → ${target}`, {
        provider: this.name,
        retryable: false,
      });
    }
    return mapLimit(req.segments, this.concurrency, async (seg) => ({
      id: seg.id,
      // Blank text is returned as it is: the model requires non-empty input.
      text: /\S/.test(seg.text) ? await this.runWithRetries(ai, seg.text, source, target) : seg.text,
      provider: this.name,
    }));
  }

  /** One segment, retried with exponential backoff while the failure is retryable. */
  private async runWithRetries(ai: Ai, text: string, source: string, target: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.run(ai, text, source, target, this.timeoutMs);
      } catch (err) {
        if (!(err instanceof ProviderError) || !err.retryable || attempt >= this.retries) throw err;
        await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * 2 ** attempt));
      }
    }
  }

  private async run(ai: Ai, text: string, source: string, target: string, timeoutMs: number): Promise<string> {
    const run = ai.run.bind(ai) as unknown as AiRun;
    let result: unknown;
    try {
      result = await run(M2M100_MODEL, { text, source_lang: source, target_lang: target }, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new ProviderError("provider_unavailable", `Workers AI ${M2M100_MODEL} failed: ${message}`, {
        provider: this.name,
        retryable: !isPermanentAiFailure(message),
        cause: err,
      });
    }
    const translated = (result as { translated_text?: unknown } | null)?.translated_text;
    if (typeof translated !== "string") {
      throw new ProviderError("provider_unavailable", `Workers AI ${M2M100_MODEL} answered without translated_text`, {
        provider: this.name,
        retryable: true,
      });
    }
    return translated;
  }

  private async probe(ai: Ai): Promise<ProviderHealth> {
    const started = Date.now();
    try {
      await this.run(ai, "Hello", "en", "es", this.healthTimeoutMs);
      const latency_ms = Date.now() - started;
      const pairs = this.languages.size * (this.languages.size - 1);
      if (latency_ms > this.healthTimeoutMs / 2) return { name: this.name, status: "degraded", latency_ms, pairs, detail: "slow answer" };
      return { name: this.name, status: "ok", latency_ms, pairs };
    } catch (err) {
      return {
        name: this.name,
        status: "down",
        latency_ms: Date.now() - started,
        detail: err instanceof Error ? err.message : String(err),
      };
    }
  }
}
