import { fromApertiumCode, toApertiumCode } from "./languages";
import { mapLimit } from "../../lib/concurrency";
import {
  ProviderError,
  type LanguagePair,
  type ProviderHealth,
  type TranslatedSegment,
  type TranslateRequest,
  type Translator,
} from "./translator";

export interface ApertiumOptions {
  /** Per-request timeout for /translate (ms). apertium-apy's own pipeline timeout is 10 s. */
  timeoutMs?: number;
  /** Timeout for /listPairs, used by health() and pairs() (ms). */
  listTimeoutMs?: number;
  /** Requests in flight per translate() call. */
  concurrency?: number;
  /** Upper bound on the UTF-8 size of one request's text. */
  maxRequestBytes?: number;
  /** How long the pair list is reused (ms). */
  pairsTtlMs?: number;
}

/**
 * apertium-apy cuts its input into PIPE_BUF (4096-byte) chunks at a full stop or space and keeps
 * only the first 10 chunks: above ~40 KB the rest is dropped without an error, and a chunk border
 * inside a sentence hurts the translation. Staying under one chunk per request avoids both.
 */
const MAX_REQUEST_BYTES = 4000;
const CONCURRENCY = 4;
const TIMEOUT_MS = 20_000;
const LIST_TIMEOUT_MS = 3_000;
const PAIRS_TTL_MS = 60_000;
/**
 * Units of one request are separated by a blank line: Apertium ends a sentence there. With a
 * single line break, lines without final punctuation (headings, OCR lines) are read as one
 * sentence and words move across them ("dog\nhouse" comes back as "Perro\nalberga").
 */
const UNIT_SEPARATOR = "\n\n";
/** Pivot languages in order of preference: the best-maintained pairs go through Spanish. */
const PIVOTS = ["es", "ca", "en", "pt", "fr", "it", "gl"];

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).length;

type Step = readonly [source: string, target: string];

/**
 * Pair lists already fetched, by fetch implementation and base URL, shared by every instance in
 * the isolate: a translator is built per request, so without this each intake check and each
 * translation asked /listPairs again, and one slow answer under load refused a valid job. Only
 * settled lists are shared (workerd does not let a request wait on another request's I/O).
 */
const listedPairs = new WeakMap<typeof fetch, Map<string, { at: number; pairs: LanguagePair[] }>>();

/** Where each segment's lines sit in the flat list of units sent to Apertium. */
type SegmentLayout = { id: string; lines: { start: number; count: number }[] }[];

/**
 * Rule-based translation through an apertium-apy server (Debian's `apertium-apy`), the local and
 * offline provider. Serves the pairs the server has installed, plus pivot pairs through one
 * intermediate language (two /translate calls: /translateChain leaks the intermediate step's
 * unknown-word marks `*` even with markUnknown=no).
 *
 * Segments are sent as lines of plain text (`format=txt`), one blank line apart, in requests of at
 * most ~4 KB; Apertium keeps blank lines, and every response is checked to have as many units as
 * its request, else that batch is translated one line per request. Context and glossary are not used.
 */
export class ApertiumTranslator implements Translator {
  readonly name = "apertium";
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly opts: Required<ApertiumOptions>;
  private readonly listed: Map<string, { at: number; pairs: LanguagePair[] }>;
  /** The /listPairs request this instance has in flight, if any. */
  private listing?: Promise<LanguagePair[]>;

  constructor(baseUrl: string, fetchImpl: typeof fetch = fetch, options: ApertiumOptions = {}) {
    this.baseUrl = baseUrl.trim().replace(/\/+$/, "");
    // Called through a closure: workerd's global fetch throws "Illegal invocation" with another `this`.
    this.fetch = (input, init) => fetchImpl(input, init);
    this.listed = listedPairs.get(fetchImpl) ?? new Map();
    listedPairs.set(fetchImpl, this.listed);
    this.opts = {
      timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
      listTimeoutMs: options.listTimeoutMs ?? LIST_TIMEOUT_MS,
      concurrency: options.concurrency ?? CONCURRENCY,
      maxRequestBytes: options.maxRequestBytes ?? MAX_REQUEST_BYTES,
      pairsTtlMs: options.pairsTtlMs ?? PAIRS_TTL_MS,
    };
  }

  async health(): Promise<ProviderHealth> {
    if (!this.baseUrl) return { name: this.name, status: "not_configured", detail: "APERTIUM_URL is not set" };
    const started = Date.now();
    try {
      const pairs = withPivots(await this.listPairs());
      this.listed.set(this.baseUrl, { at: Date.now(), pairs });
      const latency_ms = Date.now() - started;
      if (pairs.length === 0) {
        return {
          name: this.name,
          status: "degraded",
          latency_ms,
          pairs: 0,
          detail: "no language pair installed (run scripts/install-apertium.sh)",
        };
      }
      return { name: this.name, status: "ok", latency_ms, pairs: pairs.length };
    } catch (err) {
      return {
        name: this.name,
        status: "down",
        latency_ms: Date.now() - started,
        detail: err instanceof Error ? err.message : String(err),
      };
    }
  }

