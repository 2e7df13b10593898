import { createRoute, z } from "@hono/zod-openapi";
import { errors, json } from "../../http/openapi";
import { AppConfigOut, HealthOut, StatusOut, StatusOverrideIn, StatusOverrideOut } from "./system.schemas";
import { jsonBody, operation } from "../../http/route";

const FreeForm = z.record(z.string(), z.unknown());

export const live = createRoute({
  ...operation("get", "/health/live", "healthLive"),
  tags: ["System"],
  summary: "Liveness: answers as soon as the process can serve traffic",
  responses: { 200: json(HealthOut, "Alive") },
});

export const ready = createRoute({
  ...operation("get", "/health/ready", "healthReady"),
  tags: ["System"],
  summary: "Readiness: checks D1, both R2 buckets, the engine and a translator",
  responses: { 200: json(HealthOut, "Every dependency answers"), ...errors(503) },
});

export const providers = createRoute({
  ...operation("get", "/health/providers", "healthProviders"),
  tags: ["System"],
  summary: "State of each OCR, translation, browser and AI provider",
  responses: { 200: json(FreeForm, "Provider states") },
});

export const config = createRoute({
  ...operation("get", "/api/v1/config", "getConfig"),
  tags: ["System"],
  summary: "Tools, languages, plans, limits and sign-in providers",
  responses: { 200: json(AppConfigOut, "Service configuration") },
});

export const languages = createRoute({
  ...operation("get", "/api/v1/languages", "getLanguages"),
  tags: ["System"],
  summary: "OCR languages and translation pairs that the configured providers really serve",
  responses: { 200: json(FreeForm, "Languages") },
});

export const status = createRoute({
  ...operation("get", "/api/v1/status", "getStatus"),
  tags: ["System"],
  summary: "Service status from live health checks and administrator overrides",
  responses: { 200: json(StatusOut, "Status") },
});

export const setOverride = createRoute({
  ...operation("post", "/api/v1/admin/status-overrides", "setStatusOverride"),
  tags: ["Admin"],
  summary: "Set a manual status for a component (administrators only)",
  security: [{ adminToken: [] }],
  request: { ...jsonBody(StatusOverrideIn) },
  responses: { 201: json(StatusOverrideOut, "Override stored"), ...errors(401, 403, 422) },
});

export const clearOverride = createRoute({
  ...operation("delete", "/api/v1/admin/status-overrides/{component}", "clearStatusOverride"),
  tags: ["Admin"],
  summary: "End the manual status of a component (administrators only)",
  security: [{ adminToken: [] }],
  request: { params: z.object({ component: z.string().max(64) }) },
  responses: { 204: { description: "Cleared" }, ...errors(401, 403, 404, 422) },
});
