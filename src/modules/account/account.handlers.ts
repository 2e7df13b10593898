import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { clearSessionCookie } from "../../http/auth";
import * as r from "./account.routes";
import * as account from "./account.service";

export function registerAccount(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.updateProfile, async (c) =>
    c.json(await account.updateProfile(c.get("db"), c.get("auth").userId, c.req.valid("json")), 200),
  );

  app.openapi(r.exportData, async (c) => {
    const data = await account.exportData(c.get("db"), c.get("auth").userId);
    return c.json(data, 200, { "Content-Disposition": 'attachment; filename="lingoscan-account.json"' });
  });

  app.openapi(r.deleteAccount, async (c) => {
    await account.deleteAccount(c.get("db"), c.env.FILES, c.get("auth").userId);
    clearSessionCookie(c);
    return c.body(null, 204);
  });

  app.openapi(r.listApiKeys, async (c) => c.json(await account.listKeys(c.get("db"), c.get("auth").userId), 200));

  app.openapi(r.createApiKey, async (c) => c.json(await account.createKey(c.get("db"), c.get("auth").userId, c.req.valid("json")), 201));

  app.openapi(r.revokeApiKey, async (c) => {
    await account.revokeKey(c.get("db"), c.get("auth").userId, c.req.valid("param").key_id);
    return c.body(null, 204);
  });
}
