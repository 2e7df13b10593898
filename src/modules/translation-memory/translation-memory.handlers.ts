import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as routes from "./translation-memory.routes";
import * as service from "./translation-memory.service";

export function registerTranslationMemory(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listTranslationMemory, async (c) => {
    return c.json(await service.listEntries(c.get("db"), c.get("auth").userId, c.req.valid("query")), 200);
  });

  app.openapi(routes.deleteTranslationMemoryEntry, async (c) => {
    await service.deleteEntry(c.get("db"), c.get("auth").userId, c.req.valid("param").entry_id);
    return c.body(null, 204);
  });
}
