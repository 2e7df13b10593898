import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authed, errors, json, Paging } from "../../http/openapi";
import { GlossaryCreateRequest, GlossaryIdParam, GlossaryOut, GlossaryTermsBody } from "./glossaries.schemas";

export const listGlossaries = createRoute({
  method: "get",
  path: "/api/v1/account/glossaries",
  operationId: "listGlossaries",
  tags: ["Glossaries"],
  summary: "The account's glossaries with their terms, newest first",
  security: authed,
  middleware: [requireAuth] as const,
  request: { query: Paging },
  responses: { 200: json(z.array(GlossaryOut), "A page of glossaries"), ...errors(401, 422) },
});

export const createGlossary = createRoute({
  method: "post",
  path: "/api/v1/account/glossaries",
  operationId: "createGlossary",
  tags: ["Glossaries"],
  summary: "Create a glossary for one language pair: its terms are enforced in every translation that names it",
  security: authed,
  middleware: [requireAuth] as const,
  request: { body: { content: { "application/json": { schema: GlossaryCreateRequest } }, required: true } },
  responses: { 201: json(GlossaryOut, "The glossary"), ...errors(400, 401, 422) },
});

export const replaceGlossaryTerms = createRoute({
  method: "put",
  path: "/api/v1/account/glossaries/{glossary_id}/terms",
  operationId: "replaceGlossaryTerms",
  tags: ["Glossaries"],
  summary: "Replace every term of a glossary",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: GlossaryIdParam, body: { content: { "application/json": { schema: GlossaryTermsBody } }, required: true } },
  responses: { 200: json(GlossaryOut, "The glossary"), ...errors(400, 401, 404, 422) },
});

export const deleteGlossary = createRoute({
  method: "delete",
  path: "/api/v1/account/glossaries/{glossary_id}",
  operationId: "deleteGlossary",
  tags: ["Glossaries"],
  summary: "Delete a glossary and its terms",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: GlossaryIdParam },
  responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
});
