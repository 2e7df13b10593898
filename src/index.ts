import { createApp } from "./app";

export { JobHub } from "./pipeline/job-hub.do";
export { PipelineWorkflow } from "./pipeline/pipeline.workflow";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
