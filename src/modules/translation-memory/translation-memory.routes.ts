import { z } from "@hono/zod-openapi";
import { errors, json } from "../../http/openapi";
import { answerWith, authedRoutes, noContentAfter } from "../../http/route";
import { EntryIdParam, TranslationMemoryOut, TranslationMemoryQuery } from "./translation-memory.schemas";
import * as service from "./translation-memory.service";

const memory = authedRoutes("Translation memory");

export const translationMemoryRoutes = [
  memory("get", "/api/v1/account/translation-memory", "listTranslationMemory", {
    summary: "Stored translations (from finished jobs and edits), newest first",
    request: { query: TranslationMemoryQuery },
    responses: { 200: json(z.array(TranslationMemoryOut), "A page of entries"), ...errors(401, 422) },
    handler: answerWith((c) => service.listEntries(c.get("db"), c.get("auth").userId, c.req.valid("query"))),
  }),
  memory("delete", "/api/v1/account/translation-memory/{entry_id}", "deleteTranslationMemoryEntry", {
    summary: "Delete one entry: it is no longer reused or offered",
    request: { params: EntryIdParam },
    responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
    handler: noContentAfter((c) => service.deleteEntry(c.get("db"), c.get("auth").userId, c.req.valid("param").entry_id)),
  }),
];
