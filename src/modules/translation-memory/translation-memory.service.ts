import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { sha256Hex } from "../../lib/crypto";
import * as repo from "./translation-memory.repo";
import type { TranslationMemoryOut } from "./translation-memory.schemas";
import { similarity } from "./similarity";
import { iso } from "../../lib/time";

/** Default fuzzy-match threshold: 75 % similar. */
export const DEFAULT_FUZZY_THRESHOLD = 0.75;
/** Entries compared per fuzzy lookup (the most recently updated ones of the right length). */
const FUZZY_SCAN_LIMIT = 500;
/** Longest text compared character by character; longer segments get exact matches only. */
const FUZZY_MAX_CHARS = 2000;

export type EntryRow = repo.EntryRow;

/** The form in which segments are compared and stored: NFC, blanks collapsed, trimmed. */
export function normaliseSegment(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, " ").trim();
}

async function hashOf(normalised: string): Promise<string> {
  return sha256Hex(normalised);
}

/**
 * The fuzzy threshold from `TM_FUZZY_THRESHOLD`: a fraction (0.8) or a percentage (80); anything
 * else, or nothing, means 0.75.
 */
export function fuzzyThreshold(env: { TM_FUZZY_THRESHOLD?: string }): number {
  const raw = Number.parseFloat(env.TM_FUZZY_THRESHOLD ?? "");
  if (!Number.isFinite(raw) || raw <= 0 || raw > 100) return DEFAULT_FUZZY_THRESHOLD;
  return raw > 1 ? raw / 100 : raw;
}

function toOut(e: repo.EntryRow): z.infer<typeof TranslationMemoryOut> {
  return {
    id: e.id,
    source_language: e.sourceLanguage,
    target_language: e.targetLanguage,
    source_text: e.sourceText,
    target_text: e.targetText,
    uses: e.uses,
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
    last_used_at: iso(e.lastUsedAt),
  };
}

export async function listEntries(
  db: DB,
  userId: string,
  q: { source_language?: string; target_language?: string; limit: number; offset: number },
) {
  const rows = await repo.listEntries(db, userId, {
    source: q.source_language,
    target: q.target_language,
    limit: q.limit,
    offset: q.offset,
  });
  return rows.map(toOut);
}

export async function deleteEntry(db: DB, userId: string, entryId: string): Promise<void> {
  if (!(await repo.deleteEntry(db, userId, entryId))) throw new ApiError("not_found", `No translation memory entry ${entryId}.`);
}

/** Exact matches for many segments at once, keyed by normalised source text. */
export async function exactMatches(
  db: DB,
  userId: string,
  source: string,
  target: string,
  texts: readonly string[],
): Promise<Map<string, repo.EntryRow>> {
  const normalised = [...new Set(texts.map(normaliseSegment).filter(Boolean))];
  const byHash = new Map<string, string>();
  for (const n of normalised) byHash.set(await hashOf(n), n);
  const rows = await repo.findByHashes(db, userId, source, target, [...byHash.keys()]);
  const out = new Map<string, repo.EntryRow>();
  for (const row of rows) {
    const n = byHash.get(row.sourceHash);
    if (n !== undefined) out.set(n, row);
  }
  return out;
}

/** Counts a reuse of each entry (exact matches that replaced a provider call). */
export async function recordUses(db: DB, ids: readonly string[]): Promise<void> {
  if (ids.length) await repo.recordUses(db, [...new Set(ids)]);
}

/**
 * Stores translations for one account and pair. `overwrite` (a user's edit or an explicit
 * re-translation) replaces an existing entry's target; without it (a finished job's machine
 * output) existing entries are kept. Blank sides are skipped.
 */
export async function rememberMany(
  db: DB,
  userId: string,
  source: string,
  target: string,
  pairs: readonly { sourceText: string; targetText: string }[],
  opts: { overwrite: boolean },
): Promise<void> {
  const entries = new Map<string, { sourceHash: string; sourceText: string; targetText: string }>();
  for (const p of pairs) {
    const sourceText = normaliseSegment(p.sourceText);
    const targetText = p.targetText.trim();
    if (!sourceText || !targetText) continue;
    entries.set(sourceText, { sourceHash: await hashOf(sourceText), sourceText, targetText });
  }
  await repo.upsertEntries(db, userId, source, target, [...entries.values()], opts.overwrite);
}

/** One entry, as written by rememberTranslation; undefined when either side is blank. */
export async function findEntry(db: DB, userId: string, source: string, target: string, sourceText: string) {
  const n = normaliseSegment(sourceText);
  return n ? repo.findEntry(db, userId, source, target, await hashOf(n)) : undefined;
}

export interface FuzzyMatch {
  entry_id: string;
  source_text: string;
  target_text: string;
  score: number;
}

/** Entries whose source is at least `threshold` similar to `text` (case-insensitive), best first. */
export async function fuzzyMatches(
  db: DB,
  userId: string,
  source: string,
  target: string,
  text: string,
  threshold: number,
  limit = 5,
): Promise<FuzzyMatch[]> {
  const needle = normaliseSegment(text).toLowerCase();
  if (!needle || needle.length > FUZZY_MAX_CHARS) return [];
  const minChars = Math.ceil(needle.length * threshold);
  const maxChars = Math.floor(needle.length / threshold);
  const rows = await repo.fuzzyCandidates(db, userId, source, target, minChars, maxChars, FUZZY_SCAN_LIMIT);
  return rows
    .map((e) => ({
      entry_id: e.id,
      source_text: e.sourceText,
      target_text: e.targetText,
      score: similarity(needle, e.sourceText.toLowerCase(), threshold),
    }))
    .filter((m) => m.score >= threshold && m.score > 0)
    .sort((a, b) => b.score - a.score || a.entry_id.localeCompare(b.entry_id))
    .slice(0, limit)
    .map((m) => ({ ...m, score: Math.round(m.score * 1000) / 1000 }));
}
