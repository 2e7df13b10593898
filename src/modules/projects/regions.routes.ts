import { z } from "@hono/zod-openapi";
import { errors, json } from "../../http/openapi";
import { answerWith, authedRoutes, jsonBody } from "../../http/route";
import { ProjectIdParam, RegionIdParam, RegionOut, TableIdParam } from "./projects.schemas";
import * as schemas from "./regions.schemas";
import * as service from "./regions.service";

const region = authedRoutes("Regions");
const table = authedRoutes("Tables");

export const regionRoutes = [
  region("post", "/api/v1/projects/{project_id}/regions", "createRegion", {
    summary: "Add a region (for instance a box the recogniser missed)",
    request: { params: ProjectIdParam, ...jsonBody(schemas.RegionCreate) },
    responses: { 201: json(RegionOut, "The region"), ...errors(401, 404, 409, 422) },
    handler: async (c) =>
      c.json(await service.createRegion(c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json")), 201),
  }),
  region("post", "/api/v1/projects/{project_id}/regions/merge", "mergeRegions", {
    summary: "Merge regions of one page into one: boxes united, texts joined in reading order",
    request: { params: ProjectIdParam, ...jsonBody(schemas.RegionMergeRequest) },
    responses: { 200: json(RegionOut, "The merged region"), ...errors(401, 404, 409, 422) },
    handler: answerWith((c) => service.mergeRegions(c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json"))),
  }),
  region("patch", "/api/v1/projects/{project_id}/regions/{region_id}", "updateRegion", {
    summary: "Edit a region's text, translation, box, style or reading order",
    request: { params: RegionIdParam, ...jsonBody(schemas.RegionUpdate) },
    responses: { 200: json(RegionOut, "The region"), ...errors(401, 404, 409, 422) },
    handler: answerWith((c) => {
      const p = c.req.valid("param");
      return service.updateRegion(c.get("db"), c.get("auth"), p.project_id, p.region_id, c.req.valid("json"));
    }),
  }),
  region("delete", "/api/v1/projects/{project_id}/regions/{region_id}", "deleteRegion", {
    summary: "Delete a region",
    request: { params: RegionIdParam },
    responses: { 204: { description: "Deleted" }, ...errors(401, 404, 409, 422) },
    handler: async (c) => {
      const p = c.req.valid("param");
      await service.deleteRegion(c.get("db"), c.get("auth"), p.project_id, p.region_id);
      return c.body(null, 204);
    },
  }),
  region("post", "/api/v1/projects/{project_id}/regions/{region_id}/split", "splitRegion", {
    summary: "Split a region by line, at a character offset or at a point; the box is divided accordingly",
    request: { params: RegionIdParam, ...jsonBody(schemas.RegionSplitRequest) },
    responses: { 200: json(z.array(RegionOut), "The pieces, in reading order (the first keeps the id)"), ...errors(401, 404, 409, 422) },
    handler: answerWith((c) => {
      const p = c.req.valid("param");
      return service.splitRegion(c.get("db"), c.get("auth"), p.project_id, p.region_id, c.req.valid("json"));
    }),
  }),
  region("post", "/api/v1/projects/{project_id}/regions/{region_id}/reocr", "reocrRegion", {
    summary: "Recognise the region's rectangle again, at full resolution from the original (free)",
    request: { params: RegionIdParam, ...jsonBody(schemas.ReocrRequest) },
    responses: { 200: json(RegionOut, "The region with its new recognised text"), ...errors(401, 404, 409, 422, 500, 503) },
    handler: answerWith((c) => {
      const p = c.req.valid("param");
      return service.reocrRegion(c.env, c.get("db"), c.get("auth"), p.project_id, p.region_id, c.req.valid("json"));
    }),
  }),
  table("patch", "/api/v1/projects/{project_id}/tables/{table_id}/cells", "updateTableCells", {
    summary: "Write cell texts; all or nothing (invalid coordinates are listed in a 422)",
    request: { params: TableIdParam, ...jsonBody(schemas.TableCellUpdates) },
    responses: { 200: json(schemas.TableCellsResult, "Counts"), ...errors(401, 404, 409, 422) },
    handler: answerWith((c) => {
      const p = c.req.valid("param");
      return service.updateCells(c.get("db"), c.get("auth"), p.project_id, p.table_id, c.req.valid("json"));
    }),
  }),
];
