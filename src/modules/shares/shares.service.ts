import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { sha256Hex } from "../../lib/crypto";
import { newId, newToken } from "../../lib/ids";
import { hashPassword, verifyPassword } from "../auth/password";
import { ownProject } from "../projects/project-access";
import { publicProjectExports, publicProjectView } from "../projects/projects.service";
import * as repo from "./shares.repo";
import type { ShareCreateRequest, ShareOut } from "./shares.schemas";
import { iso } from "../../lib/time";

const MAX_LIFETIME_MS = 366 * 24 * 60 * 60 * 1000;
const PREFIX_LENGTH = 8;

function statusOf(s: repo.ShareRow, now: number): "active" | "expired" | "revoked" {
  if (s.revokedAt !== null) return "revoked";
  if (s.expiresAt !== null && s.expiresAt <= now) return "expired";
  return "active";
}

function toShareOut(s: repo.ShareRow, now: number, created?: { token: string; url: string }): z.infer<typeof ShareOut> {
  return {
    id: s.id,
    project_id: s.projectId,
    token: created?.token ?? null,
    url: created?.url ?? null,
    token_prefix: s.tokenPrefix,
    status: statusOf(s, now),
    has_password: s.passwordHash !== null,
    allow_download: s.allowDownload,
    view_count: s.viewCount,
    last_viewed_at: iso(s.lastViewedAt),
    expires_at: iso(s.expiresAt),
    revoked_at: iso(s.revokedAt),
    created_at: iso(s.createdAt)!,
  };
}

/** The public path of a share link: the web app's viewer, which reads `/api/v1/share/{token}`. */
export function sharePath(token: string): string {
  return `/s/${token}`;
}

/**
 * Creates a share link: 256 random bits, shown once; only its SHA-256 is stored (with a short
 * display prefix), and the optional password only as a PBKDF2 hash.
 */
export async function createShare(env: Env, db: DB, auth: AuthContext, projectId: string, body: z.infer<typeof ShareCreateRequest>) {
  const project = await ownProject(db, auth.userId, projectId);
  if (project.trashedAt !== null)
    throw new ApiError("conflict", `Project ${projectId} is in the trash; restore it before sharing it.`, { details: { trashed: true } });
  const now = Date.now();
  const expiresAt = body.expires_at ? Date.parse(body.expires_at) : body.expires_in_hours ? now + body.expires_in_hours * 3_600_000 : null;
  if (expiresAt !== null && (expiresAt <= now || expiresAt > now + MAX_LIFETIME_MS)) {
    throw new ApiError("validation_error", "expires_at must be in the future and at most a year ahead.", {
      details: { fields: [{ location: "json", field: "expires_at", message: "must be in the future and at most a year ahead" }] },
    });
  }
  const token = newToken();
  const share = await repo.insertShare(db, {
    id: newId("shr"),
    userId: auth.userId,
    projectId: project.id,
    tokenHash: await sha256Hex(token),
    tokenPrefix: token.slice(0, PREFIX_LENGTH),
    passwordHash: body.password ? await hashPassword(body.password) : null,
    allowDownload: body.allow_download,
    createdAt: now,
    expiresAt,
  });
  return toShareOut(share, now, { token, url: `${env.PUBLIC_BASE_URL.replace(/\/$/, "")}${sharePath(token)}` });
}

export async function listShares(db: DB, auth: AuthContext, projectId: string) {
  const project = await ownProject(db, auth.userId, projectId);
  const now = Date.now();
  return (await repo.listShares(db, auth.userId, project.id)).map((s) => toShareOut(s, now));
}

/** Revokes one of the caller's share links (idempotent); the link answers 410 from then on. */
export async function revokeShare(db: DB, auth: AuthContext, shareId: string): Promise<void> {
  const share = await repo.findOwnShare(db, auth.userId, shareId);
  if (!share) throw new ApiError("not_found", `No share ${shareId}.`);
  await repo.revokeShare(db, share.id, Date.now());
}

/**
 * Resolves a public token to its share and project. Unknown: 404; revoked, expired or trashed
 * project: 410 `link_expired`; password set and not sent: 401 `share_password_required`; wrong:
 * 403 `share_password_invalid` (attempts are rate limited by the route, per link).
 */
async function openLink(db: DB, token: string, password: string | undefined) {
  const share = await repo.findShareByTokenHash(db, await sha256Hex(token));
  if (!share) throw new ApiError("not_found", "No such share link.");
  const now = Date.now();
  const status = statusOf(share, now);
  if (status !== "active")
    throw new ApiError("link_expired", status === "revoked" ? "This share link was revoked." : "This share link has expired.", {
      details: { status },
    });
  const project = await ownProject(db, share.userId, share.projectId);
  if (project.trashedAt !== null)
    throw new ApiError("link_expired", "The shared project is no longer available.", { details: { status: "unavailable" } });
  if (share.passwordHash !== null) {
    if (!password)
      throw new ApiError(
        "share_password_required",
        "This share link is protected by a password; send it as the `password` query parameter.",
      );
    if (!(await verifyPassword(password, share.passwordHash))) throw new ApiError("share_password_invalid", "The password is wrong.");
  }
  return { share, project, now };
}

/** A public link as a request opens it: its token, the password sent, the origin its URLs are signed for. */
export interface OpenedLink {
  token: string;
  password: string | undefined;
  origin: string;
}

/** The public view of a shared project (GET /share/{token}). */
export async function viewShare(env: Env, db: DB, { token, password, origin }: OpenedLink) {
  const { share, project, now } = await openLink(db, token, password);
  await repo.recordView(db, share.id, now);
  return { ...(await publicProjectView(env, db, project, origin)), allow_download: share.allowDownload, expires_at: iso(share.expiresAt) };
}

/** Signed URLs of the shared project's exports (GET /share/{token}/download), when the owner allowed downloads. */
export async function downloadShare(env: Env, db: DB, { token, password, origin }: OpenedLink) {
  const { share, project } = await openLink(db, token, password);
  if (!share.allowDownload) throw new ApiError("forbidden", "The owner of this link does not allow downloads.");
  return publicProjectExports(env, db, project, origin);
}
