import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authed, errors, json } from "../../http/openapi";
import { EntryIdParam, TranslationMemoryOut, TranslationMemoryQuery } from "./translation-memory.schemas";

export const listTranslationMemory = createRoute({
  method: "get",
  path: "/api/v1/account/translation-memory",
  operationId: "listTranslationMemory",
  tags: ["Translation memory"],
  summary: "Stored translations (from finished jobs and edits), newest first",
  security: authed,
  middleware: [requireAuth] as const,
  request: { query: TranslationMemoryQuery },
  responses: { 200: json(z.array(TranslationMemoryOut), "A page of entries"), ...errors(401, 422) },
});

export const deleteTranslationMemoryEntry = createRoute({
  method: "delete",
  path: "/api/v1/account/translation-memory/{entry_id}",
  operationId: "deleteTranslationMemoryEntry",
  tags: ["Translation memory"],
  summary: "Delete one entry: it is no longer reused or offered",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: EntryIdParam },
  responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
});