  /** Direct pairs from /listPairs plus pivot pairs (`via`), reused for a minute by every instance of the isolate. */
  pairs(): Promise<LanguagePair[]> {
    if (!this.baseUrl) return Promise.resolve([]);
    const listed = this.listed.get(this.baseUrl);
    if (listed && Date.now() - listed.at < this.opts.pairsTtlMs) return Promise.resolve(listed.pairs);
    // A failed lookup is not kept: the next call asks again.
    this.listing ??= this.listPairs()
      .then(withPivots)
      .then((pairs) => {
        this.listed.set(this.baseUrl, { at: Date.now(), pairs });
        return pairs;
      })
      .finally(() => {
        this.listing = undefined;
      });
    return this.listing;
  }

  async translate(req: TranslateRequest): Promise<TranslatedSegment[]> {
    if (req.segments.length === 0) return [];
    if (!this.baseUrl)
      throw new ProviderError("provider_unavailable", "Apertium is not configured (APERTIUM_URL is empty)", {
        provider: this.name,
        retryable: false,
      });
    const steps = await this.route(req.source.toLowerCase(), req.target.toLowerCase());

    // Segments → lines → units of at most maxRequestBytes (only an overlong line is cut).
    const units: string[] = [];
    const layout: SegmentLayout = req.segments.map((seg) => ({
      id: seg.id,
      lines: seg.text.split(/\r\n|\r|\n/).map((line) => {
        const pieces = splitLine(line, this.opts.maxRequestBytes);
        const start = units.length;
        units.push(...pieces);
        return { start, count: pieces.length };
      }),
    }));

    let texts = units;
    for (const step of steps) texts = await this.translateUnits(texts, step);

    return layout.map((seg) => ({
      id: seg.id,
      text: seg.lines.map(({ start, count }) => texts.slice(start, start + count).join(" ")).join("\n"),
      provider: this.name,
    }));
  }

  /** The /translate calls for a pair: one for a direct pair, two through the pivot. */
  private async route(source: string, target: string): Promise<Step[]> {
    const pair = (await this.pairs()).find((p) => p.source === source && p.target === target);
    if (!pair) {
      throw new ProviderError("unsupported_language_pair", `Apertium does not translate ${source} → ${target}`, {
        provider: this.name,
        retryable: false,
      });
    }
    return pair.via
      ? [
          [source, pair.via],
          [pair.via, target],
        ]
      : [[source, target]];
  }

  /** Translates single-line units; blank units are kept as they are and never sent. */
  private async translateUnits(units: string[], step: Step): Promise<string[]> {
    const out = units.slice();
    const todo = units.map((u, i) => i).filter((i) => /\S/.test(units[i] as string));
    // Greedy batches of whole units, each under the byte limit once joined with UNIT_SEPARATOR.
    const batches: number[][] = [];
    let current: number[] = [];
    let size = 0;
    for (const i of todo) {
      const bytes = byteLength(units[i] as string) + UNIT_SEPARATOR.length;
      if (current.length > 0 && size + bytes > this.opts.maxRequestBytes) {
        batches.push(current);
        current = [];
        size = 0;
      }
      current.push(i);
      size += bytes;
    }
    if (current.length > 0) batches.push(current);

    await mapLimit(batches, this.opts.concurrency, async (batch) => {
      const sent = batch.map((i) => units[i] as string);
      let lines = (await this.post(step, sent.join(UNIT_SEPARATOR))).split(UNIT_SEPARATOR);
      if (lines.length !== sent.length) {
        // Never guess an alignment: redo this batch one unit per request.
        lines = await mapLimit(sent, this.opts.concurrency, async (u) => (await this.post(step, u)).replace(/\n+/g, " "));
      }
      batch.forEach((unitIndex, k) => {
        out[unitIndex] = keepOuterWhitespace(sent[k] as string, withoutMarks(sent[k] as string, lines[k] as string));
      });
    });
    return out;
  }

  private async post([source, target]: Step, q: string): Promise<string> {
    const langpair = `${toApertiumCode(source)}|${toApertiumCode(target)}`;
    const body = new URLSearchParams({ langpair, q, markUnknown: "no", format: "txt" });
    const { res, json } = await this.request("/translate", { method: "POST", body }, this.opts.timeoutMs);
    if (!res.ok) {
      const explanation = typeof json?.explanation === "string" ? json.explanation : `HTTP ${res.status}`;
      if (res.status === 400 && /not installed/i.test(explanation)) {
        this.listed.delete(this.baseUrl);
        throw new ProviderError("unsupported_language_pair", `Apertium does not translate ${source} → ${target}: ${explanation}`, {
          provider: this.name,
          retryable: false,
        });
      }
      const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
      throw new ProviderError("provider_unavailable", `Apertium failed to translate ${langpair}: ${explanation}`, {
        provider: this.name,
        retryable,
      });
    }
    const text = (json?.responseData as { translatedText?: unknown } | undefined)?.translatedText;
    if (typeof text !== "string") {
      throw new ProviderError("provider_unavailable", "Apertium answered without a translatedText", {
        provider: this.name,
        retryable: true,
      });
    }
    return text;
  }

