import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as routes from "./webhooks.routes";
import * as service from "./webhooks.service";

export function registerWebhooks(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listWebhooks, async (c) => c.json(await service.listEndpoints(c.get("db"), c.get("auth")), 200));

  app.openapi(routes.createWebhook, async (c) =>
    c.json(await service.createEndpoint(c.env, c.get("db"), c.get("auth"), c.req.valid("json")), 201),
  );

  app.openapi(routes.getWebhook, async (c) =>
    c.json(await service.getEndpoint(c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id), 200),
  );

  app.openapi(routes.updateWebhook, async (c) =>
    c.json(await service.updateEndpoint(c.env, c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id, c.req.valid("json")), 200),
  );

  app.openapi(routes.deleteWebhook, async (c) => {
    await service.deleteEndpoint(c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id);
    return c.body(null, 204);
  });

  app.openapi(routes.rotateWebhookSecret, async (c) =>
    c.json(await service.rotateSecret(c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id), 200),
  );

  app.openapi(routes.listWebhookDeliveries, async (c) =>
    c.json(await service.listDeliveries(c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id, c.req.valid("query")), 200),
  );

  app.openapi(routes.replayWebhookDelivery, async (c) =>
    c.json(await service.replayDelivery(c.env, c.get("db"), c.get("auth"), c.req.valid("param").delivery_id), 200),
  );
}
