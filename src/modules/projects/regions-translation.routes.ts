import { errors, json } from "../../http/openapi";
import { RegionIdParam, RegionOut } from "./projects.schemas";
import { AlternativesOut, AlternativesQuery, RetranslateRequest } from "../translation/translation.schemas";
import { authedRoutes, operation } from "../../http/route";

const projectsRoute = authedRoutes("Projects");

export const retranslateRegion = projectsRoute({
  ...operation("post", "/api/v1/projects/{project_id}/regions/{region_id}/retranslate", "retranslateRegion"),
  summary: "Translate one region again (optional provider, languages, glossaries, context); costs 1 credit",
  request: { params: RegionIdParam, body: { content: { "application/json": { schema: RetranslateRequest } }, required: false } },
  responses: { 200: json(RegionOut, "The region with its new translation"), ...errors(400, 401, 402, 404, 409, 422, 503) },
});

export const regionAlternatives = projectsRoute({
  ...operation("get", "/api/v1/projects/{project_id}/regions/{region_id}/alternatives", "getRegionAlternatives"),
  summary: "Candidate translations of a region: each provider, translation-memory matches, the glossary-constrained variant",
  request: { params: RegionIdParam, query: AlternativesQuery },
  responses: { 200: json(AlternativesOut, "Candidates with their origin"), ...errors(401, 404, 409, 422, 503) },
});
