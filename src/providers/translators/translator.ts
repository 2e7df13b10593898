/**
 * The contract every machine-translation provider implements. Language codes are ISO 639-1
 * (`en`, `es`, …) on this side; each provider maps them to its own codes.
 *
 * Providers translate or throw a `ProviderError`: they never return the input, an empty string
 * or any other made-up output in place of a translation. Glossary terms and translation-memory
 * matches are applied by the caller on top of every provider; a provider may ignore `context`
 * and `glossary` when its engine cannot use them.
 */

export interface TranslateSegment {
  id: string;
  text: string;
}

export interface TranslateRequest {
  source: string;
  target: string;
  segments: TranslateSegment[];
  context?: string;
  glossary?: { source: string; target: string; caseSensitive?: boolean }[];
}

export interface TranslatedSegment {
  id: string;
  text: string;
  provider: string;
}

/** A pair a provider serves; `via` names the pivot language when it is not a direct pair. */
export interface LanguagePair {
  source: string;
  target: string;
  via?: string;
}

export interface ProviderHealth {
  name: string;
  status: "ok" | "degraded" | "down" | "not_configured";
  latency_ms?: number;
  detail?: string;
  pairs?: number;
}

export interface Translator {
  readonly name: string;
  health(): Promise<ProviderHealth>;
  pairs(): Promise<LanguagePair[]>;
  /** Returns one translated segment per input segment, in the same order and with the same ids. */
  translate(req: TranslateRequest): Promise<TranslatedSegment[]>;
}

export type ProviderErrorCode = "provider_unavailable" | "unsupported_language_pair";

/**
 * A provider could not translate. `retryable` tells the caller whether trying again (or the next
 * provider in the fallback order) can help: true for outages and timeouts, false for a pair the
 * provider does not serve or a provider that is not configured.
 */
export class ProviderError extends Error {
  override readonly name = "ProviderError";
  readonly code: ProviderErrorCode;
  readonly retryable: boolean;
  readonly provider: string;

  constructor(code: ProviderErrorCode, message: string, opts: { provider: string; retryable?: boolean; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.provider = opts.provider;
    this.retryable = opts.retryable ?? code === "provider_unavailable";
  }
}

export function isProviderError(err: unknown): err is ProviderError {
  return err instanceof ProviderError;
}
