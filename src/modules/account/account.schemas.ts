import { z } from "@hono/zod-openapi";
import { pathId, resourceOut } from "../../http/openapi";

export const ProfileUpdate = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullable()
      .optional()
      .openapi({ description: "Display name; null clears it.", example: "Ada Lovelace" }),
    locale: z
      .string()
      .regex(/^[a-z]{2}(-[A-Z]{2})?$/, { message: "Use a language tag like `en` or `pt-BR`." })
      .optional()
      .openapi({ description: "Language of the web app and of mails.", example: "en" }),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "Send at least one of: name, locale." })
  .openapi("ProfileUpdate");

export const ApiKeyCreateRequest = z
  .object({
    name: z.string().trim().min(1).max(100).default("API key").openapi({ example: "CI uploads" }),
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .optional()
      .openapi({ description: "Days until the key stops working; never when omitted.", example: 90 }),
  })
  .strict()
  .openapi("ApiKeyCreateRequest");

export const ApiKeyOut = resourceOut("ApiKeyOut", "key", {
  name: z.string(),
  prefix: z.string().openapi({ description: "First characters of the key, to recognise it.", example: "lik_live_Ab3x" }),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});

export const ApiKeyCreatedOut = ApiKeyOut.extend({
  key: z.string().openapi({ description: "The full key. Shown only in this answer; only its hash is stored.", example: "lik_live_…" }),
}).openapi("ApiKeyCreatedOut");

export const KeyIdParam = z.object({
  key_id: pathId("key_id"),
});
