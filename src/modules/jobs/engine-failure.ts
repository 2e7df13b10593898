import { parseEngineError } from "../../../workers/engine/contract";
import { ApiError, isErrorCode } from "../../http/errors";

/** Turns an engine failure into the matching API error (unknown failures become `engine_unavailable`). */
export function engineFailure(err: unknown): ApiError {
  const parsed = parseEngineError(err);
  if (parsed && isErrorCode(parsed.code)) return new ApiError(parsed.code, parsed.message);
  return new ApiError("engine_unavailable", "The processing engine could not handle the file; try again shortly.");
}
