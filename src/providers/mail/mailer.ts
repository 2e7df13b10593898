import { ApiError } from "../../http/errors";
import { HttpApiMailer } from "./http-api";
import type { Mailer } from "./mail-message";
import { OutboxMailer } from "./outbox";

export type { MailMessage, Mailer } from "./mail-message";

/**
 * The mailer chosen by `MAIL_PROVIDER`: `outbox` (development and tests: messages are stored in R2
 * and read through the development outbox endpoint) or `http` (a transactional-mail HTTP API,
 * configured by `MAIL_API_URL`, `MAIL_FROM` and the secret `MAIL_API_KEY`). The outbox is refused
 * outside development so production mail can never vanish into it.
 */
export function mailer(env: Env, fetcher: typeof fetch = fetch): Mailer {
  switch (env.MAIL_PROVIDER) {
    case "outbox":
      if (env.ENVIRONMENT !== "development") {
        throw new ApiError("provider_unavailable", "The mail outbox exists only in development; set MAIL_PROVIDER=http.");
      }
      return new OutboxMailer(env.FILES);
    case "http":
      if (!env.MAIL_API_KEY || !env.MAIL_API_URL || !env.MAIL_FROM) {
        throw new ApiError("provider_unavailable", "Mail is not configured: set MAIL_API_URL, MAIL_FROM and the MAIL_API_KEY secret.");
      }
      return new HttpApiMailer({ url: env.MAIL_API_URL, apiKey: env.MAIL_API_KEY, from: env.MAIL_FROM }, fetcher);
    default:
      throw new ApiError("provider_unavailable", `Unknown MAIL_PROVIDER ${JSON.stringify(env.MAIL_PROVIDER)}.`);
  }
}
