import { createRoute, type OpenAPIHono, type RouteConfig, type RouteHandler, type RouteHook, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { requireAuth, requireSession } from "./auth";
import { authed, sessionOnly } from "./openapi";

/** A required JSON request body: `request: { params, ...jsonBody(Schema) }`. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { body: { content: { "application/json": { schema } }, required: true } };
}

type Method = RouteConfig["method"];
type Request = NonNullable<RouteConfig["request"]>;
type Responses = RouteConfig["responses"];

/** The route a row declares, as the OpenAPI layer types its handler's input and answers. */
type RowRoute<M extends Method, P extends string, Q extends Request, S extends Responses> = {
  method: M;
  path: P;
  request: Q;
  responses: S;
};

/** What one row of a route table says beyond its method, path and operation id. */
interface Row<M extends Method, P extends string, Q extends Request, S extends Responses> {
  summary: string;
  description?: string;
  /** Replaces the table's middleware (idempotent creation, a rate limit, another kind of session). */
  middleware?: RouteConfig["middleware"];
  request?: Q;
  responses: S;
  handler: RouteHandler<RowRoute<M, P, Q, S>, AppEnv>;
  /** Replaces the app's validation answer for this route. */
  hook?: RouteHook<RowRoute<M, P, Q, S>, AppEnv>;
}

/** A row made into what the app registers: the OpenAPI route and its handler. */
export interface RouteEntry {
  route: RouteConfig;
  handler: unknown;
  hook?: unknown;
}

/**
 * A domain's route table (in the manner of Unkey's createAuthenticatedRoute): the tag, security
 * and auth middleware are declared once for the table; each row gives its method, path, operation
 * id, request schemas, responses and handler. The handler is typed from the row's schemas.
 */
export function routeTable(defaults: Pick<RouteConfig, "tags" | "security" | "middleware">) {
  return <M extends Method, P extends string, Q extends Request = {}, S extends Responses = Responses>(
    method: M,
    path: P,
    operationId: string,
    row: Row<M, P, Q, S>,
  ): RouteEntry => {
    const { handler, hook, ...config } = row;
    return { route: createRoute({ ...defaults, method, path, operationId, ...config }), handler, hook };
  };
}

/** Routes for an API key or the session cookie (the auth middleware resolves either). */
export function authedRoutes(tag: string) {
  return routeTable({ tags: [tag], security: authed, middleware: [requireAuth] });
}

/** Routes that take no credentials (sign-up, sign-in, mailed links, public links): no security requirement. */
export function publicRoutes(tag: string) {
  return routeTable({ tags: [tag], security: [] });
}

/** Credential management: the web session cookie only (a row may name which sessions it takes). */
export function sessionRoutes(tag: string) {
  return routeTable({ tags: [tag], security: sessionOnly, middleware: [requireSession] });
}

/** A handler that does `work` and answers 204 with no body (a delete, a revoke, a sign-out). */
export function noContentAfter<C extends Context<AppEnv, string, object>>(work: (c: C) => Promise<unknown>) {
  return async (c: C) => {
    await work(c);
    return c.body(null, 204);
  };
}

/** A handler that answers 200 with what `work` returns, as JSON (a read, or an action whose answer is the new state). */
export function answerWith<C extends Context<AppEnv, string, object>, T>(work: (c: C) => Promise<T> | T) {
  return async (c: C) => c.json(await work(c), 200);
}

/** Registers route tables in order (the OpenAPI document lists paths in that order). */
export function registerRoutes(app: OpenAPIHono<AppEnv>, ...tables: RouteEntry[][]) {
  // Each row's handler was checked against its own route when the row was built.
  for (const { route, handler, hook } of tables.flat()) app.openapi(route, handler as never, hook as never);
}
