import { NonRetryableError } from "cloudflare:workflows";
import { type ApiError, ERROR_CATALOGUE } from "../../http/errors";
import { engineFailure } from "../../modules/jobs/engine-failure";

/**
 * Runs engine work inside a step: retryable failures are rethrown for the step's retries;
 * others become NonRetryableError carrying the `[code] message` so the page fails at once.
 */
export async function engineCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throwForStep(engineFailure(err));
  }
}

/** `[code] message` for the workflow: retryable failures are retried by the step, others fail the page. */
export function throwForStep(e: ApiError): never {
  const text = `[${e.code}] ${e.message}`;
  if (ERROR_CATALOGUE[e.code].retryable) throw new Error(text);
  throw new NonRetryableError(text);
}
