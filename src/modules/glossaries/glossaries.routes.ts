import { z } from "@hono/zod-openapi";
import { errors, json, Paging } from "../../http/openapi";
import { GlossaryCreateRequest, GlossaryIdParam, GlossaryOut, GlossaryTermsBody } from "./glossaries.schemas";
import { authedRoutes, jsonBody, operation } from "../../http/route";

const glossariesRoute = authedRoutes("Glossaries");

export const listGlossaries = glossariesRoute({
  ...operation("get", "/api/v1/account/glossaries", "listGlossaries"),
  summary: "The account's glossaries with their terms, newest first",
  request: { query: Paging },
  responses: { 200: json(z.array(GlossaryOut), "A page of glossaries"), ...errors(401, 422) },
});

export const createGlossary = glossariesRoute({
  ...operation("post", "/api/v1/account/glossaries", "createGlossary"),
  summary: "Create a glossary for one language pair: its terms are enforced in every translation that names it",
  request: { ...jsonBody(GlossaryCreateRequest) },
  responses: { 201: json(GlossaryOut, "The glossary"), ...errors(400, 401, 422) },
});

export const replaceGlossaryTerms = glossariesRoute({
  ...operation("put", "/api/v1/account/glossaries/{glossary_id}/terms", "replaceGlossaryTerms"),
  summary: "Replace every term of a glossary",
  request: { params: GlossaryIdParam, ...jsonBody(GlossaryTermsBody) },
  responses: { 200: json(GlossaryOut, "The glossary"), ...errors(400, 401, 404, 422) },
});

export const deleteGlossary = glossariesRoute({
  ...operation("delete", "/api/v1/account/glossaries/{glossary_id}", "deleteGlossary"),
  summary: "Delete a glossary and its terms",
  request: { params: GlossaryIdParam },
  responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
});
