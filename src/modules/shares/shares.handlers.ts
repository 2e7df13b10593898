import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as routes from "./shares.routes";
import * as service from "./shares.service";

export function registerShares(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.createShare, async (c) =>
    c.json(await service.createShare(c.env, c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json")), 201),
  );

  app.openapi(routes.listShares, async (c) =>
    c.json(await service.listShares(c.get("db"), c.get("auth"), c.req.valid("param").project_id), 200),
  );

  app.openapi(routes.revokeShare, async (c) => {
    await service.revokeShare(c.get("db"), c.get("auth"), c.req.valid("param").share_id);
    return c.body(null, 204);
  });

  app.openapi(routes.viewShare, async (c) => {
    const origin = new URL(c.req.url).origin;
    const view = await service.viewShare(c.env, c.get("db"), c.req.valid("param").token, c.req.valid("query").password, origin);
    // The view carries signed links; keep it out of shared caches and referrers.
    c.header("Cache-Control", "private, no-store");
    c.header("Referrer-Policy", "no-referrer");
    return c.json(view, 200);
  });

  app.openapi(routes.downloadShare, async (c) => {
    const origin = new URL(c.req.url).origin;
    c.header("Cache-Control", "private, no-store");
    c.header("Referrer-Policy", "no-referrer");
    return c.json(await service.downloadShare(c.env, c.get("db"), c.req.valid("param").token, c.req.valid("query").password, origin), 200);
  });
}
