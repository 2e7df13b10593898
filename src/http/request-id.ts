import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { newId } from "../lib/ids";

/** Gives every request a `req_…` id, echoed in `X-Request-Id` and in every error body. */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = newId("req");
  c.set("requestId", id);
  await next();
  c.res.headers.set("X-Request-Id", id);
};
