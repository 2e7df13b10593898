import { createApp } from "./app";
import { db } from "./db/client";
import { userEmail } from "./modules/auth/auth.repo";
import { renewDueSandboxSubscriptions } from "./modules/billing/subscriptions.service";
import { supplyProjectPort } from "./modules/jobs/project-port";
import { projectPort } from "./modules/projects/project-port";
import { purgeTrash } from "./modules/projects/projects.service";
import { consumeDeadLetters, consumeDeliveries, requeueStalledDeliveries } from "./modules/webhooks/webhook-delivery.service";
import { log } from "./lib/log";

export { JobHub } from "./modules/jobs/job-hub.do";
export { PipelineWorkflow } from "./pipeline/pipeline.workflow";

// Jobs rank below projects: their lifecycle reaches the project it works on through this port.
supplyProjectPort(projectPort);
const app = createApp();

export default {
  fetch: app.fetch,

  /** Webhook deliveries (`lingoscan-webhooks`) and those whose retries ran out (`…-dlq`). */
  async queue(batch, env) {
    if (batch.queue.endsWith("-dlq")) await consumeDeadLetters(env, db(env.DB), batch, userEmail);
    else await consumeDeliveries(env, db(env.DB), batch);
  },

  /** The cron trigger: periodic upkeep; one task failing does not stop the others. */
  async scheduled(controller, env) {
    const database = db(env.DB);
    const now = controller.scheduledTime;
    const tasks = {
      subscriptions: renewDueSandboxSubscriptions(database, now),
      webhooks: requeueStalledDeliveries(env, database, now),
      trash: purgeTrash(env, database, now),
    };
    const results = await Promise.allSettled(Object.values(tasks));
    Object.keys(tasks).forEach((task, i) => {
      const r = results[i]!;
      if (r.status === "rejected") log.error("scheduled task failed", { task, error: r.reason });
    });
  },
} satisfies ExportedHandler<Env>;
