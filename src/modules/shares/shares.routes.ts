import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { errors, json } from "../../http/openapi";
import { rateLimit } from "../../http/rate-limit";
import { answerWith, authedRoutes, jsonBody, noContentAfter, routeTable } from "../../http/route";
import { sha256Hex } from "../../lib/crypto";
import { ProjectIdParam } from "../projects/projects.schemas";
import * as schemas from "./shares.schemas";
import * as service from "./shares.service";

/** RL_SHARE's period (wrangler.toml): password attempts per link per minute. */
const SHARE_RL_PERIOD_SECONDS = 60;

/** Requests that carry a password count against the link they try, whoever sends them (brute-force brake). */
const passwordAttempts = rateLimit({
  binding: (env) => env.RL_SHARE,
  key: async (c) => (c.req.query("password") === undefined ? [] : [`share:${await sha256Hex(c.req.param("token") ?? "")}`]),
  periodSeconds: SHARE_RL_PERIOD_SECONDS,
});

/** A request to a public link, as validated: its token and the password it carries. */
type LinkRequest = Context<AppEnv, string, { out: { param: { token: string }; query: { password?: string } } }>;

/**
 * The link a public request opens: its token, password, and the origin its URLs are signed for.
 * A shared view carries signed links, so the answer stays out of shared caches and referrers.
 */
function openedLink(c: LinkRequest): service.OpenedLink {
  c.header("Cache-Control", "private, no-store");
  c.header("Referrer-Policy", "no-referrer");
  return { token: c.req.valid("param").token, password: c.req.valid("query").password, origin: new URL(c.req.url).origin };
}

const share = authedRoutes("Shares");
const publicLink = routeTable({ tags: ["Public"], security: [], middleware: [passwordAttempts] });

export const shareRoutes = [
  share("post", "/api/v1/projects/{project_id}/share", "createShare", {
    summary: "Create a public link to a project (optional password, expiry, downloads); the token is shown once",
    request: { params: ProjectIdParam, ...jsonBody(schemas.ShareCreateRequest) },
    responses: { 201: json(schemas.ShareOut, "The share, with its token"), ...errors(401, 404, 409, 422) },
    handler: async (c) =>
      c.json(await service.createShare(c.env, c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json")), 201),
  }),
  share("get", "/api/v1/projects/{project_id}/share", "listShares", {
    summary: "A project's share links, newest first (tokens are not shown again)",
    request: { params: ProjectIdParam },
    responses: { 200: json(z.array(schemas.ShareOut), "Shares"), ...errors(401, 404, 422) },
    handler: answerWith((c) => service.listShares(c.get("db"), c.get("auth"), c.req.valid("param").project_id)),
  }),
  share("delete", "/api/v1/share/{share_id}", "revokeShare", {
    summary: "Revoke a share link",
    request: { params: schemas.ShareIdParam },
    responses: { 204: { description: "Revoked" }, ...errors(401, 404, 422) },
    handler: noContentAfter((c) => service.revokeShare(c.get("db"), c.get("auth"), c.req.valid("param").share_id)),
  }),
  publicLink("get", "/api/v1/share/{token}", "viewShare", {
    summary: "Open a share link (no account): the project's pages, regions, translations and tables",
    request: { params: schemas.ShareTokenParam, query: schemas.SharePasswordQuery },
    responses: { 200: json(schemas.ShareViewOut, "The shared project"), ...errors(401, 403, 404, 410, 422, 429) },
    handler: answerWith((c) => service.viewShare(c.env, c.get("db"), openedLink(c))),
  }),
  publicLink("get", "/api/v1/share/{token}/download", "downloadShare", {
    summary: "Signed URLs of the shared project's exports (newest of each format), when the link allows downloads",
    request: { params: schemas.ShareTokenParam, query: schemas.SharePasswordQuery },
    responses: { 200: json(schemas.ShareDownloadOut, "Download links"), ...errors(401, 403, 404, 410, 422, 429) },
    handler: answerWith((c) => service.downloadShare(c.env, c.get("db"), openedLink(c))),
  }),
];
