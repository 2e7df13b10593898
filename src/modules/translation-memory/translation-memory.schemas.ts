import { z } from "@hono/zod-openapi";
import { Paging, pathId, resourceOut } from "../../http/openapi";

export const TranslationMemoryOut = resourceOut("TranslationMemoryOut", "tm", {
  source_language: z.string(),
  target_language: z.string(),
  source_text: z.string(),
  target_text: z.string(),
  uses: z.number().int().openapi({ description: "How often the entry was reused as an exact match." }),
  created_at: z.string(),
  updated_at: z.string(),
  last_used_at: z.string().nullable(),
});

export const TranslationMemoryQuery = Paging.extend({
  source_language: z
    .string()
    .regex(/^[a-z]{2,3}$/)
    .optional()
    .openapi({ param: { name: "source_language", in: "query" } }),
  target_language: z
    .string()
    .regex(/^[a-z]{2,3}$/)
    .optional()
    .openapi({ param: { name: "target_language", in: "query" } }),
});

export const EntryIdParam = z.object({
  entry_id: pathId("entry_id", "tm"),
});
