import { z } from "@hono/zod-openapi";
import { pathId, resourceOut } from "../../http/openapi";
import { AUTH_METHODS } from "../../db/schema/enums";
import { PASSWORD_MAX_LENGTH } from "./password";

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: "Enter a valid email address." }))
  .openapi({ example: "ada@example.com" });

/** Length and content are checked by the password policy, which gives the precise reason. */
const Password = z
  .string()
  .min(1, { message: "Password is required." })
  .max(PASSWORD_MAX_LENGTH * 4)
  .openapi({ example: "correct horse battery staple" });

export const RegisterRequest = z
  .object({ email: Email, password: Password, name: z.string().trim().min(1).max(100).optional() })
  .strict()
  .openapi("RegisterRequest");

export const LoginRequest = z.object({ email: Email, password: Password }).strict().openapi("LoginRequest");

export const TwoFactorRequest = z
  .object({
    code: z.string().trim().min(6).max(32).openapi({
      description: "A 6-digit code from the authenticator app, or (verify and disable only) a recovery code.",
      example: "123456",
    }),
  })
  .strict()
  .openapi("TwoFactorRequest");

export const TokenRequest = z
  .object({ token: z.string().min(16).max(200) })
  .strict()
  .openapi("TokenRequest");

export const MagicLinkRequest = z.object({ email: Email }).strict().openapi("MagicLinkRequest");

export const PasswordResetRequest = z
  .object({ token: z.string().min(16).max(200), password: Password })
  .strict()
  .openapi("PasswordResetRequest");

export const ChangePasswordRequest = z
  .object({
    current_password: z
      .string()
      .max(PASSWORD_MAX_LENGTH * 4)
      .optional(),
    new_password: Password,
  })
  .strict()
  .openapi("ChangePasswordRequest");

export const UserOut = resourceOut("UserOut", "usr", {
  email: z.string(),
  name: z.string().nullable(),
  email_verified: z.boolean(),
  two_factor_enabled: z.boolean(),
  has_password: z.boolean(),
  plan: z.string(),
  locale: z.string(),
  created_at: z.string(),
});

export const AuthResponse = z
  .object({
    status: z.enum(["authenticated", "two_factor_required"]).openapi({
      description: "`two_factor_required`: the session cookie is pending and grants nothing until POST /auth/2fa/verify.",
    }),
    user: UserOut.nullable().openapi({ description: "Null while the two-factor step is pending." }),
    session_id: z.string(),
    expires_at: z.string(),
    csrf_token: z.string().openapi({ description: "Send as X-CSRF-Token on unsafe cookie-authenticated requests." }),
  })
  .openapi("AuthResponse");

export const SessionOut = resourceOut("SessionOut", "ses", {
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  method: z.enum(AUTH_METHODS).nullable().openapi({
    description:
      "How the session was opened: `register`, `password`, `magic_link` or `oauth` (an identity provider); a two-factor step keeps the first factor's method.",
  }),
  created_at: z.string(),
  last_seen_at: z.string().nullable(),
  expires_at: z.string(),
  current: z.boolean(),
});

export const SessionIdParam = z.object({
  session_id: pathId("session_id"),
});
/** An identity provider id: the path segment of the OAuth routes and a key of OAUTH_PROVIDERS. */
export const IDP_PATTERN = /^[a-z0-9_-]{1,32}$/;
export const IdpParam = z.object({
  idp: z
    .string()
    .regex(IDP_PATTERN)
    .openapi({ param: { name: "idp", in: "path" }, example: "google" }),
});
export const OAuthCallbackQuery = z.object({ code: z.string().min(1).max(2048), state: z.string().min(1).max(512) });

export const Accepted = z.record(z.string(), z.boolean()).openapi({ example: { accepted: true } });
export const StringMap = z.record(z.string(), z.string());
