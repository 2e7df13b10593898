import { z } from "@hono/zod-openapi";
import { errors, json, Paging } from "../../http/openapi";
import { answerWith, authedRoutes, jsonBody, noContentAfter } from "../../http/route";
import * as schemas from "./webhooks.schemas";
import * as service from "./webhooks.service";

const webhook = authedRoutes("Webhooks");

export const webhookRoutes = [
  webhook("get", "/api/v1/account/webhooks", "listWebhooks", {
    summary: "List webhook endpoints, newest first",
    responses: { 200: json(z.array(schemas.WebhookOut), "Endpoints"), ...errors(401) },
    handler: answerWith((c) => service.listEndpoints(c.get("db"), c.get("auth"))),
  }),
  webhook("post", "/api/v1/account/webhooks", "createWebhook", {
    summary: "Register an endpoint; the answer carries its signing secret, shown only once",
    request: jsonBody(schemas.WebhookCreateRequest),
    responses: { 201: json(schemas.WebhookCreatedOut, "Endpoint created"), ...errors(400, 401, 409, 422, 503) },
    handler: async (c) => c.json(await service.createEndpoint(c.env, c.get("db"), c.get("auth"), c.req.valid("json")), 201),
  }),
  webhook("get", "/api/v1/account/webhooks/{endpoint_id}", "getWebhook", {
    summary: "Read a webhook endpoint",
    request: { params: schemas.EndpointIdParam },
    responses: { 200: json(schemas.WebhookOut, "Endpoint"), ...errors(401, 404, 422) },
    handler: answerWith((c) => service.getEndpoint(c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id)),
  }),
  webhook("patch", "/api/v1/account/webhooks/{endpoint_id}", "updateWebhook", {
    summary: "Change an endpoint's URL, events, description or enabled flag",
    request: { params: schemas.EndpointIdParam, ...jsonBody(schemas.WebhookUpdateRequest) },
    responses: { 200: json(schemas.WebhookOut, "Endpoint"), ...errors(400, 401, 404, 422, 503) },
    handler: answerWith((c) => {
      const id = c.req.valid("param").endpoint_id;
      return service.updateEndpoint(c.env, c.get("db"), c.get("auth"), id, c.req.valid("json"));
    }),
  }),
  webhook("delete", "/api/v1/account/webhooks/{endpoint_id}", "deleteWebhook", {
    summary: "Delete an endpoint and its delivery log",
    request: { params: schemas.EndpointIdParam },
    responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
    handler: noContentAfter((c) => service.deleteEndpoint(c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id)),
  }),
  webhook("post", "/api/v1/account/webhooks/{endpoint_id}/rotate", "rotateWebhookSecret", {
    summary: "Issue a new signing secret; the previous one keeps signing for 24 hours",
    request: { params: schemas.EndpointIdParam },
    responses: { 200: json(schemas.WebhookRotateOut, "The new secret"), ...errors(401, 404, 422) },
    handler: answerWith((c) => service.rotateSecret(c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id)),
  }),
  webhook("get", "/api/v1/account/webhooks/{endpoint_id}/deliveries", "listWebhookDeliveries", {
    summary: "An endpoint's deliveries, newest first, with attempts, response and next retry",
    request: { params: schemas.EndpointIdParam, query: schemas.DeliveryListQuery.extend(Paging.shape) },
    responses: { 200: json(z.array(schemas.WebhookDeliveryOut), "Deliveries"), ...errors(401, 404, 422) },
    handler: answerWith((c) => service.listDeliveries(c.get("db"), c.get("auth"), c.req.valid("param").endpoint_id, c.req.valid("query"))),
  }),
  webhook("post", "/api/v1/account/webhooks/deliveries/{delivery_id}/replay", "replayWebhookDelivery", {
    summary: "Send a delivery's event again, as a new delivery",
    request: { params: schemas.DeliveryIdParam },
    responses: { 200: json(schemas.WebhookDeliveryOut, "The new delivery"), ...errors(401, 404, 409, 422) },
    handler: answerWith((c) => service.replayDelivery(c.env, c.get("db"), c.get("auth"), c.req.valid("param").delivery_id)),
  }),
];