  /** /listPairs as ISO 639-1 pairs, without variants (cat_valencia, por_BR, …). */
  private async listPairs(): Promise<LanguagePair[]> {
    const { res, json } = await this.request("/listPairs", { method: "GET" }, this.opts.listTimeoutMs);
    const data = json?.responseData;
    if (!res.ok || !Array.isArray(data)) {
      throw new ProviderError("provider_unavailable", `Apertium /listPairs answered HTTP ${res.status} without a pair list`, {
        provider: this.name,
        retryable: true,
      });
    }
    const seen = new Set<string>();
    const pairs: LanguagePair[] = [];
    for (const item of data as { sourceLanguage?: unknown; targetLanguage?: unknown }[]) {
      const source = typeof item.sourceLanguage === "string" ? fromApertiumCode(item.sourceLanguage) : undefined;
      const target = typeof item.targetLanguage === "string" ? fromApertiumCode(item.targetLanguage) : undefined;
      if (!source || !target || source === target || seen.has(`${source}|${target}`)) continue;
      seen.add(`${source}|${target}`);
      pairs.push({ source, target });
    }
    return pairs;
  }

  /** One request and its JSON body (undefined when the body is not a JSON object), both within `timeoutMs`. */
  private async request(
    path: string,
    init: RequestInit,
    timeoutMs: number,
  ): Promise<{ res: Response; json: Record<string, unknown> | undefined }> {
    try {
      const res = await this.fetch(`${this.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      // The body is read under the same deadline: running out of time while it streams is a timeout, not a malformed answer.
      return { res, json: parseJsonObject(await res.text()) };
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      const message = timedOut
        ? `Apertium at ${this.baseUrl} did not answer ${path} within ${timeoutMs} ms`
        : `Apertium at ${this.baseUrl} is unreachable: ${err instanceof Error ? err.message : String(err)}`;
      throw new ProviderError("provider_unavailable", message, { provider: this.name, retryable: true, cause: err });
    }
  }
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Adds a pivot pair for every missing source → target reachable through one other language. */
function withPivots(direct: LanguagePair[]): LanguagePair[] {
  const has = new Set(direct.map((p) => `${p.source}|${p.target}`));
  const languages = [...new Set(direct.flatMap((p) => [p.source, p.target]))].sort();
  const pivots = [...languages].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const pairs = [...direct];
  for (const source of languages) {
    for (const target of languages) {
      if (source === target || has.has(`${source}|${target}`)) continue;
      const via = pivots.find((v) => v !== source && v !== target && has.has(`${source}|${v}`) && has.has(`${v}|${target}`));
      if (via) pairs.push({ source, target, via });
    }
  }
  return pairs.sort((a, b) => a.source.localeCompare(b.source) || a.target.localeCompare(b.target));
}

function rank(lang: string): number {
  const i = PIVOTS.indexOf(lang);
  return i === -1 ? PIVOTS.length : i;
}

/**
 * Cuts a line longer than maxBytes into pieces: between sentences where it can, else between
 * words, else between characters. Pieces are translated apart and joined again with a space.
 */
function splitLine(line: string, maxBytes: number): string[] {
  if (byteLength(line) <= maxBytes) return [line];
  return pack(line.split(/(?<=[.!?…。！？]\s)/), maxBytes, (sentence) =>
    pack(sentence.split(/(?<=\s)/), maxBytes, (word) => pack([...word], maxBytes, (ch) => [ch])),
  );
}

/** Greedily joins consecutive parts into pieces of at most maxBytes; `cut` splits an oversize part. */
function pack(parts: string[], maxBytes: number, cut: (part: string) => string[]): string[] {
  const pieces: string[] = [];
  let piece = "";
  const flush = () => {
    if (/\S/.test(piece)) pieces.push(piece.trim());
    piece = "";
  };
  for (const part of parts) {
    if (byteLength(part) > maxBytes) {
      flush();
      pieces.push(...cut(part));
    } else {
      if (byteLength(piece + part) > maxBytes) flush();
      piece += part;
    }
  }
  flush();
  return pieces;
}

/**
 * Apertium's translation without the marks it sets before words it could not inflect (`#`, the
 * lemma follows) or transfer (`@`): "#algo" becomes "algo". A mark that the source itself has
 * before a word ("#tag", "@name") is kept.
 */
function withoutMarks(input: string, output: string): string {
  return output.replace(/(^|[^\p{L}\p{N}#@])([#@])(?=\p{L})/gu, (all, before: string, mark: string) =>
    input.includes(mark) ? all : before,
  );
}

/**
 * Apertium moves blanks across line borders; give each unit back its own outer whitespace. Where it
 * drops a word the target leaves out (the subject pronoun of "WISH I WAS": "DESEO  ERA"), the blanks
 * either side stay: runs of spaces the source has none of become one.
 */
function keepOuterWhitespace(input: string, output: string): string {
  const lead = /^\s*/.exec(input)?.[0] ?? "";
  const trail = /\s*$/.exec(input)?.[0] ?? "";
  const inner = / {2}/.test(input.trim()) ? output.trim() : output.trim().replace(/ {2,}/g, " ");
  return lead + inner + trail;
}
