import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";

const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * JSON bodies are UTF-8 (a leading byte-order mark is accepted, as the Fetch standard's UTF-8
 * decoding skips it). A JSON body declaring another charset is refused with 415 rather than read
 * as UTF-8 and misunderstood.
 */
export const utf8JsonOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header("Content-Type");
  if (type && JSON_TYPE.test(type)) {
    const charset = CHARSET.exec(type)?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
      throw new ApiError("unsupported_media_type", `JSON bodies must be UTF-8; this one declares charset=${charset.slice(0, 40)}.`, {
        details: { content_type: type.slice(0, 200), accepted: "application/json; charset=utf-8" },
      });
    }
  }
  await next();
};
