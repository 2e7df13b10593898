import { z } from "@hono/zod-openapi";
import { pathId, resourceOut } from "../../http/openapi";

/** Most terms one glossary holds (every term of a pair is checked against every segment). */
export const MAX_TERMS = 1000;

export const LanguageCode = z.string().regex(/^[a-z]{2,3}$/, "an ISO 639-1 code such as `en`");

export const GlossaryTermIn = z
  .object({
    source: z.string().trim().min(1).max(200).openapi({ example: "dog" }),
    target: z.string().trim().min(1).max(200).openapi({ example: "can" }),
    case_sensitive: z.boolean().optional().openapi({
      description: "Match the source with its exact case; defaults to false (or to the glossary's `case_sensitive` at creation).",
    }),
  })
  .openapi("GlossaryTermIn");

export const GlossaryTermsBody = z
  .array(GlossaryTermIn)
  .max(MAX_TERMS)
  .openapi({ description: `Every term of the glossary (at most ${MAX_TERMS}); replaces the current ones.` });

export const GlossaryCreateRequest = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ example: "Product names" }),
    source_language: LanguageCode.openapi({ example: "en" }),
    target_language: LanguageCode.openapi({ example: "es" }),
    case_sensitive: z.boolean().default(false).openapi({ description: "Default case sensitivity of the terms given here." }),
    terms: GlossaryTermsBody.default([]),
  })
  .refine((g) => g.source_language !== g.target_language, {
    message: "source_language and target_language must differ",
    path: ["target_language"],
  })
  .openapi("GlossaryCreateRequest");

export const GlossaryTermOut = z.object({ source: z.string(), target: z.string(), case_sensitive: z.boolean() }).openapi("GlossaryTermOut");

export const GlossaryOut = resourceOut("GlossaryOut", "gls", {
  name: z.string(),
  source_language: z.string(),
  target_language: z.string(),
  term_count: z.number().int(),
  terms: z.array(GlossaryTermOut).openapi({ description: "In the order they were given." }),
  created_at: z.string(),
  updated_at: z.string(),
});

export const GlossaryIdParam = z.object({
  glossary_id: pathId("glossary_id", "gls"),
});
