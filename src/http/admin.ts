import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";
import { timingSafeEqualStr } from "../lib/crypto";

/** Admin routes take `Authorization: Bearer <ADMIN_TOKEN>`; without a configured token they are closed. */
export function requireAdmin(c: Context<AppEnv>): void {
  const token = c.env.ADMIN_TOKEN;
  const sent = /^Bearer (.+)$/.exec(c.req.header("Authorization") ?? "")?.[1];
  if (!sent) throw new ApiError("unauthorized", "Send the administrator token as a Bearer token.");
  if (!token || !timingSafeEqualStr(sent, token)) throw new ApiError("forbidden", "The administrator token is not valid.");
}
