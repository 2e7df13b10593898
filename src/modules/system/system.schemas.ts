import { z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../jobs/tools";
import { PlanOut } from "../billing/billing.schemas";

export const CheckOut = z.object({
  status: z.enum(["ok", "fail", "degraded"]),
  latency_ms: z.number().int(),
  detail: z.string().optional(),
});

export const HealthOut = z
  .object({
    status: z.enum(["ok", "fail"]),
    version: z.string(),
    time: z.string().openapi({ example: "2026-11-21T12:00:00.000Z" }),
    checks: z.record(z.string(), CheckOut).optional(),
  })
  .openapi("HealthOut");

export const ComponentStatus = z.enum(["operational", "degraded", "partial_outage", "major_outage", "maintenance"]);

export const StatusOut = z
  .object({
    status: ComponentStatus,
    components: z.array(
      z.object({
        name: z.string(),
        status: ComponentStatus,
        message: z.string().nullable(),
        source: z.enum(["health_check", "override"]),
      }),
    ),
    updated_at: z.string(),
  })
  .openapi("StatusOut");

export const StatusOverrideIn = z
  .object({
    component: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9_]+$/),
    status: ComponentStatus,
    message: z.string().max(500).optional(),
    expires_in_minutes: z
      .number()
      .int()
      .min(1)
      .max(60 * 24 * 30)
      .optional(),
  })
  .openapi("StatusOverrideIn");

export const StatusOverrideOut = z
  .object({
    id: z.string(),
    component: z.string(),
    status: ComponentStatus,
    message: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
  })
  .openapi("StatusOverrideOut");

const ToolOut = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  stages: z.array(z.string()),
  inputs: z.array(z.string()),
  export_formats: z.array(z.string()),
  default_exports: z.array(z.string()),
  credits_per_page: z.number().int(),
  needs_target_language: z.boolean(),
});

export const LanguageOut = z
  .object({
    code: z.string().openapi({
      description: "What `source_language` takes to select this model: ISO 639-1 for a language's main model, else the tesseract code.",
      example: "ar",
    }),
    name: z.string().openapi({ example: "Arabic" }),
    ocr_code: z.string().openapi({ description: "tesseract model name.", example: "ara" }),
    script: z.string().openapi({ description: "Unicode script the model reads (`Japanese`: Han with kana).", example: "Arabic" }),
    direction: z.enum(["ltr", "rtl"]).openapi({ description: "Direction the script is written in." }),
    vertical: z.boolean().openapi({ description: "Model for text in top-to-bottom columns (read right to left)." }),
  })
  .openapi("LanguageOut");

const OAuthProviderOut = z.object({
  id: z.string().openapi({ example: "google", description: "The idp of /auth/oauth/{idp}/start and /callback." }),
  name: z.string().openapi({ example: "Google", description: "Label for the sign-in button." }),
  start_url: z.string().openapi({
    example: "/api/v1/auth/oauth/google/start",
    description: "GET it (with cookies) for the authorization URL, then send the browser there.",
  }),
});

export const AppConfigOut = z
  .object({
    version: z.string(),
    environment: z.string(),
    job_states: z.array(z.enum(JOB_STATUSES)),
    tools: z.array(ToolOut),
    languages: z.object({
      ocr: z.array(LanguageOut),
      translation_pairs: z.array(z.object({ source: z.string(), target: z.string(), providers: z.array(z.string()) })),
    }),
    plans: z.array(PlanOut),
    limits: z.record(z.string(), z.number().int()),
    webhook_events: z
      .array(z.string())
      .openapi({ description: "Event kinds a webhook endpoint can subscribe to (`*` subscribes to all)." }),
    oauth_providers: z.array(OAuthProviderOut).openapi({
      description: "Identity providers this deployment can sign in with (configured with their client secret); empty when none.",
    }),
  })
  .openapi("AppConfigOut");
