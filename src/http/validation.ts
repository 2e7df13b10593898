import type { Hook } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";

/** Every zod validation failure becomes a 422 `validation_error` listing the failing fields. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success) return;
  const fields = result.error.issues.map((i) => ({
    location: result.target,
    field: i.path.map(String).join(".") || "(root)",
    message: i.message,
    code: i.code,
  }));
  throw new ApiError("validation_error", `Invalid request: ${fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`, {
    details: { fields },
  });
};
