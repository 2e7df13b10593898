import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth, requireSession } from "../../http/auth";
import { authed, errors, json } from "../../http/openapi";
import { UserOut } from "../auth/auth.schemas";
import { sessionOnly } from "../../http/openapi";
import { ApiKeyCreatedOut, ApiKeyCreateRequest, ApiKeyOut, KeyIdParam, ProfileUpdate } from "./account.schemas";
import { authedRoutes, sessionRoutes, jsonBody, operation } from "../../http/route";

const tags = ["Account"];
const authedRoute = authedRoutes("Account");
const sessionRoute = sessionRoutes("Account");

export const updateProfile = authedRoute({
  ...operation("patch", "/api/v1/account/profile", "updateProfile"),
  summary: "Update the profile (name, locale)",
  request: { ...jsonBody(ProfileUpdate) },
  responses: { 200: json(UserOut, "The user"), ...errors(401, 403, 422) },
});

export const exportData = authedRoute({
  ...operation("get", "/api/v1/account/export-data", "exportAccountData"),
  summary: "Everything the service holds about the account, as JSON",
  responses: { 200: json(z.record(z.string(), z.unknown()), "Account data"), ...errors(401) },
});

export const deleteAccount = sessionRoute({
  ...operation("delete", "/api/v1/account", "deleteAccount"),
  summary: "Delete the account: its files, its data, every session and key",
  responses: { 204: { description: "Deleted" }, ...errors(401, 403) },
});

export const listApiKeys = authedRoute({
  ...operation("get", "/api/v1/account/api-keys", "listApiKeys"),
  summary: "API keys (metadata only), newest first",
  responses: { 200: json(z.array(ApiKeyOut), "Keys"), ...errors(401) },
});

export const createApiKey = sessionRoute({
  ...operation("post", "/api/v1/account/api-keys", "createApiKey"),
  summary: "Create an API key; the full key is shown in this answer only",
  request: { ...jsonBody(ApiKeyCreateRequest) },
  responses: { 201: json(ApiKeyCreatedOut, "The new key"), ...errors(401, 403, 409, 422) },
});

export const revokeApiKey = sessionRoute({
  ...operation("delete", "/api/v1/account/api-keys/{key_id}", "revokeApiKey"),
  summary: "Revoke an API key",
  request: { params: KeyIdParam },
  responses: { 204: { description: "Revoked" }, ...errors(401, 403, 404, 422) },
});
