import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import {
  isProviderError,
  servedPairs,
  tesseractToIso1,
  translateWithFallback,
  translatorsFromEnv,
  WorkersAiContextPass,
  type ProviderError,
  type Translator,
  type TranslatorEnv,
} from "../../providers/translators";
import * as glossaries from "../glossaries/glossaries.service";
import * as tm from "../translation-memory/translation-memory.service";
import { detectLanguage } from "./language-detection";
import {
  postEditAll,
  protectTerms,
  restoreTerms,
  termHits,
  wordRegExp,
  type GlossaryTerm,
  type ProtectedText,
  type TermHit,
} from "../glossaries/term-protection";
import { log } from "../../lib/log";

export type { TermHit } from "../glossaries/term-protection";

/** What translation reads from the environment: the translators, the AI binding, the TM threshold. */
export type TranslationEnv = TranslatorEnv & { TM_FUZZY_THRESHOLD?: string };

/**
 * Where a translated segment came from: a translator (`provider`, glossary terms enforced), an
 * exact translation-memory match (`tm_exact`, no provider call), glossary terms alone
 * (`glossary`: the segment is nothing but terms) or the source itself (`copy`: no letters, or
 * already in the target language).
 */
export type SegmentOrigin = "provider" | "tm_exact" | "glossary" | "copy";

export interface TranslateSegmentsInput {
  userId: string;
  /** ISO 639-1 (`en`), a tesseract code (`eng`), or `auto` to detect each segment's language. */
  source: string;
  target: string;
  segments: { id: string; text: string }[];
  glossaryIds?: string[];
  /** Free text about the document, for providers that use context. */
  context?: string;
  /** Use only this configured provider instead of the fallback order. */
  provider?: string;
  /** Reuse exact translation-memory matches (default true). */
  useMemory?: boolean;
}

export interface TranslateOptions {
  /** Translators to use instead of those built from the environment (tests, benchmarks). */
  translators?: Translator[];
  /** Run the Workers AI context pass when the AI binding is there (default true). */
  contextPass?: boolean;
}

export interface TranslatedSegmentOut {
  id: string;
  source_text: string;
  text: string;
  source_language: string;
  origin: SegmentOrigin;
  provider: string | null;
  tm_entry_id: string | null;
  term_hits: TermHit[];
}

export interface TranslateSegmentsResult {
  target_language: string;
  segments: TranslatedSegmentOut[];
  /** Term hits summed over the call, one row per glossary term. */
  term_hits: TermHit[];
  /** Replacements the context pass applied (production only). */
  context_edits: number;
}

interface Unit {
  key: string;
  lang: string;
  /** Normalised source (translation-memory key). */
  norm: string;
  /** Source as sent to a provider: line breaks inside a paragraph joined, paragraphs kept. */
  text: string;
  protected?: ProtectedText;
  out?: { text: string; origin: SegmentOrigin; provider: string | null; tmId: string | null; hits: TermHit[] };
}

/** ISO 639-1 code of an API or tesseract language code; a code nobody knows is a validation error. */
export function languageCode(code: string, field = "language"): string {
  const iso = tesseractToIso1(code);
  if (!iso)
    throw new ApiError("validation_error", `Unknown language code "${code}".`, {
      details: { fields: [{ location: "json", field, message: "unknown language code" }] },
    });
  return iso;
}

/**
 * The text a provider is given: paragraphs (blank-line apart) on lines of their own, each
 * paragraph's lines joined into one, and a word hyphenated at a line's end (a lower-case letter,
 * a hyphen, the line break, a lower-case letter: "find-\ning") joined whole, as it is read.
 */
function providerText(text: string): string {
  return text
    .normalize("NFC")
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .replace(/(\p{Ll})-[ \t]*\r?\n[ \t]*(?=\p{Ll})/gu, "$1")
        .replace(/\s+/gu, " ")
        .trim(),
    )
    .filter(Boolean)
    .join("\n");
}

function toApiError(err: ProviderError, source: string, target: string): ApiError {
  return new ApiError(err.code, err.message, { details: { provider: err.provider, source_language: source, target_language: target } });
}

