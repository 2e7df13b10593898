// Local development only (started by scripts/dev.mjs): the entry of one engine process. It is the
// engine Worker itself, except that FILES and MODELS are the api process's buckets reached over the
// STORAGE service binding, so this process opens no local R2 store of its own.
import Engine from "../engine/index";
import type { EngineEnv } from "../engine/env";
import { remoteBucket, type StorageCalls } from "./storage-bridge";

interface ProcessEnv extends Omit<EngineEnv, "FILES" | "MODELS"> {
  STORAGE: Service & StorageCalls;
}

export default class LocalEngine extends Engine {
  constructor(ctx: ExecutionContext, env: ProcessEnv) {
    super(ctx, { ...env, FILES: remoteBucket(env.STORAGE, "FILES"), MODELS: remoteBucket(env.STORAGE, "MODELS") });
  }
}
