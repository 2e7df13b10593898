import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/errors";
import { requireAdmin } from "../../http/admin";
import * as routes from "./system.routes";
import * as service from "./system.service";
import { clearOverride, insertOverride } from "./system.repo";

export function registerSystem(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.live, (c) => c.json({ status: "ok" as const, version: service.VERSION, time: new Date().toISOString() }, 200));

  app.openapi(routes.ready, async (c) => {
    const { ok, checks } = await service.readiness(c.env);
    if (ok) return c.json({ status: "ok" as const, version: service.VERSION, time: new Date().toISOString(), checks }, 200);
    const failing = Object.entries(checks)
      .filter(([, v]) => v.status !== "ok")
      .map(([k]) => k);
    throw new ApiError("service_unavailable", `Not ready: ${failing.join(", ")} failing.`, { details: { checks } });
  });

  app.openapi(routes.providers, async (c) => c.json(await service.providers(c.env), 200));
  app.openapi(routes.config, async (c) => c.json(await service.appConfig(c.env), 200));
  app.openapi(routes.languages, async (c) => c.json(await service.languages(c.env), 200));
  app.openapi(routes.status, async (c) => c.json(await service.status(c.env, c.get("db")), 200));

  app.openapi(routes.setOverride, async (c) => {
    requireAdmin(c);
    return c.json(await insertOverride(c.get("db"), c.req.valid("json")), 201);
  });

  app.openapi(routes.clearOverride, async (c) => {
    requireAdmin(c);
    const cleared = await clearOverride(c.get("db"), c.req.valid("param").component, Date.now());
    if (!cleared) throw new ApiError("not_found", "No active override for that component.");
    return c.body(null, 204);
  });
}
