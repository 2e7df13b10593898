import { parseEngineError } from "../../../workers/shared/engine-contract";
import { ApiError, isErrorCode } from "../../http/errors";

/** The API error an engine failure (or a workflow step's `[code] message` error) names, if it names a known code. */
function namedFailure(err: unknown): ApiError | null {
  const parsed = parseEngineError(err);
  return parsed && isErrorCode(parsed.code) ? new ApiError(parsed.code, parsed.message) : null;
}

/** Turns an engine failure into the matching API error (unknown failures become `engine_unavailable`). */
export function engineFailure(err: unknown): ApiError {
  return namedFailure(err) ?? new ApiError("engine_unavailable", "The processing engine could not handle the file; try again shortly.");
}

/** What a failed pipeline step records on the job: the code it names, else `internal_error` with its message. */
export function stepFailure(err: unknown): ApiError {
  return namedFailure(err) ?? new ApiError("internal_error", err instanceof Error ? err.message : String(err));
}
