import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth, requireSession } from "../../http/auth";
import { authed, errors, json } from "../../http/openapi";
import { UserOut } from "../auth/auth.schemas";
import { sessionOnly } from "../auth/auth.routes";
import { ApiKeyCreatedOut, ApiKeyCreateRequest, ApiKeyOut, KeyIdParam, ProfileUpdate } from "./account.schemas";

const tags = ["Account"];

export const updateProfile = createRoute({
  method: "patch",
  path: "/api/v1/account/profile",
  operationId: "updateProfile",
  tags,
  summary: "Update the profile (name, locale)",
  security: authed,
  middleware: [requireAuth] as const,
  request: { body: { content: { "application/json": { schema: ProfileUpdate } }, required: true } },
  responses: { 200: json(UserOut, "The user"), ...errors(401, 403, 422) },
});

export const exportData = createRoute({
  method: "get",
  path: "/api/v1/account/export-data",
  operationId: "exportAccountData",
  tags,
  summary: "Everything the service holds about the account, as JSON",
  security: authed,
  middleware: [requireAuth] as const,
  responses: { 200: json(z.record(z.string(), z.unknown()), "Account data"), ...errors(401) },
});

export const deleteAccount = createRoute({
  method: "delete",
  path: "/api/v1/account",
  operationId: "deleteAccount",
  tags,
  summary: "Delete the account: its files, its data, every session and key",
  security: sessionOnly,
  middleware: [requireSession] as const,
  responses: { 204: { description: "Deleted" }, ...errors(401, 403) },
});

export const listApiKeys = createRoute({
  method: "get",
  path: "/api/v1/account/api-keys",
  operationId: "listApiKeys",
  tags,
  summary: "API keys (metadata only), newest first",
  security: authed,
  middleware: [requireAuth] as const,
  responses: { 200: json(z.array(ApiKeyOut), "Keys"), ...errors(401) },
});

export const createApiKey = createRoute({
  method: "post",
  path: "/api/v1/account/api-keys",
  operationId: "createApiKey",
  tags,
  summary: "Create an API key; the full key is shown in this answer only",
  security: sessionOnly,
  middleware: [requireSession] as const,
  request: { body: { content: { "application/json": { schema: ApiKeyCreateRequest } }, required: true } },
  responses: { 201: json(ApiKeyCreatedOut, "The new key"), ...errors(401, 403, 409, 422) },
});

export const revokeApiKey = createRoute({
  method: "delete",
  path: "/api/v1/account/api-keys/{key_id}",
  operationId: "revokeApiKey",
  tags,
  summary: "Revoke an API key",
  security: sessionOnly,
  middleware: [requireSession] as const,
  request: { params: KeyIdParam },
  responses: { 204: { description: "Revoked" }, ...errors(401, 403, 404, 422) },
});
