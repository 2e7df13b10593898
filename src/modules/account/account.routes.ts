import { z } from "@hono/zod-openapi";
import { clearSessionCookie } from "../../http/auth";
import { errors, json } from "../../http/openapi";
import { answerWith, authedRoutes, jsonBody, noContentAfter, sessionRoutes } from "../../http/route";
import { UserOut } from "../auth/auth.schemas";
import { ApiKeyCreatedOut, ApiKeyCreateRequest, ApiKeyOut, KeyIdParam, ProfileUpdate } from "./account.schemas";
import * as account from "./account.service";

const authed = authedRoutes("Account");
const session = sessionRoutes("Account");

export const accountRoutes = [
  authed("patch", "/api/v1/account/profile", "updateProfile", {
    summary: "Update the profile (name, locale)",
    request: jsonBody(ProfileUpdate),
    responses: { 200: json(UserOut, "The user"), ...errors(401, 403, 422) },
    handler: answerWith((c) => account.updateProfile(c.get("db"), c.get("auth").userId, c.req.valid("json"))),
  }),
  authed("get", "/api/v1/account/export-data", "exportAccountData", {
    summary: "Everything the service holds about the account, as JSON",
    responses: { 200: json(z.record(z.string(), z.unknown()), "Account data"), ...errors(401) },
    handler: async (c) => {
      const data = await account.exportData(c.get("db"), c.get("auth").userId);
      return c.json(data, 200, { "Content-Disposition": 'attachment; filename="lingoscan-account.json"' });
    },
  }),
  session("delete", "/api/v1/account", "deleteAccount", {
    summary: "Delete the account: its files, its data, every session and key",
    responses: { 204: { description: "Deleted" }, ...errors(401, 403) },
    handler: async (c) => {
      await account.deleteAccount(c.get("db"), c.env.FILES, c.get("auth").userId);
      clearSessionCookie(c);
      return c.body(null, 204);
    },
  }),
  authed("get", "/api/v1/account/api-keys", "listApiKeys", {
    summary: "API keys (metadata only), newest first",
    responses: { 200: json(z.array(ApiKeyOut), "Keys"), ...errors(401) },
    handler: answerWith((c) => account.listKeys(c.get("db"), c.get("auth").userId)),
  }),
  session("post", "/api/v1/account/api-keys", "createApiKey", {
    summary: "Create an API key; the full key is shown in this answer only",
    request: jsonBody(ApiKeyCreateRequest),
    responses: { 201: json(ApiKeyCreatedOut, "The new key"), ...errors(401, 403, 409, 422) },
    handler: async (c) => c.json(await account.createKey(c.get("db"), c.get("auth").userId, c.req.valid("json")), 201),
  }),
  session("delete", "/api/v1/account/api-keys/{key_id}", "revokeApiKey", {
    summary: "Revoke an API key",
    request: { params: KeyIdParam },
    responses: { 204: { description: "Revoked" }, ...errors(401, 403, 404, 422) },
    handler: noContentAfter((c) => account.revokeKey(c.get("db"), c.get("auth").userId, c.req.valid("param").key_id)),
  }),
];
