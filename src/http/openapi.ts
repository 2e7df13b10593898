import { z } from "@hono/zod-openapi";
import { ERROR_CATALOGUE } from "./errors";

export const ErrorOut = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_CATALOGUE) as [keyof typeof ERROR_CATALOGUE]).openapi({ example: "validation_error" }),
      message: z.string(),
      retryable: z.boolean(),
      details: z.record(z.string(), z.unknown()),
      request_id: z.string().openapi({ example: "req_0a1b2c3d4e5f6g7h8i9j" }),
    }),
  })
  .openapi("ErrorOut");

export function json<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

const STATUS_TEXT: Record<number, string> = {
  400: "Malformed request",
  401: "Not authenticated",
  402: "Not enough credits or plan limit",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  410: "Gone",
  413: "Too large",
  415: "Unsupported media type",
  422: "Validation error",
  429: "Rate limited",
  503: "Unavailable",
};

/** Error responses for a route, all in the envelope. */
export function errors(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, json(ErrorOut, STATUS_TEXT[s] ?? "Error")]));
}

/** An id the service issues, with an example of its type prefix (`prj` → `prj_0a1b2c3d4e5f6g7h8i9j`). */
const exampleId = (prefix: string) => `${prefix}_0a1b2c3d4e5f6g7h8i9j`;

export const resourceId = (prefix: string) => z.string().openapi({ example: exampleId(prefix) });

/** A resource as the API answers it, named as in the spec, its id first: `resourceOut("ProjectOut", "prj", { name: … })`. */
export function resourceOut<T extends z.ZodRawShape>(name: string, idPrefix: string, fields: T) {
  return z.object({ id: resourceId(idPrefix), ...fields }).openapi(name);
}

/** An id in the path (1 to 64 characters): `z.object({ job_id: pathId("job_id", "job") })`, the example of its type prefix. */
export function pathId(name: string, idPrefix?: string) {
  const schema = z.string().min(1).max(64);
  const param = { param: { name, in: "path" as const } };
  return schema.openapi(idPrefix === undefined ? param : { ...param, example: exampleId(idPrefix) });
}

/** An optional query filter that takes one of `values`. */
export function queryEnum<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z
    .enum(values)
    .optional()
    .openapi({ param: { name, in: "query" } });
}

/** Security requirement for routes that accept an API key or a session cookie. */
export const authed: Record<string, string[]>[] = [{ bearerAuth: [] }, { cookieAuth: [] }];

/** Security of routes that take the web session cookie only (credential management). */
export const sessionOnly: Record<string, string[]>[] = [{ cookieAuth: [] }];

/** Standard paging query: limit (1..100, default 20) and offset (default 0). */
export const Paging = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .openapi({ param: { name: "limit", in: "query" }, example: 20 }),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(0)
    .openapi({ param: { name: "offset", in: "query" }, example: 0 }),
});
