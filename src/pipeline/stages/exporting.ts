import type { BuiltExport, ExportFormat } from "../../../workers/shared/engine-contract";
import type { DB } from "../../db/client";
import { keys } from "../../lib/storage";
import { buildDocumentExports } from "../../modules/projects/export-document.service";
import { upsertExports } from "../../modules/exports/exports.service";
import * as repo from "../../modules/jobs/jobs.repo";
import { engineCall } from "./engine-call";
import type { JobPlan } from "./types";

/**
 * Builds the job's export files from the pages that succeeded (in any attempt) and records them.
 * A job with a project exports the project's regions (with translations, rendered pages and
 * tables); the `translate` tool's text formats carry the translation.
 */
export async function runExports(env: Env, db: DB, plan: JobPlan, okPages: number[]): Promise<number> {
  const formats = plan.formats as ExportFormat[];
  const outPrefix = keys.exportPrefix(plan.userId, plan.jobId);
  const built: BuiltExport[] = await engineCall(() =>
    plan.projectId
      ? buildDocumentExports(env, db, {
          userId: plan.userId,
          projectId: plan.projectId,
          title: plan.baseName,
          sourceLanguage: plan.languages.join("+"),
          targetLanguage: plan.targetLanguage,
          formats,
          content: plan.tool === "translate" ? "translation" : "source",
          outPrefix,
          baseName: plan.baseName,
          pageIndexes: okPages,
        })
      : env.ENGINE.buildExports({
          pageTextKeys: okPages.map((p) => keys.pageText(plan.userId, plan.jobId, p)),
          formats,
          outPrefix,
          baseName: plan.baseName,
        }),
  );
  const now = Date.now();
  await upsertExports(
    db,
    built.map((b) => ({
      id: `exp_${plan.jobId.slice(4)}_${b.format}`,
      userId: plan.userId,
      projectId: plan.projectId,
      jobId: plan.jobId,
      format: b.format,
      status: "ready" as const,
      key: b.key,
      filename: b.filename,
      bytes: b.bytes,
      contentType: b.contentType,
      createdAt: now,
      completedAt: now,
    })),
  );
  return built.length;
}
