import { ApiError } from "../../http/errors";
import { TERMINAL_JOB_STATUSES, TOOLS, type JobStatus, type Tool } from "./tools";

export function isTerminal(status: JobStatus): boolean {
  return (TERMINAL_JOB_STATUSES as readonly JobStatus[]).includes(status);
}

/**
 * The one owner of allowed job transitions (ARCHITECTURE §2):
 * created → uploading → queued → the tool's stages in order → completed | partially_completed | failed;
 * any non-terminal state → cancelled; failed | cancelled | partially_completed → queued (retry).
 * A stage may also finish the job early (failed, or partially_completed when some pages failed).
 */
export function canTransition(tool: Tool, from: JobStatus, to: JobStatus): boolean {
  if (to === "cancelled") return !isTerminal(from);
  if (to === "queued") return from === "uploading" || from === "failed" || from === "cancelled" || from === "partially_completed";
  if (isTerminal(from)) return false;
  const path: JobStatus[] = ["created", "uploading", "queued", ...TOOLS[tool].stages];
  const i = path.indexOf(from);
  if (i < 0) return false;
  if (to === "failed") return from !== "created";
  if (to === "completed" || to === "partially_completed") return from === path[path.length - 1];
  // Forward to the next state of the path; a stage may be skipped only when it has no work
  // (e.g. recognition for a page whose text layer was read directly), never backwards.
  const j = path.indexOf(to);
  if (i < path.indexOf("queued")) return j === i + 1;
  return j > i;
}

/** Throws `invalid_transition` unless `from → to` is allowed; callers treat that as a bug or a lost race. */
export function assertTransition(tool: Tool, from: JobStatus, to: JobStatus): void {
  if (!canTransition(tool, from, to)) {
    throw new ApiError("invalid_transition", `A ${tool} job cannot go from ${from} to ${to}.`, { details: { from, to } });
  }
}
