/**
 * Workers RPC refuses to serialise arguments or results over 32 MiB. Such a failure comes back
 * the same on every attempt with the same input: it is no transient fault to retry.
 */
const RPC_SIZE_LIMIT = /Serialized RPC arguments or return values are limited to/;

/** Whether `err` is the runtime refusing an RPC payload for its size. */
export function isRpcSizeLimit(err: unknown): boolean {
  return RPC_SIZE_LIMIT.test(err instanceof Error ? err.message : String(err));
}
