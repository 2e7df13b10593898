import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as routes from "./glossaries.routes";
import * as service from "./glossaries.service";

export function registerGlossaries(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listGlossaries, async (c) => {
    return c.json(await service.listGlossaries(c.get("db"), c.get("auth").userId, c.req.valid("query")), 200);
  });

  app.openapi(routes.createGlossary, async (c) => {
    return c.json(await service.createGlossary(c.get("db"), c.get("auth").userId, c.req.valid("json")), 201);
  });

  app.openapi(routes.replaceGlossaryTerms, async (c) => {
    return c.json(
      await service.replaceTerms(c.get("db"), c.get("auth").userId, c.req.valid("param").glossary_id, c.req.valid("json")),
      200,
    );
  });

  app.openapi(routes.deleteGlossary, async (c) => {
    await service.deleteGlossary(c.get("db"), c.get("auth").userId, c.req.valid("param").glossary_id);
    return c.body(null, 204);
  });
}
