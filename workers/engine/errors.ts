import { engineErrorMessage } from "../shared/engine-contract";
import { isRpcSizeLimit } from "../shared/rpc-limits";

/** Codes the engine raises; a subset of the api's error catalogue (src/http/errors.ts). */
export type EngineErrorCode =
  | "not_found"
  | "validation_error"
  | "unsupported_media_type"
  | "corrupt_file"
  | "encrypted_document"
  | "empty_page_image"
  | "no_text_found"
  | "image_too_large"
  | "payload_too_large"
  | "unsupported_language"
  | "ocr_failed"
  | "rasterizer_unavailable"
  | "internal_error";

const CODED = /^\[[a-z_]+\] /;

/** An `Error` whose message carries `[code]`, so the code survives the RPC boundary. */
export function engineError(code: EngineErrorCode, message: string): Error {
  return new Error(engineErrorMessage(code, message));
}

export function isEngineError(err: unknown): err is Error {
  return err instanceof Error && CODED.test(err.message);
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === "number") return `wasm exception ${err}`;
  return String(err);
}

/**
 * Passes coded errors through and wraps anything else (wasm traps, decoder panics) under `code`;
 * data too large for an RPC call is `payload_too_large`, which no retry fixes.
 */
export function asEngineError(err: unknown, code: EngineErrorCode, context: string): Error {
  if (isEngineError(err)) return err;
  return engineError(isRpcSizeLimit(err) ? "payload_too_large" : code, `${context}: ${describe(err)}`);
}

/** Runs `fn`, turning any uncoded failure into `code`. */
export async function guarded<T>(code: EngineErrorCode, context: string, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asEngineError(err, code, context);
  }
}
