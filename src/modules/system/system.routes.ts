import { z } from "@hono/zod-openapi";
import { requireAdmin } from "../../http/admin";
import { ApiError } from "../../http/errors";
import { errors, json } from "../../http/openapi";
import { answerWith, jsonBody, routeTable } from "../../http/route";
import { AppConfigOut, HealthOut, StatusOut, StatusOverrideIn, StatusOverrideOut } from "./system.schemas";
import { clearOverride, insertOverride } from "./system.repo";
import * as service from "./system.service";

const FreeForm = z.record(z.string(), z.unknown());
const system = routeTable({ tags: ["System"] });
/** Administrators send ADMIN_TOKEN as a Bearer token (checked in the handler: requireAdmin). */
const admin = routeTable({ tags: ["Admin"], security: [{ adminToken: [] }] });

const healthy = () => ({ status: "ok" as const, version: service.VERSION, time: new Date().toISOString() });

export const systemRoutes = [
  system("get", "/health/live", "healthLive", {
    summary: "Liveness: answers as soon as the process can serve traffic",
    responses: { 200: json(HealthOut, "Alive") },
    handler: answerWith((c) => healthy()),
  }),
  system("get", "/health/ready", "healthReady", {
    summary: "Readiness: checks D1, both R2 buckets, the engine and a translator",
    responses: { 200: json(HealthOut, "Every dependency answers"), ...errors(503) },
    handler: async (c) => {
      const { ok, checks } = await service.readiness(c.env);
      if (ok) return c.json({ ...healthy(), checks }, 200);
      const failing = Object.entries(checks)
        .filter(([, v]) => v.status !== "ok")
        .map(([k]) => k);
      throw new ApiError("service_unavailable", `Not ready: ${failing.join(", ")} failing.`, { details: { checks } });
    },
  }),
  system("get", "/health/providers", "healthProviders", {
    summary: "State of each OCR, translation, browser and AI provider",
    responses: { 200: json(FreeForm, "Provider states") },
    handler: answerWith((c) => service.providers(c.env)),
  }),
  system("get", "/api/v1/config", "getConfig", {
    summary: "Tools, languages, plans, limits and sign-in providers",
    responses: { 200: json(AppConfigOut, "Service configuration") },
    handler: answerWith((c) => service.appConfig(c.env)),
  }),
  system("get", "/api/v1/languages", "getLanguages", {
    summary: "OCR languages and translation pairs that the configured providers really serve",
    responses: { 200: json(FreeForm, "Languages") },
    handler: answerWith((c) => service.languages(c.env)),
  }),
  system("get", "/api/v1/status", "getStatus", {
    summary: "Service status from live health checks and administrator overrides",
    responses: { 200: json(StatusOut, "Status") },
    handler: answerWith((c) => service.status(c.env, c.get("db"))),
  }),
  admin("post", "/api/v1/admin/status-overrides", "setStatusOverride", {
    summary: "Set a manual status for a component (administrators only)",
    request: jsonBody(StatusOverrideIn),
    responses: { 201: json(StatusOverrideOut, "Override stored"), ...errors(401, 403, 422) },
    handler: async (c) => {
      requireAdmin(c);
      return c.json(await insertOverride(c.get("db"), c.req.valid("json")), 201);
    },
  }),
  admin("delete", "/api/v1/admin/status-overrides/{component}", "clearStatusOverride", {
    summary: "End the manual status of a component (administrators only)",
    request: { params: z.object({ component: z.string().max(64) }) },
    responses: { 204: { description: "Cleared" }, ...errors(401, 403, 404, 422) },
    handler: async (c) => {
      requireAdmin(c);
      const cleared = await clearOverride(c.get("db"), c.req.valid("param").component, Date.now());
      if (!cleared) throw new ApiError("not_found", "No active override for that component.");
      return c.body(null, 204);
    },
  }),
];
