import { errors, json } from "../../http/openapi";
import { answerWith, authedRoutes } from "../../http/route";
import { AlternativesOut, AlternativesQuery, RetranslateRequest } from "../translation/translation.schemas";
import { RegionIdParam, RegionOut } from "./projects.schemas";
import * as service from "./regions-translation.service";

const project = authedRoutes("Projects");

export const regionTranslationRoutes = [
  project("post", "/api/v1/projects/{project_id}/regions/{region_id}/retranslate", "retranslateRegion", {
    summary: "Translate one region again (optional provider, languages, glossaries, context); costs 1 credit",
    request: { params: RegionIdParam, body: { content: { "application/json": { schema: RetranslateRequest } }, required: false } },
    responses: { 200: json(RegionOut, "The region with its new translation"), ...errors(400, 401, 402, 404, 409, 422, 503) },
    handler: answerWith((c) => {
      const p = c.req.valid("param");
      const body = c.req.valid("json") ?? {};
      return service.retranslateRegion(c.env, c.get("db"), c.get("auth"), p.project_id, p.region_id, body);
    }),
  }),
  project("get", "/api/v1/projects/{project_id}/regions/{region_id}/alternatives", "getRegionAlternatives", {
    summary: "Candidate translations of a region: each provider, translation-memory matches, the glossary-constrained variant",
    request: { params: RegionIdParam, query: AlternativesQuery },
    responses: { 200: json(AlternativesOut, "Candidates with their origin"), ...errors(401, 404, 409, 422, 503) },
    handler: answerWith((c) => {
      const p = c.req.valid("param");
      const query = c.req.valid("query");
      return service.regionAlternatives(c.env, c.get("db"), c.get("auth"), p.project_id, p.region_id, query);
    }),
  }),
];
