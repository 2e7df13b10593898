import { z } from "@hono/zod-openapi";
import { errors, json } from "../../http/openapi";
import { EntryIdParam, TranslationMemoryOut, TranslationMemoryQuery } from "./translation-memory.schemas";
import { authedRoutes, operation } from "../../http/route";

const translationMemoryRoute = authedRoutes("Translation memory");

export const listTranslationMemory = translationMemoryRoute({
  ...operation("get", "/api/v1/account/translation-memory", "listTranslationMemory"),
  summary: "Stored translations (from finished jobs and edits), newest first",
  request: { query: TranslationMemoryQuery },
  responses: { 200: json(z.array(TranslationMemoryOut), "A page of entries"), ...errors(401, 422) },
});

export const deleteTranslationMemoryEntry = translationMemoryRoute({
  ...operation("delete", "/api/v1/account/translation-memory/{entry_id}", "deleteTranslationMemoryEntry"),
  summary: "Delete one entry: it is no longer reused or offered",
  request: { params: EntryIdParam },
  responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
});
