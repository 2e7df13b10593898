import { JOB_STATUSES, TERMINAL_JOB_STATUSES, TOOLS, type JobKind, type JobStage, type JobStatus, type Tool } from "./tools";

/** What decides a job's path: its tool's stages, or the batch parent's single `exporting` stage. */
export interface JobShape {
  tool: Tool;
  kind: JobKind;
}

export const RETRYABLE_FROM = ["failed", "cancelled", "partially_completed"] as const satisfies readonly JobStatus[];

export function isTerminal(status: JobStatus): boolean {
  return (TERMINAL_JOB_STATUSES as readonly JobStatus[]).includes(status);
}

/** What a re-render redraws: text removal, typesetting and exports; recognition and translation never run again. */
const RERENDER_STAGES: readonly JobStage[] = ["inpainting", "rendering", "exporting"];

/**
 * The stages a job passes after `queued`. A batch parent waits for its children, then builds its
 * ZIP and report; a re-render runs the tool's drawing stages only (just `exporting` for ocr/tables).
 */
export function stagesOf(job: JobShape): JobStage[] {
  if (job.kind === "batch") return ["exporting"];
  if (job.kind === "rerender") return TOOLS[job.tool].stages.filter((s) => RERENDER_STAGES.includes(s));
  return TOOLS[job.tool].stages;
}

/** States in which a job holds a concurrency slot of its plan (batch parents only wait, so they hold none). */
export function runningStatuses(): JobStage[] {
  return [...new Set(Object.values(TOOLS).flatMap((t) => t.stages))];
}

/**
 * The one owner of allowed job transitions (ARCHITECTURE §2):
 * created → uploading → queued → the job's stages in order → completed | partially_completed | failed;
 * any non-terminal state → cancelled; failed | cancelled | partially_completed → queued (retry).
 * A job can fail from any state after `created` (an upload the engine refuses fails at `uploading`);
 * it ends completed or partially_completed only from its last stage.
 */
export function canTransition(job: JobShape, from: JobStatus, to: JobStatus): boolean {
  if (from === to) return false;
  if (to === "cancelled") return !isTerminal(from);
  if (to === "queued") return from === "uploading" || (RETRYABLE_FROM as readonly JobStatus[]).includes(from);
  if (isTerminal(from)) return false;
  const path: JobStatus[] = ["created", "uploading", "queued", ...stagesOf(job)];
  const i = path.indexOf(from);
  if (i < 0) return false;
  if (to === "failed") return from !== "created";
  if (to === "completed" || to === "partially_completed") return from === path[path.length - 1];
  // Forward along the path; after `queued` a stage may be skipped when it has no work
  // (e.g. recognition of a page whose text layer was read directly), never backwards.
  const j = path.indexOf(to);
  if (j < 0) return false;
  if (i < path.indexOf("queued")) return j === i + 1;
  return j > i;
}

/** Every state from which `to` may be entered: the `WHERE status IN (…)` guard of a transition. */
export function allowedFrom(job: JobShape, to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((s) => canTransition(job, s, to));
}
