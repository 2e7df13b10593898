import { NonRetryableError } from "cloudflare:workflows";
import { asLettered } from "../../../workers/shared/lettering";
import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { pageIdOf } from "../../lib/ids";
import * as jobs from "../../modules/jobs/jobs.repo";
import * as regions from "../../modules/projects/pages.repo";
import { rememberMachineTranslations, translateSegments } from "../../modules/translation/translation.service";
import { recordEvent } from "../../modules/jobs/job-lifecycle";
import { throwForStep } from "./engine-call";
import type { JobPlan, StageHandler, StageResult } from "./types";

/** Glossaries a job names: `glossary_ids` (array) or `glossary_id` (one). */
function glossaryIdsOf(options: Record<string, unknown>): string[] {
  const many = Array.isArray(options.glossary_ids) ? options.glossary_ids.filter((g): g is string => typeof g === "string") : [];
  const one = typeof options.glossary_id === "string" ? [options.glossary_id] : [];
  return [...new Set([...many, ...one])];
}

/**
 * Translates a page's regions (the user's corrected text where there is one) into the job's
 * target language: source language from the job's options (`auto` or none: detected per region),
 * glossaries named by the job, translation-memory reuse, consistency across the page and, in
 * production, the Workers AI context pass. Stores `translation` (in capitals where the region is
 * lettered so) and `source_language` on each region, feeds the machine translations to the
 * translation memory, and records the term hits in the job's timeline (a `progress` event with
 * `term_hits`). Repeating it (a retried step) rewrites the same rows.
 */
export async function translatingStage(env: Env, db: DB, plan: JobPlan, page: number): Promise<StageResult> {
  if (!plan.projectId) return {};
  if (!plan.targetLanguage) throw new NonRetryableError("[validation_error] The job has no target_language to translate into.");
  const job = await jobs.getJob(db, plan.jobId);
  const options = (job?.options ?? {}) as Record<string, unknown>;
  const rows = (await regions.pageRegions(db, pageIdOf(plan.projectId, page))).filter((r) => /\S/.test(r.userText ?? r.text));
  if (rows.length === 0) return { regions: 0 };

  const optionSource = typeof options.source_language === "string" ? options.source_language : null;
  const source = optionSource ?? rows[0]?.sourceLanguage ?? "auto";
  const warnings: NonNullable<StageResult["warnings"]> = [];

  let glossaryIds = glossaryIdsOf(options);
  let result;
  const target = plan.targetLanguage;
  const translate = () =>
    translateSegments(env, db, {
      userId: plan.userId,
      source,
      target,
      segments: rows.map((r) => ({ id: r.id, text: r.userText ?? r.text })),
      glossaryIds,
    });
  try {
    try {
      result = await translate();
    } catch (err) {
      // A glossary deleted since the job was created: translate without it and say so.
      if (!(err instanceof ApiError) || err.code !== "not_found" || !Array.isArray(err.details.glossary_ids)) throw err;
      const missing = err.details.glossary_ids as string[];
      glossaryIds = glossaryIds.filter((g) => !missing.includes(g));
      warnings.push({ code: "glossary_missing", message: `Glossary ${missing.join(", ")} no longer exists; translated without it.` });
      result = await translate();
    }
  } catch (err) {
    if (err instanceof ApiError) throwForStep(err);
    throw err;
  }

  // A balloon lettered in capitals keeps its translation in capitals, as it is set on the page (the
  // translation memory keeps the translator's own text).
  const lettering = new Map(rows.map((r) => [r.id, r.style?.lettering]));
  await regions.applyRegionChanges(db, plan.projectId, {
    updates: result.segments.map((s) => ({
      id: s.id,
      patch: { translation: asLettered(s.text, lettering.get(s.id), result.target_language), sourceLanguage: s.source_language },
    })),
  });
  await rememberMachineTranslations(db, plan.userId, result.target_language, result.segments);

  const origins: Record<string, number> = {};
  for (const s of result.segments) origins[s.origin] = (origins[s.origin] ?? 0) + 1;
  const hits = result.term_hits;
  const message = hits.length
    ? `Page ${page + 1}: ${result.segments.length} regions translated; glossary terms: ${hits.map((h) => `${h.source} → ${h.target} ×${h.count}`).join(", ")}`
    : `Page ${page + 1}: ${result.segments.length} regions translated`;
  const data = {
    stage: "translating",
    attempt: plan.attempt,
    target_language: result.target_language,
    source_languages: [...new Set(result.segments.map((s) => s.source_language))],
    origins,
    term_hits: hits,
    context_edits: result.context_edits,
  };
  await recordEvent(env, db, plan.jobId, { type: "progress", page, stage: "translating", message, data });

  for (const h of hits.filter((x) => !x.enforced)) {
    warnings.push({
      code: "glossary_term_not_enforced",
      message: `The provider's output could not be made to use "${h.target}" for "${h.source}" on page ${page + 1}.`,
    });
  }
  return { regions: result.segments.length, ...(warnings.length ? { warnings } : {}) };
}

/** The stage map's entry (src/pipeline/stages/index.ts). */
export const translating: StageHandler = ({ env, db, plan, page }) => translatingStage(env, db, plan, page);