/** The configured translators, or only the one a request names. */
function pickTranslators(env: TranslatorEnv, opts: TranslateOptions, provider?: string): Translator[] {
  const all = opts.translators ?? translatorsFromEnv(env);
  if (!provider) return all;
  const one = all.filter((t) => t.name === provider);
  if (one.length === 0) {
    throw new ApiError(
      "validation_error",
      `Provider "${provider}" is not configured; configured: ${all.map((t) => t.name).join(", ") || "none"}.`,
      {
        details: { fields: [{ location: "json", field: "provider", message: "not configured" }] },
      },
    );
  }
  return one;
}

/** Languages some translator serves into `target`, plus `target` itself (for detection). */
async function detectableLanguages(translators: readonly Translator[], target: string): Promise<Set<string>> {
  const pairs = await servedPairs(translators);
  const langs = new Set(pairs.filter((p) => p.target === target).map((p) => p.source));
  if (langs.size === 0)
    throw new ApiError("unsupported_language_pair", `No configured translator translates into "${target}".`, {
      details: { target_language: target },
    });
  langs.add(target);
  return langs;
}

/**
 * Source language of each segment: the given one, or detected per segment with eld among the
 * languages that can be translated into the target. A segment too short to be reliable takes the
 * language most reliable segments of the call have; null for text without letters.
 */
async function sourceLanguages(
  texts: readonly string[],
  source: string,
  target: string,
  translators: readonly Translator[],
): Promise<(string | null)[]> {
  if (source !== "auto") {
    const lang = languageCode(source, "source_language");
    return texts.map(() => lang);
  }
  const allowed = await detectableLanguages(translators, target);
  const detected = await Promise.all(
    texts.map((t) => (/\p{L}/u.test(t) ? detectLanguage(t, allowed) : { language: null, reliable: false })),
  );
  const votes = new Map<string, number>();
  for (const d of detected) if (d.reliable && d.language) votes.set(d.language, (votes.get(d.language) ?? 0) + 1);
  const dominant = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0];
  return detected.map((d) => (d.reliable || !dominant ? d.language : dominant));
}

/** A TM target is reused only when it already carries every glossary target its source calls for. */
function compliant(p: ProtectedText, targetText: string): boolean {
  return p.slots.every((s) => wordRegExp(s.term.target, s.term.caseSensitive).test(targetText));
}

async function provide(
  translators: readonly Translator[],
  lang: string,
  target: string,
  texts: readonly string[],
  context?: string,
  glossary?: GlossaryTerm[],
) {
  try {
    return await translateWithFallback(translators, {
      source: lang,
      target,
      segments: texts.map((text, i) => ({ id: String(i), text })),
      context,
      glossary: glossary?.map((g) => ({ source: g.source, target: g.target, caseSensitive: g.caseSensitive })),
    });
  } catch (err) {
    if (isProviderError(err)) throw toApiError(err, lang, target);
    throw err;
  }
}

/**
 * Translates the units of one source language that have no result yet, through the first
 * translator that serves the pair. Units with glossary terms are post-edited (the terms are
 * translated alone in the same request); those where that is not certain are translated again
 * with placeholders. A term neither way could place is reported with `enforced: false`.
 */
async function translateUnits(
  translators: readonly Translator[],
  units: Unit[],
  lang: string,
  target: string,
  terms: GlossaryTerm[],
  context?: string,
): Promise<void> {
  const todo = units.filter((u) => !u.out);
  if (todo.length === 0) return;
  const used = [...new Set(todo.flatMap((u) => u.protected!.slots.map((s) => s.term)))];
  const first = await provide(translators, lang, target, [...todo.map((u) => u.text), ...used.map((t) => t.source)], context, terms);
  const renderings = new Map(used.map((t, i) => [t, first[todo.length + i]!.text]));
  const uncertain: Unit[] = [];
  todo.forEach((u, i) => {
    const r = first[i]!;
    const edited = postEditAll(r.text, u.protected!, renderings);
    if (edited === null) uncertain.push(u);
    const text = edited ?? r.text;
    u.out = { text, origin: "provider", provider: r.provider, tmId: null, hits: termHits(u.protected!, text) };
  });
  if (uncertain.length === 0) return;

  const second = await provide(
    translators,
    lang,
    target,
    uncertain.map((u) => u.protected!.text),
    context,
    terms,
  );
  uncertain.forEach((u, i) => {
    const restored = restoreTerms(second[i]!.text, u.protected!);
    // A provider that lost a placeholder keeps its plain translation, with the miss reported.
    if (restored.missing.length === 0)
      u.out = {
        text: restored.text,
        origin: "provider",
        provider: second[i]!.provider,
        tmId: null,
        hits: termHits(u.protected!, restored.text),
      };
  });
}

