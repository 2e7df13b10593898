import { z } from "@hono/zod-openapi";
import { errors, json, Paging } from "../../http/openapi";
import { answerWith, authedRoutes, jsonBody, noContentAfter } from "../../http/route";
import { GlossaryCreateRequest, GlossaryIdParam, GlossaryOut, GlossaryTermsBody } from "./glossaries.schemas";
import * as service from "./glossaries.service";

const glossary = authedRoutes("Glossaries");

export const glossaryRoutes = [
  glossary("get", "/api/v1/account/glossaries", "listGlossaries", {
    summary: "The account's glossaries with their terms, newest first",
    request: { query: Paging },
    responses: { 200: json(z.array(GlossaryOut), "A page of glossaries"), ...errors(401, 422) },
    handler: answerWith((c) => service.listGlossaries(c.get("db"), c.get("auth").userId, c.req.valid("query"))),
  }),
  glossary("post", "/api/v1/account/glossaries", "createGlossary", {
    summary: "Create a glossary for one language pair: its terms are enforced in every translation that names it",
    request: jsonBody(GlossaryCreateRequest),
    responses: { 201: json(GlossaryOut, "The glossary"), ...errors(400, 401, 422) },
    handler: async (c) => c.json(await service.createGlossary(c.get("db"), c.get("auth").userId, c.req.valid("json")), 201),
  }),
  glossary("put", "/api/v1/account/glossaries/{glossary_id}/terms", "replaceGlossaryTerms", {
    summary: "Replace every term of a glossary",
    request: { params: GlossaryIdParam, ...jsonBody(GlossaryTermsBody) },
    responses: { 200: json(GlossaryOut, "The glossary"), ...errors(400, 401, 404, 422) },
    handler: answerWith((c) =>
      service.replaceTerms(c.get("db"), c.get("auth").userId, c.req.valid("param").glossary_id, c.req.valid("json")),
    ),
  }),
  glossary("delete", "/api/v1/account/glossaries/{glossary_id}", "deleteGlossary", {
    summary: "Delete a glossary and its terms",
    request: { params: GlossaryIdParam },
    responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
    handler: noContentAfter((c) => service.deleteGlossary(c.get("db"), c.get("auth").userId, c.req.valid("param").glossary_id)),
  }),
];
