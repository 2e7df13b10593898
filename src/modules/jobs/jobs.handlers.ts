import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { createBatch } from "./batch.service";
import * as control from "./job-control.service";
import * as routes from "./jobs.routes";
import * as repo from "./jobs.repo";
import * as service from "./jobs.service";

export function registerJobs(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.processFile, async (c) => {
    const form = await c.req.parseBody();
    const job = await service.createJob(c.env, c.get("db"), c.get("auth"), form.file, form.options);
    return c.json(await service.toJobOut(c.get("db"), job), 202);
  });

  app.openapi(routes.uploadBatch, async (c) => {
    const form = await c.req.parseBody({ all: true });
    const job = await createBatch(c.env, c.get("db"), c.get("auth"), form);
    return c.json(await service.toJobOut(c.get("db"), job), 202);
  });

  app.openapi(routes.estimateCost, async (c) => {
    return c.json(await service.estimate(c.get("db"), c.get("auth"), c.req.valid("json"), c.req.valid("query").pages), 200);
  });

  app.openapi(routes.getJob, async (c) => {
    const job = await service.getOwnJob(c.get("db"), c.get("auth"), c.req.valid("param").job_id);
    return c.json(await service.toJobOut(c.get("db"), job), 200);
  });

  app.openapi(routes.listJobs, async (c) => {
    const q = c.req.valid("query");
    const { items, total } = await repo.listJobs(c.get("db"), c.get("auth").userId, {
      status: q.job_status,
      tool: q.job_type,
      parentJobId: q.parent_job_id,
      limit: q.limit,
      offset: q.offset,
    });
    return c.json({ items: await service.toJobOuts(c.get("db"), items), total, limit: q.limit, offset: q.offset }, 200);
  });

  app.openapi(routes.cancelJob, async (c) => {
    const job = await control.cancelJob(c.env, c.get("db"), c.get("auth"), c.req.valid("param").job_id);
    return c.json(await service.toJobOut(c.get("db"), job), 200);
  });

  app.openapi(routes.retryJob, async (c) => {
    const job = await control.retryJob(c.env, c.get("db"), c.get("auth"), c.req.valid("param").job_id);
    return c.json(await service.toJobOut(c.get("db"), job), 200);
  });

  app.openapi(routes.retryFailed, async (c) => {
    const job = await control.retryFailed(c.env, c.get("db"), c.get("auth"), c.req.valid("param").job_id);
    return c.json(await service.toJobOut(c.get("db"), job), 200);
  });

  app.openapi(routes.jobTimeline, async (c) => {
    const job = await service.getOwnJob(c.get("db"), c.get("auth"), c.req.valid("param").job_id);
    return c.json(await service.timelineOf(c.get("db"), job), 200);
  });

  app.openapi(routes.jobEvents, async (c) => {
    const job = await service.getOwnJob(c.get("db"), c.get("auth"), c.req.valid("param").job_id);
    return service.eventStream(c.env, job.id, c.req.raw) as never;
  });
}
