import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { LIMITS } from "../../lib/limits";
import { findExport } from "./exports.repo";

/** Export rows, for the domains that produce them (jobs, projects, the pipeline). */
export { exportStatements, type ExportRow, insertExport, jobExports, type NewExport, projectExports, upsertExports } from "./exports.repo";
import { signFileUrl, verifyFileUrl } from "./signed-url";

export async function downloadLink(env: Env, db: DB, auth: AuthContext, exportId: string, origin: string) {
  const exp = await findExport(db, auth.userId, exportId);
  if (!exp) throw new ApiError("not_found", `No export ${exportId}.`);
  if (exp.status !== "ready" || !exp.key)
    throw new ApiError("conflict", `Export ${exportId} is ${exp.status}, not ready to download.`, { details: { status: exp.status } });
  const filename = exp.filename ?? `${exp.id}.${exp.format}`;
  const { url, expiresAt } = await signFileUrl(signingSecret(env), origin, exp.key, filename, LIMITS.signed_url_ttl_seconds);
  return { url, expires_at: expiresAt.toISOString(), filename, content_type: exp.contentType ?? "application/octet-stream" };
}

function signingSecret(env: Env): string {
  if (!env.SIGNING_SECRET) throw new ApiError("service_unavailable", "File signing is not configured (SIGNING_SECRET).");
  return env.SIGNING_SECRET;
}

/** Serves an R2 FILES object for a valid signed URL. */
export async function serveSignedFile(env: Env, url: URL): Promise<Response> {
  const checked = await verifyFileUrl(signingSecret(env), url);
  if (checked === "invalid") throw new ApiError("forbidden", "The download link is not valid.");
  if (checked === "expired") throw new ApiError("link_expired", "The download link has expired; ask for a new one.");
  const obj = await env.FILES.get(checked.key);
  if (!obj) throw new ApiError("not_found", "The file no longer exists.");
  const headers = new Headers();
  obj.writeHttpMetadata(headers);
  headers.set("Content-Length", String(obj.size));
  headers.set("Content-Disposition", `attachment; filename*=UTF-8''${encodeURIComponent(checked.filename)}`);
  headers.set("Cache-Control", "private, max-age=300");
  headers.set("X-Content-Type-Options", "nosniff");
  return new Response(obj.body, { headers });
}
