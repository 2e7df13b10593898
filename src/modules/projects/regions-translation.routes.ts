import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authed, errors, json } from "../../http/openapi";
import { RegionIdParam, RegionOut } from "./projects.schemas";
import { AlternativesOut, AlternativesQuery, RetranslateRequest } from "../translation/translation.schemas";

export const retranslateRegion = createRoute({
  method: "post",
  path: "/api/v1/projects/{project_id}/regions/{region_id}/retranslate",
  operationId: "retranslateRegion",
  tags: ["Projects"],
  summary: "Translate one region again (optional provider, languages, glossaries, context); costs 1 credit",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: RegionIdParam, body: { content: { "application/json": { schema: RetranslateRequest } }, required: false } },
  responses: { 200: json(RegionOut, "The region with its new translation"), ...errors(400, 401, 402, 404, 409, 422, 503) },
});

export const regionAlternatives = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/regions/{region_id}/alternatives",
  operationId: "getRegionAlternatives",
  tags: ["Projects"],
  summary: "Candidate translations of a region: each provider, translation-memory matches, the glossary-constrained variant",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: RegionIdParam, query: AlternativesQuery },
  responses: { 200: json(AlternativesOut, "Candidates with their origin"), ...errors(401, 404, 409, 422, 503) },
});
