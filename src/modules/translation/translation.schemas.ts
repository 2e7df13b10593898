import { z } from "@hono/zod-openapi";
import { TRANSLATOR_NAMES } from "../../providers/translators";

const Language = z.string().regex(/^[a-z]{2,3}$/, "an ISO 639-1 code such as `en`");

export const RetranslateRequest = z
  .object({
    provider: z.enum(TRANSLATOR_NAMES).optional().openapi({ description: "Use this configured provider instead of the fallback order." }),
    source_language: z
      .union([Language, z.literal("auto")])
      .optional()
      .openapi({ description: "Source language; defaults to the region's, `auto` detects it." }),
    target_language: Language.optional().openapi({ description: "Defaults to the project's target language." }),
    glossary_ids: z
      .array(z.string().min(1).max(64))
      .max(10)
      .optional()
      .openapi({ description: "Glossaries whose terms the translation must use (those of the region's language pair apply)." }),
    context: z.string().max(2000).optional().openapi({ description: "What the document is about, for providers that use context." }),
  })
  .strict()
  .openapi("RetranslateRequest");

export const AlternativesQuery = z.object({
  target_language: Language.optional().openapi({
    param: { name: "target_language", in: "query" },
    description: "Defaults to the project's target language.",
  }),
});

const TermHitOut = z.object({
  glossary_id: z.string(),
  source: z.string(),
  target: z.string(),
  count: z.number().int(),
  enforced: z.boolean(),
});

export const AlternativesOut = z
  .object({
    region_id: z.string(),
    source_language: z.string(),
    target_language: z.string(),
    source_text: z.string(),
    current: z.object({ translation: z.string().nullable(), user_translation: z.string().nullable() }),
    candidates: z.array(
      z.object({
        text: z.string(),
        origin: z.enum(["provider", "translation_memory", "glossary"]),
        provider: z.string().nullable(),
        score: z.number().nullable().openapi({ description: "Similarity of a translation-memory entry's source, 0..1." }),
        entry_id: z.string().optional(),
        source_text: z.string().optional(),
        term_hits: z.array(TermHitOut).optional(),
      }),
    ),
    unavailable: z.array(z.object({ provider: z.string(), code: z.string(), message: z.string() })),
    fuzzy_threshold: z.number(),
  })
  .openapi("AlternativesOut");
