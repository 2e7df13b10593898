import { OpenAPIHono } from "@hono/zod-openapi";
import { swaggerUI } from "@hono/swagger-ui";
import { bodyLimit } from "hono/body-limit";
import { db } from "./db/client";
import type { AppEnv } from "./env";
import { ApiError } from "./http/errors";
import { utf8JsonOnly } from "./http/json-charset";
import { notFound, onError } from "./http/on-error";
import { completeDocument, OPENAPI_INFO } from "./http/openapi-document";
import { apiRateLimit } from "./http/rate-limit";
import { requestId } from "./http/request-id";
import { registerRoutes } from "./http/route";
import { validationHook } from "./http/validation";
import { LIMITS } from "./lib/limits";
import { accountRoutes } from "./modules/account/account.routes";
import { authRoutes, registerMailOutbox } from "./modules/auth/auth.routes";
import { credentialStore } from "./modules/auth/credentials";
import { billingRoutes, registerSandboxCheckout } from "./modules/billing/billing.routes";
import { exportRoutes, registerSignedFiles } from "./modules/exports/exports.routes";
import { glossaryRoutes } from "./modules/glossaries/glossaries.routes";
import { jobRoutes } from "./modules/jobs/jobs.routes";
import { projectRoutes } from "./modules/projects/projects.routes";
import { regionTranslationRoutes } from "./modules/projects/regions-translation.routes";
import { regionRoutes } from "./modules/projects/regions.routes";
import { shareRoutes } from "./modules/shares/shares.routes";
import { systemRoutes } from "./modules/system/system.routes";
import { translationMemoryRoutes } from "./modules/translation-memory/translation-memory.routes";
import { webhookRoutes } from "./modules/webhooks/webhooks.routes";
import { VERSION } from "./modules/system/system.service";

export const OPENAPI_PATH = "/api/v1/openapi.json";

/** Builds the api Worker's Hono app: middleware, every module's routes, the envelope and the OpenAPI document. */
export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use("*", requestId);
  app.use("*", async (c, next) => {
    c.set("db", db(c.env.DB));
    c.set("credentials", credentialStore);
    await next();
  });
  // Multipart uploads may reach the upload limit plus form overhead; every other body is small.
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: LIMITS.max_upload_bytes + 1024 * 1024,
      onError: () => {
        throw new ApiError("payload_too_large", `The request body exceeds ${LIMITS.max_upload_bytes} bytes.`, {
          details: { limit: LIMITS.max_upload_bytes },
        });
      },
    }),
  );

  app.use("/api/*", utf8JsonOnly);
  app.use("/api/v1/*", apiRateLimit);
  // Every domain's route table, in the order the OpenAPI document lists them.
  registerRoutes(
    app,
    systemRoutes,
    authRoutes,
    accountRoutes,
    billingRoutes,
    webhookRoutes,
    jobRoutes,
    exportRoutes,
    glossaryRoutes,
    translationMemoryRoutes,
    regionTranslationRoutes,
    projectRoutes,
    regionRoutes,
    shareRoutes,
  );
  // Outside the OpenAPI document: signed file downloads and the development-only mail outbox and sandbox checkout.
  registerSignedFiles(app);
  registerMailOutbox(app);
  registerSandboxCheckout(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "API key: `Authorization: Bearer lik_live_…`",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "cookieAuth", {
    type: "apiKey",
    in: "cookie",
    name: "__Host-session",
    description: "Web app session cookie; unsafe requests also send the CSRF value from GET /api/v1/auth/csrf.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "Administrator token",
  });
  // Built once per isolate: the routes do not change while it runs.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get(OPENAPI_PATH, (c) => {
    document ??= completeDocument(
      app.getOpenAPI31Document({ openapi: "3.1.0", info: { ...OPENAPI_INFO, version: VERSION }, servers: [{ url: "/" }] }),
    );
    return c.json(document);
  });
  app.get("/docs", swaggerUI({ url: OPENAPI_PATH, title: "Lingoscan API reference" }));

  app.notFound(notFound(() => app.routes));
  app.onError(onError);
  return app;
}
