// Local development only (started by scripts/dev.mjs, never deployed): the Worker named
// `lingoscan-engine` inside the api's `wrangler dev` process. The api's ENGINE binding reaches it
// unchanged; it hands each call to one of the engine processes (`ENGINE_0` … `ENGINE_<n-1>`, each
// its own `wrangler dev` and so its own workerd thread and core), the one with the fewest calls in
// flight. Its `LocalStorage` entrypoint serves the api process's R2 buckets to those processes.
import { WorkerEntrypoint } from "cloudflare:workers";
import type Engine from "../engine/index";
import { type BucketName, type PutOptions, type StorageCalls, storageCalls } from "./storage-bridge";

type EngineMethod = Exclude<keyof Engine, keyof WorkerEntrypoint>;

/** Every RPC method of the engine; the type check fails when one is added there and not here. */
const METHODS = [
  "health",
  "inspect",
  "preprocess",
  "drawPage",
  "detect",
  "recognize",
  "extractTables",
  "reocr",
  "buildExports",
  "inpaint",
  "typeset",
] as const satisfies readonly EngineMethod[];
type Listed = (typeof METHODS)[number];
const everyMethodListed: Exclude<EngineMethod, Listed> extends never ? true : never = true;
void everyMethodListed;

/** FILES and MODELS (the api's buckets), and one service binding per engine process: ENGINE_0, ENGINE_1, … */
interface PoolEnv {
  FILES: R2Bucket;
  MODELS: R2Bucket;
}

/** Calls in flight per engine process, in this (single) pool isolate. */
const inFlight = new Map<string, number>();
let turn = 0;

/** The engine process with the fewest calls in flight; ties go round-robin, so idle processes share the work. */
export function pickEngine(names: readonly string[], busy: ReadonlyMap<string, number>, start: number): string {
  let best = names[start % names.length]!;
  for (let i = 1; i < names.length; i++) {
    const name = names[(start + i) % names.length]!;
    if ((busy.get(name) ?? 0) < (busy.get(best) ?? 0)) best = name;
  }
  return best;
}

function engineOf(env: PoolEnv, name: string): Service<Engine> {
  return (env as unknown as Record<string, Service<Engine>>)[name]!;
}

function engineNames(env: PoolEnv): string[] {
  const names = Object.keys(env)
    .filter((k) => /^ENGINE_\d+$/.test(k))
    .sort();
  if (names.length === 0) throw new Error("[internal_error] No engine process is configured for the local engine pool.");
  return names;
}

async function forward(env: PoolEnv, method: Listed, args: unknown[]): Promise<unknown> {
  const name = pickEngine(engineNames(env), inFlight, turn++);
  inFlight.set(name, (inFlight.get(name) ?? 0) + 1);
  try {
    const target = engineOf(env, name) as unknown as Record<Listed, (...a: unknown[]) => Promise<unknown>>;
    return await target[method](...args);
  } finally {
    inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
  }
}

/** The engine's RPC surface, each call forwarded to one engine process. */
class EnginePool extends WorkerEntrypoint<PoolEnv> {
  override async fetch(request: Request): Promise<Response> {
    return engineOf(this.env, engineNames(this.env)[0]!).fetch(request);
  }

  /** Healthy only when every engine process answers: readiness then covers all of them. */
  async health(): Promise<unknown> {
    const all = await Promise.all(engineNames(this.env).map((n) => engineOf(this.env, n).health()));
    return all[0];
  }
}
for (const method of METHODS) {
  if (method === "health") continue;
  Object.defineProperty(EnginePool.prototype, method, {
    value: function (this: { env: PoolEnv }, ...args: unknown[]) {
      return forward(this.env, method, args);
    },
  });
}
export default EnginePool;

/** The api process's FILES and MODELS buckets, for the engine processes (see storage-bridge.ts). */
export class LocalStorage extends WorkerEntrypoint<PoolEnv> implements StorageCalls {
  private get calls(): StorageCalls {
    return storageCalls({ FILES: this.env.FILES, MODELS: this.env.MODELS });
  }
  get(bucket: BucketName, key: string) {
    return this.calls.get(bucket, key);
  }
  head(bucket: BucketName, key: string) {
    return this.calls.head(bucket, key);
  }
  put(bucket: BucketName, key: string, body: ReadableStream<Uint8Array>, size: number, options?: PutOptions) {
    return this.calls.put(bucket, key, body, size, options);
  }
  list(bucket: BucketName, options?: R2ListOptions) {
    return this.calls.list(bucket, options);
  }
  delete(bucket: BucketName, keys: string | string[]) {
    return this.calls.delete(bucket, keys);
  }
}
