import { createRoute, type RouteConfig, type z } from "@hono/zod-openapi";
import { requireAuth, requireSession } from "./auth";
import { authed, sessionOnly } from "./openapi";

/** A required JSON request body: `request: { params, ...jsonBody(Schema) }`. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { body: { content: { "application/json": { schema } }, required: true } };
}

/** A route's method, path and operation id, on one line: `createRoute({ ...operation("get", "/api/v1/x", "getX"), … })`. */
export function operation<M extends RouteConfig["method"], P extends string>(method: M, path: P, operationId: string) {
  return { method, path, operationId };
}

type RouteInput = Omit<RouteConfig, "tags" | "security">;

/** Route config with `defaults` beneath it: what the route names itself wins (its own middleware, say). */
function withDefaults<D extends object>(defaults: D) {
  return <R extends RouteInput>(config: R) => createRoute({ ...defaults, ...config } as Omit<D, keyof R> & R);
}

/**
 * The route factory for authenticated routes (in the manner of Unkey's createAuthenticatedRoute):
 * a tag's routes declare their tag, security (an API key or the session cookie) and the auth
 * middleware once. A route may name other middleware (idempotent creation, say).
 */
export function authedRoutes(tag: string) {
  return withDefaults({ tags: [tag], security: authed, middleware: [requireAuth] as [typeof requireAuth] });
}

/** The same for routes that take no credentials (sign-up, sign-in, mailed links): no security requirement. */
export function publicRoutes(tag: string) {
  return withDefaults({ tags: [tag], security: [] as Record<string, string[]>[] });
}

/** The same for credential management: the web session cookie only (a route may name which sessions it takes). */
export function sessionRoutes(tag: string) {
  return withDefaults({ tags: [tag], security: sessionOnly, middleware: [requireSession] as [typeof requireSession] });
}
