import { parseEngineError } from "../../../workers/shared/engine-contract";
import { isRpcSizeLimit } from "../../../workers/shared/rpc-limits";
import { ApiError, isErrorCode } from "../../http/errors";

/**
 * The API error an engine failure (or a workflow step's `[code] message` error) names, if it names
 * a known code; an engine call refused for its payload's size is `payload_too_large` (never retryable).
 */
function namedFailure(err: unknown): ApiError | null {
  const parsed = parseEngineError(err);
  if (parsed && isErrorCode(parsed.code)) return new ApiError(parsed.code, parsed.message);
  if (isRpcSizeLimit(err)) {
    const why = err instanceof Error ? err.message : String(err);
    return new ApiError("payload_too_large", `The data is too large to hand to the processing engine (${why}).`);
  }
  return null;
}

/** Turns an engine failure into the matching API error (unknown failures become `engine_unavailable`). */
export function engineFailure(err: unknown): ApiError {
  return namedFailure(err) ?? new ApiError("engine_unavailable", "The processing engine could not handle the file; try again shortly.");
}

/** What a failed pipeline step records on the job: the code it names, else `internal_error` with its message. */
export function stepFailure(err: unknown): ApiError {
  return namedFailure(err) ?? new ApiError("internal_error", err instanceof Error ? err.message : String(err));
}
