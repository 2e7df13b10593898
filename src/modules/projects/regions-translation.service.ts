import { asLettered } from "../../../workers/shared/lettering";
import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { chargeRetranslation } from "../billing/wallet.service";
import { editableProject, ownProject, writeProjectContent } from "./project-access";
import { toRegionOut } from "./projects.views";
import * as regions from "./pages.repo";
import { alternatives, rememberTranslation, translateSegments, type TranslationEnv } from "../translation/translation.service";

/** The region and its project; `edit` also requires the project editable (not trashed, not processing). */
async function placedRegion(db: DB, auth: AuthContext, projectId: string, regionId: string, edit: boolean) {
  const project = edit ? await editableProject(db, auth.userId, projectId) : await ownProject(db, auth.userId, projectId);
  const region = await regions.findRegion(db, project.id, regionId);
  if (!region) throw new ApiError("not_found", `No region ${regionId} in project ${projectId}.`);
  return { project, region };
}

function noTarget(): ApiError {
  return new ApiError("validation_error", "The project has no target language: send target_language.", {
    details: { fields: [{ location: "json", field: "target_language", message: "required: the project has none" }] },
  });
}

/**
 * POST …/regions/{region_id}/retranslate: translates the region's text (the user's correction
 * when there is one) again, always through a provider (no translation-memory reuse), with the
 * named glossaries. The result replaces the machine translation and clears the user's edited
 * translation, is stored in the translation memory, and is charged RETRANSLATE_CREDITS through
 * the ledger once per region version (dedupe key `retranslate:<region>:<updated_at>`).
 */
export async function retranslateRegion(
  env: TranslationEnv,
  db: DB,
  auth: AuthContext,
  projectId: string,
  regionId: string,
  req: { provider?: string; source_language?: string; target_language?: string; glossary_ids?: string[]; context?: string },
) {
  const { project, region } = await placedRegion(db, auth, projectId, regionId, true);
  const target = req.target_language ?? project.targetLanguage;
  if (!target) throw noTarget();
  const text = region.userText ?? region.text;
  if (!/\S/.test(text)) throw new ApiError("conflict", `Region ${regionId} has no text to translate.`);
  const source = req.source_language ?? region.sourceLanguage ?? project.sourceLanguage ?? "auto";

  const result = await translateSegments(
    env,
    db,
    {
      userId: auth.userId,
      source,
      target,
      segments: [{ id: region.id, text }],
      glossaryIds: req.glossary_ids,
      context: req.context,
      provider: req.provider,
      useMemory: false,
    },
    { contextPass: false },
  );
  const seg = result.segments[0]!;

  if (seg.origin === "provider")
    await chargeRetranslation(db, { userId: auth.userId, regionId: region.id, regionUpdatedAt: region.updatedAt });

  // A job that claimed the project during the translation refuses this write (409); the charge, keyed
  // by the region's version, is not taken again when the same retranslation is asked for later.
  await writeProjectContent(
    db,
    auth.userId,
    project.id,
    regions.regionChangeStatements(db, project.id, {
      updates: [
        {
          id: region.id,
          patch: {
            // Lettered in capitals, stored in capitals as a job's translating step stores it.
            translation: asLettered(seg.text, region.style?.lettering, result.target_language),
            sourceLanguage: seg.source_language,
            userTranslation: null,
          },
        },
      ],
    }),
  );
  if (seg.origin === "provider" || seg.origin === "glossary") {
    await rememberTranslation(db, auth.userId, seg.source_language, result.target_language, text, seg.text);
  }
  return toRegionOut((await regions.findRegion(db, project.id, region.id))!);
}

/**
 * GET …/regions/{region_id}/alternatives: candidates for the region's translation from every
 * configured provider, the translation memory (fuzzy) and the account's glossaries for the pair.
 * Free: nothing is stored or charged.
 */
export async function regionAlternatives(
  env: TranslationEnv,
  db: DB,
  auth: AuthContext,
  projectId: string,
  regionId: string,
  q: { target_language?: string },
) {
  const { project, region } = await placedRegion(db, auth, projectId, regionId, false);
  const target = q.target_language ?? project.targetLanguage;
  if (!target) throw noTarget();
  const text = region.userText ?? region.text;
  const source = region.sourceLanguage ?? project.sourceLanguage ?? "auto";
  const r = await alternatives(env, db, { userId: auth.userId, source, target, text });
  return { region_id: region.id, ...r, current: { translation: region.translation, user_translation: region.userTranslation } };
}
