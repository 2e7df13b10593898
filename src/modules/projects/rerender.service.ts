import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import { ocrLanguagesFor } from "../../lib/languages";
import { instanceIdFor } from "../jobs/job-lifecycle";
import { readyPageIndexes } from "./pages.repo";
import { checkToolOptions } from "../jobs/job-intake";
import * as jobsRepo from "../jobs/jobs.repo";
import { launch, publishIntake, statusEvent } from "../jobs/jobs.service";
import { TOOLS } from "../jobs/tools";
import { editableProject } from "./project-access";
import { projectPort } from "./project-port";
import { claimForRerender, setProjectStatus } from "./projects.repo";
import type { RerenderRequest } from "./projects.schemas";

function invalidPages(missing: number[], ready: number[]): ApiError {
  return new ApiError(
    "validation_error",
    `The project has no ready page at index ${missing.join(", ")}; its ready pages are ${ready.join(", ")}.`,
    {
      details: {
        fields: [{ location: "body", field: "pages", message: `no ready page at index ${missing.join(", ")}` }],
        pages: missing,
        ready_pages: ready,
      },
    },
  );
}

/**
 * POST /projects/{id}/rerender: a free job (kind `rerender`, priced 0 by the function that prices
 * every job) that redraws the chosen pages from the regions as stored and edited — text removal,
 * typesetting and exports; recognition and translation never run. The project is `processing`
 * while it runs (edits and a second re-render are refused) and returns to what its pages say after.
 */
export async function rerenderProject(env: Env, db: DB, auth: AuthContext, projectId: string, req: z.infer<typeof RerenderRequest>) {
  const project = await editableProject(db, auth.userId, projectId);
  const ready = await readyPageIndexes(db, project.id);
  if (ready.length === 0) {
    throw new ApiError("conflict", `Project ${projectId} has no page with recognised content to redraw.`, {
      details: { project_id: projectId, ready_pages: [] },
    });
  }
  const pages = req.pages ? [...new Set(req.pages)].sort((a, b) => a - b) : ready;
  const missing = pages.filter((p) => !ready.includes(p));
  if (missing.length) throw invalidPages(missing, ready);

  const source = project.sourceJobId ? await jobsRepo.getJob(db, project.sourceJobId) : undefined;
  const tool = TOOLS[project.tool];
  const options = {
    tool: project.tool,
    source_language: project.sourceLanguage ?? "en",
    target_language: project.targetLanguage ?? undefined,
    export_formats: req.export_formats ?? (source?.options.export_formats as string[] | undefined) ?? tool.default_exports,
  };
  checkToolOptions(options, "body");
  const ocrLanguages = (source?.options.ocr_languages as string[] | undefined) ?? ocrLanguagesFor(options.source_language).languages;

  if (!(await claimForRerender(db, project.id))) {
    throw new ApiError("conflict", `Project ${projectId} is being processed or re-rendered already; wait for that job to finish.`, {
      details: { project_id: projectId },
    });
  }
  const jobId = newId("job");
  const now = Date.now();
  const events = [
    statusEvent("created", "Re-render requested"),
    statusEvent("queued", `Redrawing ${pages.length} page${pages.length === 1 ? "" : "s"} from the edited regions (free)`),
  ];
  try {
    await jobsRepo.insertRerenderJob(
      db,
      {
        id: jobId,
        userId: auth.userId,
        apiKeyId: auth.via === "api_key" ? auth.credentialId : null,
        projectId: project.id,
        tool: project.tool,
        kind: "rerender",
        status: "queued",
        options: { ...options, ocr_languages: ocrLanguages, pages },
        sourceName: project.name,
        pagesTotal: pages.length,
        creditsReserved: 0,
        workflowInstanceId: instanceIdFor(jobId, 0),
        createdAt: now,
        updatedAt: now,
      },
      pages,
      events,
    );
  } catch (err) {
    await setProjectStatus(db, project.id, await projectPort.statusFromPages(db, project.id));
    throw err;
  }
  await publishIntake(env, jobId, events);
  await launch(env, db, { id: jobId, attempt: 0 });
  return (await jobsRepo.getJob(db, jobId))!;
}