/**
 * The production context pass over one language's provider output (Workers AI only): names and
 * terms made consistent across the call, constrained to renderings already present. A failure
 * keeps the provider's translations.
 */
async function contextPass(ai: Ai, units: Unit[], lang: string, target: string, terms: GlossaryTerm[], context?: string): Promise<number> {
  const candidates = units.filter((u) => u.out?.origin === "provider" && u.out.provider === "workers-ai");
  if (candidates.length < 2) return 0;
  try {
    const result = await new WorkersAiContextPass(ai).refine({
      source: lang,
      target,
      context,
      glossary: terms.map((t) => ({ source: t.source, target: t.target })),
      // Short ids: the model copies them back.
      segments: candidates.map((u, i) => ({
        id: `s${i}`,
        source: u.text,
        translation: u.out!.text,
        locked: u.out!.hits.map((h) => h.target),
      })),
    });
    for (const s of result.segments) {
      const u = candidates[Number(s.id.slice(1))]!;
      u.out = { ...u.out!, text: s.translation, hits: termHits(u.protected!, s.translation) };
    }
    return result.applied.length;
  } catch (err) {
    if (!isProviderError(err)) throw err;
    log.warn("context pass skipped", { error: err.message });
    return 0;
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function sumHits(lists: readonly TermHit[][]): TermHit[] {
  const total = new Map<string, TermHit>();
  for (const h of lists.flat()) {
    const key = `${h.glossary_id}\u0000${h.source}`;
    const t = total.get(key);
    total.set(key, t ? { ...t, count: t.count + h.count, enforced: t.enforced && h.enforced } : { ...h });
  }
  return [...total.values()];
}

/**
 * Translates segments for one account into `target`.
 *
 * - Source language: given, or detected per segment (`auto`).
 * - Consistency: segments with the same normalised source and language are translated once and
 *   get the same text.
 * - Translation memory: an exact match is reused without calling a provider, unless it lacks a
 *   glossary target its source calls for.
 * - Glossaries: every occurrence of a term of the named glossaries (for the segment's pair) is
 *   replaced by a placeholder that the provider passes through, then by the term's target;
 *   `term_hits` reports each term and whether its target is in the output.
 * - Providers in fallback order; with the AI binding, the Workers AI context pass follows.
 *
 * Throws `unsupported_language_pair` (422) or `provider_unavailable` (503, retryable).
 */
export async function translateSegments(
  env: TranslationEnv,
  db: DB,
  input: TranslateSegmentsInput,
  opts: TranslateOptions = {},
): Promise<TranslateSegmentsResult> {
  const target = languageCode(input.target, "target_language");
  const translators = pickTranslators(env, opts, input.provider);
  const named = input.glossaryIds?.length ? await glossaries.namedGlossaries(db, input.userId, input.glossaryIds) : [];
  const termsFor = (lang: string) => named.filter((g) => g.source === lang && g.target === target).flatMap((g) => g.terms);

  const texts = input.segments.map((s) => providerText(s.text));
  const langs = await sourceLanguages(texts, input.source, target, translators);

  // One unit per distinct (language, normalised source): the consistency guarantee.
  const units = new Map<string, Unit>();
  const unitOf = input.segments.map((_, i) => {
    const lang = langs[i];
    const norm = tm.normaliseSegment(texts[i]!);
    if (!lang || !norm || !/\p{L}/u.test(norm)) return null;
    const key = `${lang}\u0000${norm}`;
    if (!units.has(key)) units.set(key, { key, lang, norm, text: texts[i]! });
    return units.get(key)!;
  });

  let contextEdits = 0;
  const byLang = groupBy([...units.values()], (u) => u.lang);
  for (const [lang, group] of byLang) {
    if (lang === target) {
      for (const u of group) u.out = { text: u.text, origin: "copy", provider: null, tmId: null, hits: [] };
      continue;
    }
    const terms = termsFor(lang);
    for (const u of group) u.protected = protectTerms(u.text, terms);

    if (input.useMemory !== false) {
      const matches = await tm.exactMatches(
        db,
        input.userId,
        lang,
        target,
        group.map((u) => u.norm),
      );
      for (const u of group) {
        const entry = matches.get(u.norm);
        if (entry && compliant(u.protected!, entry.targetText)) {
          u.out = {
            text: entry.targetText,
            origin: "tm_exact",
            provider: null,
            tmId: entry.id,
            hits: termHits(u.protected!, entry.targetText),
          };
        }
      }
      await tm.recordUses(
        db,
        group.flatMap((u) => (u.out?.tmId ? [u.out.tmId] : [])),
      );
    }
    for (const u of group) {
      if (!u.out && u.protected!.onlyTerms) {
        const text = restoreTerms(u.protected!.text, u.protected!).text;
        u.out = { text, origin: "glossary", provider: null, tmId: null, hits: termHits(u.protected!, text) };
      }
    }
    await translateUnits(translators, group, lang, target, terms, input.context);
    if (env.AI && opts.contextPass !== false) contextEdits += await contextPass(env.AI, group, lang, target, terms, input.context);
  }

  const segments = input.segments.map((s, i): TranslatedSegmentOut => {
    const u = unitOf[i];
    const lang = langs[i] ?? target;
    if (!u?.out)
      return {
        id: s.id,
        source_text: s.text,
        text: s.text,
        source_language: lang,
        origin: "copy",
        provider: null,
        tm_entry_id: null,
        term_hits: [],
      };
    return {
      id: s.id,
      source_text: s.text,
      text: u.out.text,
      source_language: u.lang,
      origin: u.out.origin,
      provider: u.out.provider,
      tm_entry_id: u.out.tmId,
      term_hits: u.out.hits,
    };
  });
  return { target_language: target, segments, term_hits: sumHits(segments.map((s) => s.term_hits)), context_edits: contextEdits };
}

/**
 * Refuses a pair no configured translator serves, before any work is done: 422
 * `unsupported_language_pair`, or 503 `provider_unavailable` when a translator that might serve
 * it cannot list its pairs right now. `source` may be `auto` (any source into `target`).
 */
export async function assertPairServed(
  env: TranslatorEnv,
  source: string,
  target: string,
  translators: readonly Translator[] = translatorsFromEnv(env),
): Promise<void> {
  const t = languageCode(target, "target_language");
  const s = source === "auto" ? "auto" : languageCode(source, "source_language");
  const lists = await Promise.allSettled(translators.map((tr) => tr.pairs()));
  const served = lists.some((l) => l.status === "fulfilled" && l.value.some((p) => p.target === t && (s === "auto" || p.source === s)));
  if (served) return;
  const down = translators.filter((_, i) => lists[i]!.status === "rejected").map((tr) => tr.name);
  if (down.length) {
    throw new ApiError(
      "provider_unavailable",
      `Cannot check the pair ${s} → ${t}: ${down.join(", ")} cannot be reached. Try again shortly.`,
      { details: { providers: down, source_language: s, target_language: t } },
    );
  }
  throw new ApiError(
    "unsupported_language_pair",
    `No configured translator translates ${s} → ${t}. GET /api/v1/languages lists the pairs served.`,
    {
      details: { source_language: s, target_language: t },
    },
  );
}

/**
 * Stores a translation in the account's translation memory (an edit of a region's translation,
 * or a re-translation): an entry for the same source and pair takes the new target.
 */
export async function rememberTranslation(
  db: DB,
  userId: string,
  source: string,
  target: string,
  sourceText: string,
  targetText: string,
): Promise<void> {
  await tm.rememberMany(db, userId, languageCode(source), languageCode(target), [{ sourceText, targetText }], { overwrite: true });
}

/** Stores a finished job's machine translations; entries that already exist are kept. */
export async function rememberMachineTranslations(
  db: DB,
  userId: string,
  target: string,
  segments: readonly TranslatedSegmentOut[],
): Promise<void> {
  const fresh = segments.filter((s) => s.origin === "provider" || s.origin === "glossary");
  for (const [lang, group] of groupBy(fresh, (s) => s.source_language)) {
    await tm.rememberMany(
      db,
      userId,
      lang,
      target,
      group.map((s) => ({ sourceText: providerText(s.source_text), targetText: s.text })),
      { overwrite: false },
    );
  }
}

export type CandidateOrigin = "provider" | "translation_memory" | "glossary";

export interface Candidate {
  text: string;
  origin: CandidateOrigin;
  provider: string | null;
  /** Similarity of the memory entry's source (translation_memory only), 0..1. */
  score: number | null;
  entry_id?: string;
  source_text?: string;
  term_hits?: TermHit[];
}

export interface AlternativesResult {
  source_language: string;
  target_language: string;
  source_text: string;
  candidates: Candidate[];
  /** Providers that could not answer, and why. */
  unavailable: { provider: string; code: string; message: string }[];
  fuzzy_threshold: number;
}

/**
 * Candidate translations of one text: one per configured provider that serves the pair, fuzzy
 * translation-memory matches (score ≥ TM_FUZZY_THRESHOLD, default 0.75; exact ones score 1), and
 * a glossary-constrained variant when a term occurs (the named glossaries, or every glossary of
 * the account for the pair when none is named).
 */
export async function alternatives(
  env: TranslationEnv,
  db: DB,
  input: { userId: string; source: string; target: string; text: string; glossaryIds?: string[]; context?: string },
  opts: TranslateOptions = {},
): Promise<AlternativesResult> {
  const target = languageCode(input.target, "target_language");
  const translators = pickTranslators(env, opts);
  const text = providerText(input.text);
  const [detected] = await sourceLanguages([text], input.source, target, translators);
  const source = detected ?? target;
  const threshold = tm.fuzzyThreshold(env);
  const unavailable: AlternativesResult["unavailable"] = [];
  const result: AlternativesResult = {
    source_language: source,
    target_language: target,
    source_text: input.text,
    candidates: [],
    unavailable,
    fuzzy_threshold: threshold,
  };
  if (!/\p{L}/u.test(text) || source === target) return result;

  const fromProviders = await Promise.all(
    translators.map(async (t): Promise<Candidate | null> => {
      try {
        const [out] = await t.translate({ source, target, segments: [{ id: "0", text }], context: input.context });
        return { text: out!.text, origin: "provider", provider: out!.provider, score: null };
      } catch (err) {
        if (!isProviderError(err)) throw err;
        unavailable.push({ provider: t.name, code: err.code, message: err.message });
        return null;
      }
    }),
  );
  const fuzzy = await tm.fuzzyMatches(db, input.userId, source, target, text, threshold);

  const gl = input.glossaryIds?.length
    ? (await glossaries.namedGlossaries(db, input.userId, input.glossaryIds)).filter((g) => g.source === source && g.target === target)
    : await glossaries.glossariesForPair(db, input.userId, source, target);
  let constrained: Candidate | null = null;
  if (
    protectTerms(
      text,
      gl.flatMap((g) => g.terms),
    ).slots.length > 0
  ) {
    try {
      const r = await translateSegments(
        env,
        db,
        {
          userId: input.userId,
          source,
          target,
          segments: [{ id: "0", text }],
          glossaryIds: gl.map((g) => g.id),
          context: input.context,
          useMemory: false,
        },
        { ...opts, contextPass: false },
      );
      const seg = r.segments[0]!;
      constrained = { text: seg.text, origin: "glossary", provider: seg.provider, score: null, term_hits: seg.term_hits };
    } catch (err) {
      if (!(err instanceof ApiError) || !["provider_unavailable", "unsupported_language_pair"].includes(err.code)) throw err;
      unavailable.push({ provider: "glossary", code: err.code, message: err.message });
    }
  }

  result.candidates = [
    ...fromProviders.filter((c): c is Candidate => c !== null),
    ...fuzzy.map((m): Candidate => ({
      text: m.target_text,
      origin: "translation_memory",
      provider: null,
      score: m.score,
      entry_id: m.entry_id,
      source_text: m.source_text,
    })),
    ...(constrained ? [constrained] : []),
  ];
  return result;
}
