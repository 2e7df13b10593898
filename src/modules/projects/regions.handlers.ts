import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as routes from "./regions.routes";
import * as service from "./regions.service";

export function registerRegions(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.createRegion, async (c) =>
    c.json(await service.createRegion(c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json")), 201),
  );

  app.openapi(routes.mergeRegions, async (c) =>
    c.json(await service.mergeRegions(c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json")), 200),
  );

  app.openapi(routes.updateRegion, async (c) => {
    const p = c.req.valid("param");
    return c.json(await service.updateRegion(c.get("db"), c.get("auth"), p.project_id, p.region_id, c.req.valid("json")), 200);
  });

  app.openapi(routes.deleteRegion, async (c) => {
    const p = c.req.valid("param");
    await service.deleteRegion(c.get("db"), c.get("auth"), p.project_id, p.region_id);
    return c.body(null, 204);
  });

  app.openapi(routes.splitRegion, async (c) => {
    const p = c.req.valid("param");
    return c.json(await service.splitRegion(c.get("db"), c.get("auth"), p.project_id, p.region_id, c.req.valid("json")), 200);
  });

  app.openapi(routes.reocrRegion, async (c) => {
    const p = c.req.valid("param");
    return c.json(await service.reocrRegion(c.env, c.get("db"), c.get("auth"), p.project_id, p.region_id, c.req.valid("json")), 200);
  });

  app.openapi(routes.updateTableCells, async (c) => {
    const p = c.req.valid("param");
    return c.json(await service.updateCells(c.get("db"), c.get("auth"), p.project_id, p.table_id, c.req.valid("json")), 200);
  });
}
