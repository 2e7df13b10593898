import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as routes from "./regions-translation.routes";
import * as service from "./regions-translation.service";

export function registerRegionTranslation(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.retranslateRegion, async (c) => {
    const p = c.req.valid("param");
    return c.json(
      await service.retranslateRegion(c.env, c.get("db"), c.get("auth"), p.project_id, p.region_id, c.req.valid("json") ?? {}),
      200,
    );
  });

  app.openapi(routes.regionAlternatives, async (c) => {
    const p = c.req.valid("param");
    return c.json(
      await service.regionAlternatives(c.env, c.get("db"), c.get("auth"), p.project_id, p.region_id, c.req.valid("query")),
      200,
    );
  });
}
