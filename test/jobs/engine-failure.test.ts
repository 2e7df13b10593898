// Engine failures in the error envelope: a payload Workers RPC refuses for its size (over 32 MiB)
// fails the same way on every attempt, so it is `payload_too_large` (413, not retryable), never a
// retryable `internal_error` or `engine_unavailable`, whether the engine or the api meets it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE } from "../../src/http/errors";
import { engineFailure, stepFailure } from "../../src/modules/jobs/engine-failure";
import { asEngineError } from "../../workers/engine/errors";

/** The runtime's own refusal: an RPC argument over 32 MiB, sent to the storage bridge's Worker (vitest.config.mts). */
async function rpcSizeRefusal(): Promise<unknown> {
  const storage = (env as unknown as { DEV_STORAGE: { head(bucket: string, key: string): Promise<unknown> } }).DEV_STORAGE;
  try {
    await storage.head("FILES", "k".repeat(33 * 1024 * 1024));
  } catch (err) {
    return err;
  }
  throw new Error("an RPC argument over 32 MiB was accepted");
}

describe("engine failures that no retry fixes", () => {
  it("an RPC call refused for its size, met by the api, is payload_too_large and not retryable", async () => {
    const refusal = await rpcSizeRefusal();
    expect(String(refusal)).toMatch(/limited to 32MiB/);
    for (const e of [engineFailure(refusal), stepFailure(refusal)]) {
      expect(e.code, e.message).toBe("payload_too_large");
      expect(e.status).toBe(413);
      expect(ERROR_CATALOGUE[e.code].retryable).toBe(false);
    }
    // Other failures keep their codes: an uncoded engine fault stays retryable.
    const fault = new Error("wasm trap: unreachable");
    expect(engineFailure(fault).code).toBe("engine_unavailable");
    expect(stepFailure(fault).code).toBe("internal_error");
    expect(engineFailure(new Error("[corrupt_file] The PDF file is truncated.")).code).toBe("corrupt_file");
  });

  it("met inside the engine, it crosses as [payload_too_large] with the engine's context", async () => {
    const coded = asEngineError(await rpcSizeRefusal(), "internal_error", "Inspecting the file failed");
    expect(coded.message).toMatch(/^\[payload_too_large\] Inspecting the file failed: Serialized RPC arguments/);
    const e = engineFailure(coded);
    expect(e.code).toBe("payload_too_large");
    expect(e.message).toMatch(/^Inspecting the file failed: /);
    expect(asEngineError(new Error("wasm trap: unreachable"), "internal_error", "Inspecting the file failed").message).toBe(
      "[internal_error] Inspecting the file failed: wasm trap: unreachable",
    );
  });
});
