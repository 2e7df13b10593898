import type { z } from "@hono/zod-openapi";
import type { InspectResult } from "../../../workers/shared/engine-contract";
import type { AuthContext } from "../../env";
import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { namedGlossaries } from "../glossaries/glossaries.service";
import { assertPairServed } from "../translation/translation.service";
import { AUTO_LANGUAGE, ocrLanguagesFor } from "../../lib/languages";
import { LIMITS } from "../../lib/limits";
import { ocrModel } from "../../../workers/shared/ocr-models";
import { isUnshapedScript } from "../../../workers/shared/shaping";
import { keys } from "../../lib/storage";
import { planOf } from "../billing/plans";
import { engineFailure } from "./engine-failure";
import { CreateJobRequest } from "./jobs.schemas";
import { TOOLS } from "./tools";

export type JobOptionsIn = z.infer<typeof CreateJobRequest>;

function invalid(field: string, message: string, summary = message): ApiError {
  return new ApiError("validation_error", summary, { details: { fields: [{ location: "form", field, message }] } });
}

/** Validates options against the tool (formats it offers, target language) once zod has parsed them. */
export function checkToolOptions(options: JobOptionsIn, fieldPrefix = "options"): void {
  const tool = TOOLS[options.tool];
  const bad = (options.export_formats ?? []).filter((f) => !tool.export_formats.includes(f));
  if (bad.length) {
    throw invalid(
      `${fieldPrefix}.export_formats`,
      `not offered by ${tool.id}: ${bad.join(", ")}`,
      `Tool ${tool.id} cannot export ${bad.join(", ")}; it offers ${tool.export_formats.join(", ")}.`,
    );
  }
  if (tool.needs_target_language && !options.target_language)
    throw invalid(`${fieldPrefix}.target_language`, "required", `Tool ${tool.id} needs a target_language.`);
}

/** Parses the multipart `options` field (JSON text of CreateJobRequest). */
export function parseOptions(raw: unknown): JobOptionsIn {
  let value: unknown = {};
  if (typeof raw === "string" && raw.trim() !== "") {
    try {
      // A leading byte-order mark is accepted, as in JSON bodies.
      value = JSON.parse(raw.replace(/^\uFEFF/, ""));
    } catch {
      throw invalid("options", "not valid JSON", "The `options` field is not valid JSON.");
    }
  } else if (raw !== undefined && typeof raw !== "string") {
    throw invalid("options", "expected JSON text", "The `options` field must be JSON text.");
  }
  const parsed = CreateJobRequest.safeParse(value);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({
      location: "form",
      field: ["options", ...i.path.map(String)].join("."),
      message: i.message,
    }));
    throw new ApiError("validation_error", `Invalid options: ${fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`, {
      details: { fields },
    });
  }
  checkToolOptions(parsed.data);
  return parsed.data;
}

/**
 * The tesseract languages of the options (`["auto"]` for `auto`), refused when a code names no
 * known model or its model is not installed.
 */
export async function ocrLanguagesOf(env: Env, options: JobOptionsIn): Promise<string[]> {
  const { languages, unknown } = ocrLanguagesFor(options.source_language);
  if (languages[0] === AUTO_LANGUAGE) return languages;
  const missing = [...unknown];
  for (const code of languages) if (!(await env.MODELS.head(`tessdata/${code}.traineddata.gz`))) missing.push(code);
  if (missing.length) {
    throw new ApiError(
      "unsupported_language",
      `No OCR model is installed for language ${missing.map((c) => `"${c}"`).join(", ")}; GET /api/v1/languages lists those available.`,
      {
        details: { language: options.source_language, missing },
      },
    );
  }
  return languages;
}

/**
 * Everything a job's options name must be served before anything is stored or charged:
 * the OCR model, the translation pair (tool `translate`) and the account's glossaries.
 * Returns the tesseract language codes. Text in several
 * languages is translated from the language detected segment by segment (`auto`).
 */
export async function checkOptionsServed(env: Env, db: DB, userId: string, options: JobOptionsIn): Promise<string[]> {
  const ocrLanguages = await ocrLanguagesOf(env, options);
  const source = options.source_language.includes("+") ? AUTO_LANGUAGE : options.source_language;
  if (options.tool === "translate") {
    // Translated pages are drawn: refused now rather than failing at the rendering stage.
    const script = ocrModel(options.target_language ?? "")?.script;
    if (script && isUnshapedScript(script)) {
      throw new ApiError(
        "unsupported_language",
        `Translated pages cannot be drawn in ${script} script: the renderer does not shape it correctly. Use the ocr tool and translate the exported text instead.`,
        {
          details: { language: options.target_language, script },
        },
      );
    }
    await assertPairServed(env, source, options.target_language ?? "");
  }
  if (options.glossary_ids?.length) await namedGlossaries(db, userId, options.glossary_ids);
  return ocrLanguages;
}

/** Refuses a document over the plan's page limit (402, details pages/limit/plan). */
export function checkPageLimit(planId: string, pages: number): void {
  const plan = planOf(planId);
  if (pages > plan.page_limit) {
    throw new ApiError(
      "page_limit_exceeded",
      `The document has ${pages} pages; the ${plan.name} plan allows ${plan.page_limit} per document.`,
      {
        details: { pages, limit: plan.page_limit, plan: plan.id },
      },
    );
  }
}

/** Checks a multipart part is a non-empty file within the upload limit. */
export function requireFile(file: unknown, field = "file"): File {
  if (!(file instanceof File)) throw invalid(field, "required file", `Send the document as the multipart file field \`${field}\`.`);
  if (file.size === 0) throw new ApiError("corrupt_file", `The uploaded file${file.name ? ` ${file.name}` : ""} is empty.`);
  if (file.size > LIMITS.max_upload_bytes) {
    throw new ApiError("payload_too_large", `Uploads are limited to ${LIMITS.max_upload_bytes} bytes.`, {
      details: { limit: LIMITS.max_upload_bytes, bytes: file.size },
    });
  }
  return file;
}

/**
 * Stores an upload and has the engine sniff its real format and count its pages. On refusal the
 * stored object is deleted and the error thrown, so nothing is left behind.
 */
export async function storeAndInspect(
  env: Env,
  auth: AuthContext,
  jobId: string,
  file: File,
): Promise<{ sourceKey: string; info: InspectResult }> {
  const sourceKey = keys.upload(auth.userId, jobId);
  await env.FILES.put(sourceKey, file.stream(), {
    httpMetadata: { contentType: "application/octet-stream" },
    customMetadata: { filename: file.name },
  });
  try {
    const info = await env.ENGINE.inspect({ sourceKey }).catch((err: unknown) => {
      throw engineFailure(err);
    });
    return { sourceKey, info };
  } catch (err) {
    await env.FILES.delete(sourceKey);
    throw err;
  }
}
