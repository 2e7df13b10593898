import { createRoute, z } from "@hono/zod-openapi";
import { errors, json } from "../../http/openapi";
import { rateLimit } from "../../http/rate-limit";
import { sha256Hex } from "../../lib/crypto";
import { ProjectIdParam } from "../projects/projects.schemas";
import {
  ShareCreateRequest,
  ShareDownloadOut,
  ShareIdParam,
  ShareOut,
  SharePasswordQuery,
  ShareTokenParam,
  ShareViewOut,
} from "./shares.schemas";
import { authedRoutes, jsonBody, operation } from "../../http/route";

const sharesRoute = authedRoutes("Shares");

/** RL_SHARE's period (wrangler.toml): password attempts per link per minute. */
const SHARE_RL_PERIOD_SECONDS = 60;

/** Requests that carry a password count against the link they try, whoever sends them (brute-force brake). */
const passwordAttempts = rateLimit({
  binding: (env) => env.RL_SHARE,
  key: async (c) => (c.req.query("password") === undefined ? [] : [`share:${await sha256Hex(c.req.param("token") ?? "")}`]),
  periodSeconds: SHARE_RL_PERIOD_SECONDS,
});

const publicLink = { tags: ["Public"], security: [] as Record<string, string[]>[], middleware: [passwordAttempts] };

export const createShare = sharesRoute({
  ...operation("post", "/api/v1/projects/{project_id}/share", "createShare"),
  summary: "Create a public link to a project (optional password, expiry, downloads); the token is shown once",
  request: { params: ProjectIdParam, ...jsonBody(ShareCreateRequest) },
  responses: { 201: json(ShareOut, "The share, with its token"), ...errors(401, 404, 409, 422) },
});

export const listShares = sharesRoute({
  ...operation("get", "/api/v1/projects/{project_id}/share", "listShares"),
  summary: "A project's share links, newest first (tokens are not shown again)",
  request: { params: ProjectIdParam },
  responses: { 200: json(z.array(ShareOut), "Shares"), ...errors(401, 404, 422) },
});

export const revokeShare = sharesRoute({
  ...operation("delete", "/api/v1/share/{share_id}", "revokeShare"),
  summary: "Revoke a share link",
  request: { params: ShareIdParam },
  responses: { 204: { description: "Revoked" }, ...errors(401, 404, 422) },
});

export const viewShare = createRoute({
  ...publicLink,
  ...operation("get", "/api/v1/share/{token}", "viewShare"),
  summary: "Open a share link (no account): the project's pages, regions, translations and tables",
  request: { params: ShareTokenParam, query: SharePasswordQuery },
  responses: { 200: json(ShareViewOut, "The shared project"), ...errors(401, 403, 404, 410, 422, 429) },
});

export const downloadShare = createRoute({
  ...publicLink,
  ...operation("get", "/api/v1/share/{token}/download", "downloadShare"),
  summary: "Signed URLs of the shared project's exports (newest of each format), when the link allows downloads",
  request: { params: ShareTokenParam, query: SharePasswordQuery },
  responses: { 200: json(ShareDownloadOut, "Download links"), ...errors(401, 403, 404, 410, 422, 429) },
});
