import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { ApiError, ERROR_CATALOGUE } from "../../http/errors";
import { newId } from "../../lib/ids";
import { LIMITS } from "../../lib/limits";
import { planOf } from "../billing/plans";
import { availableCredits, holdForJob, insufficientCredits, priceOf, settleJob } from "../billing/wallet.service";
import { checkOptionsServed, checkPageLimit, parseOptions, requireFile, storeAndInspect } from "./job-intake";
import * as repo from "./jobs.repo";
import { intakeEvents, launch, newJobRow, publishIntake, statusEvent } from "./jobs.service";

type Accepted = { jobId: string; file: File; sourceKey: string; format: string; pages: number; credits: number };
type Refused = { jobId: string; file: File | null; name: string; error: ApiError };

function filesOf(raw: unknown): unknown[] {
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** Checks one file of a batch with the engine; a file it refuses becomes a failed child, not a failed batch. */
async function intake(env: Env, auth: AuthContext, part: unknown, index: number): Promise<Accepted | Refused> {
  const jobId = newId("job");
  const name = part instanceof File ? part.name || `file-${index + 1}` : `file-${index + 1}`;
  let stored: string | null = null;
  try {
    const file = requireFile(part, `file[${index}]`);
    const { sourceKey, info } = await storeAndInspect(env, auth, jobId, file);
    stored = sourceKey;
    checkPageLimit(auth.plan, info.pages);
    return { jobId, file, sourceKey, format: info.format, pages: info.pages, credits: 0 };
  } catch (err) {
    if (stored) await env.FILES.delete(stored);
    if (!(err instanceof ApiError) || ERROR_CATALOGUE[err.code].retryable || err.code === "validation_error") throw err;
    return { jobId, file: part instanceof File ? part : null, name, error: err };
  }
}

/**
 * POST /batch: one parent job and one child job per file. Each child is an ordinary job (own
 * project, hold, workflow) that fails alone; a file the engine refuses is recorded as a failed
 * child at once. The whole batch is refused before any work when it breaks a limit, the wallet
 * cannot cover every accepted file, or the engine is unavailable.
 */
export async function createBatch(env: Env, db: DB, auth: AuthContext, form: Record<string, unknown>): Promise<repo.JobRow> {
  const plan = planOf(auth.plan);
  if (!plan.features.includes("batch")) {
    throw new ApiError("forbidden", `Batch uploads are not part of the ${plan.name} plan.`, {
      details: { plan: plan.id, feature: "batch" },
    });
  }
  const parts = filesOf(form.file);
  if (parts.length === 0) {
    throw new ApiError("validation_error", "Send each document as a multipart part named `file`.", {
      details: { fields: [{ location: "form", field: "file", message: "at least one file required" }] },
    });
  }
  if (parts.length > LIMITS.max_batch_files) {
    throw new ApiError("validation_error", `A batch holds at most ${LIMITS.max_batch_files} files; this one has ${parts.length}.`, {
      details: {
        fields: [{ location: "form", field: "file", message: `at most ${LIMITS.max_batch_files} files` }],
        limit: LIMITS.max_batch_files,
        files: parts.length,
      },
    });
  }
  const totalBytes = parts.reduce<number>((n, p) => n + (p instanceof File ? p.size : 0), 0);
  if (totalBytes > LIMITS.max_batch_bytes) {
    throw new ApiError("payload_too_large", `A batch is limited to ${LIMITS.max_batch_bytes} bytes in all; this one has ${totalBytes}.`, {
      details: { limit: LIMITS.max_batch_bytes, bytes: totalBytes },
    });
  }
  const options = parseOptions(form.options);
  const ocrLanguages = await checkOptionsServed(env, db, auth.userId, options);

  const results: (Accepted | Refused)[] = [];
  try {
    for (const [i, part] of parts.entries()) results.push(await intake(env, auth, part, i));
  } catch (err) {
    await Promise.all(results.filter((r): r is Accepted => "sourceKey" in r).map((r) => env.FILES.delete(r.sourceKey)));
    throw err;
  }
  const accepted = results.filter((r): r is Accepted => "sourceKey" in r);
  for (const a of accepted) a.credits = priceOf(options.tool, a.pages);
  const cleanup = async () => {
    await Promise.all(accepted.map((a) => env.FILES.delete(a.sourceKey)));
  };
  const needed = accepted.reduce((n, a) => n + a.credits, 0);
  if ((await availableCredits(db, auth.userId)) < needed) {
    await cleanup();
    throw insufficientCredits(needed);
  }

  const parentId = newId("job");
  const now = Date.now();
  const parentEvents = [
    statusEvent("created", "Batch created"),
    statusEvent("uploading", `Received ${parts.length} files (${totalBytes} bytes); ${results.length - accepted.length} refused`),
    statusEvent("queued", "Waiting for the files to be processed"),
  ];
  await repo.insertJob(
    db,
    {
      id: parentId,
      userId: auth.userId,
      apiKeyId: auth.via === "api_key" ? auth.credentialId : null,
      kind: "batch",
      tool: options.tool,
      status: "queued",
      options: { ...options, ocr_languages: ocrLanguages },
      sourceName: `${parts.length} files`,
      sourceBytes: totalBytes,
      workflowInstanceId: parentId,
      createdAt: now,
      updatedAt: now,
    },
    null,
    parentEvents,
  );
  const childEvents = new Map<string, Parameters<typeof publishIntake>[2]>();
  const held: Accepted[] = [];
  try {
    for (const [index, r] of results.entries()) {
      if ("sourceKey" in r) {
        const events = intakeEvents(r.file, { format: r.format, pages: r.pages });
        childEvents.set(r.jobId, events);
        await repo.insertJob(
          db,
          {
            ...newJobRow(auth, {
              jobId: r.jobId,
              options,
              ocrLanguages,
              file: r.file,
              sourceKey: r.sourceKey,
              format: r.format,
              pages: r.pages,
              credits: r.credits,
            }),
            parentJobId: parentId,
            batchIndex: index,
          },
          {
            id: newId("prj"),
            name: r.file.name || `File ${index + 1}`,
            sourceLanguage: options.source_language,
            targetLanguage: options.target_language ?? null,
            pageCount: r.pages,
          },
          events,
        );
        await holdForJob(db, { userId: auth.userId, jobId: r.jobId, attempt: 0, credits: r.credits });
        held.push(r);
      } else {
        const error = { code: r.error.code, message: r.error.message, retryable: false, details: r.error.details };
        const events = [
          statusEvent("created", "Job created"),
          statusEvent("uploading", `Received ${r.file?.size ?? 0} bytes`),
          statusEvent("failed", `Refused: ${r.error.message}`, { error }),
          { type: "done", status: "failed" as const, message: "Finished: failed" },
        ];
        childEvents.set(r.jobId, events);
        await repo.insertJob(
          db,
          {
            id: r.jobId,
            userId: auth.userId,
            apiKeyId: auth.via === "api_key" ? auth.credentialId : null,
            parentJobId: parentId,
            batchIndex: index,
            tool: options.tool,
            status: "failed",
            options: { ...options, ocr_languages: ocrLanguages },
            sourceName: r.name,
            sourceBytes: r.file?.size ?? 0,
            error,
            createdAt: now,
            updatedAt: now,
            finishedAt: now,
          },
          null,
          events,
        );
      }
    }
  } catch (err) {
    // A hold refused by a concurrent spend (or any failure here): undo every hold and row of the batch.
    for (const h of held) await settleJob(db, { userId: auth.userId, jobId: h.jobId, attempt: 0, reserved: h.credits, charge: 0 });
    await repo.deleteJobs(db, [...results.map((r) => r.jobId), parentId]);
    await cleanup();
    throw err;
  }

  await publishIntake(env, parentId, parentEvents);
  for (const [jobId, events] of childEvents) await publishIntake(env, jobId, events);
  await Promise.all(accepted.map((a) => launch(env, db, { id: a.jobId, attempt: 0 }).catch(() => undefined)));
  await launch(env, db, { id: parentId, attempt: 0 });
  return (await repo.getJob(db, parentId))!;
}
