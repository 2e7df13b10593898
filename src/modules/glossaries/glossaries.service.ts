import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import type { GlossaryTerm } from "./term-protection";
import * as repo from "./glossaries.repo";
import type { GlossaryCreateRequest, GlossaryOut, GlossaryTermIn } from "./glossaries.schemas";
import { iso } from "../../lib/time";

type TermIn = z.infer<typeof GlossaryTermIn>;

function toOut(g: repo.GlossaryRow, terms: readonly repo.TermRow[]): z.infer<typeof GlossaryOut> {
  return {
    id: g.id,
    name: g.name,
    source_language: g.sourceLanguage,
    target_language: g.targetLanguage,
    term_count: terms.length,
    terms: terms.map((t) => ({ source: t.source, target: t.target, case_sensitive: t.caseSensitive })),
    created_at: iso(g.createdAt),
    updated_at: iso(g.updatedAt),
  };
}

/**
 * Normalises terms and refuses two terms for the same source: the same text twice, or the same
 * letters in another case when either of them ignores case (the match would be ambiguous).
 */
function normaliseTerms(terms: readonly TermIn[], defaultCaseSensitive: boolean, field: string): repo.NewTerm[] {
  const out = terms.map((t) => ({
    source: t.source.normalize("NFC"),
    target: t.target.normalize("NFC"),
    caseSensitive: t.case_sensitive ?? defaultCaseSensitive,
  }));
  const fields: { location: string; field: string; message: string }[] = [];
  out.forEach((t, i) => {
    const clash = out.findIndex(
      (o, j) =>
        j < i && (o.source === t.source || ((!o.caseSensitive || !t.caseSensitive) && o.source.toLowerCase() === t.source.toLowerCase())),
    );
    if (clash !== -1)
      fields.push({ location: "json", field: `${field}${i}.source`, message: `"${t.source}" is already given as term ${clash}` });
  });
  if (fields.length) {
    throw new ApiError("validation_error", `Duplicate glossary terms: ${fields.map((f) => f.message).join("; ")}`, { details: { fields } });
  }
  return out;
}

async function ownGlossary(db: DB, userId: string, glossaryId: string): Promise<repo.GlossaryRow> {
  const [g] = await repo.findGlossaries(db, userId, [glossaryId]);
  if (!g) throw new ApiError("not_found", `No glossary ${glossaryId}.`);
  return g;
}

/** The account's glossaries with their terms, newest first. */
export async function listGlossaries(db: DB, userId: string, paging: { limit: number; offset: number }) {
  const rows = await repo.listGlossaries(db, userId, paging.limit, paging.offset);
  const terms = await repo.termsOf(
    db,
    rows.map((g) => g.id),
  );
  return rows.map((g) =>
    toOut(
      g,
      terms.filter((t) => t.glossaryId === g.id),
    ),
  );
}

/** Creates a glossary for one language pair, with its first terms. */
export async function createGlossary(db: DB, userId: string, req: z.infer<typeof GlossaryCreateRequest>) {
  const terms = normaliseTerms(req.terms, req.case_sensitive, "terms.");
  const now = Date.now();
  const id = newId("gls");
  await repo.insertGlossary(
    db,
    {
      id,
      userId,
      name: req.name,
      sourceLanguage: req.source_language,
      targetLanguage: req.target_language,
      createdAt: now,
      updatedAt: now,
    },
    terms,
  );
  return getGlossary(db, userId, id);
}

export async function getGlossary(db: DB, userId: string, glossaryId: string) {
  const g = await ownGlossary(db, userId, glossaryId);
  return toOut(g, await repo.termsOf(db, [g.id]));
}

/** Replaces every term of an account's glossary. */
export async function replaceTerms(db: DB, userId: string, glossaryId: string, terms: readonly TermIn[]) {
  const g = await ownGlossary(db, userId, glossaryId);
  await repo.replaceTerms(db, g.id, normaliseTerms(terms, false, ""));
  return getGlossary(db, userId, g.id);
}

export async function deleteGlossary(db: DB, userId: string, glossaryId: string): Promise<void> {
  if (!(await repo.deleteGlossary(db, userId, glossaryId))) throw new ApiError("not_found", `No glossary ${glossaryId}.`);
}

/** A glossary with its terms, as translation applies it. */
export interface GlossaryForTranslation {
  id: string;
  source: string;
  target: string;
  terms: GlossaryTerm[];
}

function forTranslation(rows: readonly repo.GlossaryRow[], terms: readonly repo.TermRow[]): GlossaryForTranslation[] {
  return rows.map((g) => ({
    id: g.id,
    source: g.sourceLanguage,
    target: g.targetLanguage,
    terms: terms
      .filter((t) => t.glossaryId === g.id)
      .map((t) => ({ glossaryId: g.id, source: t.source, target: t.target, caseSensitive: t.caseSensitive })),
  }));
}

/**
 * The glossaries a job or a request names, with their terms. Every id must be one of the
 * account's glossaries (else 404 `not_found`); each one applies to its own language pair only.
 */
export async function namedGlossaries(db: DB, userId: string, ids: readonly string[]): Promise<GlossaryForTranslation[]> {
  const unique = [...new Set(ids)];
  const rows = await repo.findGlossaries(db, userId, unique);
  const missing = unique.filter((id) => !rows.some((g) => g.id === id));
  if (missing.length) throw new ApiError("not_found", `No glossary ${missing.join(", ")}.`, { details: { glossary_ids: missing } });
  return forTranslation(rows, await repo.termsOf(db, unique));
}

/** Every glossary of the account for one language pair (used when a request names none). */
export async function glossariesForPair(db: DB, userId: string, source: string, target: string): Promise<GlossaryForTranslation[]> {
  const rows = await repo.glossariesForPair(db, userId, source, target);
  return forTranslation(
    rows,
    await repo.termsOf(
      db,
      rows.map((g) => g.id),
    ),
  );
}
