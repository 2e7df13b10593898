// Local development only (started by scripts/dev.mjs): the entry of one engine process. It is the
// engine Worker itself, except that FILES and MODELS are the api process's buckets reached over the
// STORAGE service binding, so this process opens no local R2 store of its own.
import Engine from "../engine/index";
import type { EngineEnv } from "../engine/env";
import type { EngineHealth } from "../shared/engine-contract";
import { getEngine } from "../engine/ocr/tesseract";
import { warmRasterizer } from "../engine/pdf/rasterize";
import { remoteBucket, type StorageCalls } from "./storage-bridge";

interface ProcessEnv extends Omit<EngineEnv, "FILES" | "MODELS"> {
  STORAGE: Service & StorageCalls;
}

/**
 * What the process's first pages would otherwise wait for: the browser with pdf.js loaded and the
 * default OCR model. Started by the first health check (the service's readiness check reaches
 * every engine process), once per process; a failure is left for the page that meets it to report.
 */
let warming: Promise<void> | undefined;
const DEFAULT_LANGUAGE = "eng";

export default class LocalEngine extends Engine {
  constructor(ctx: ExecutionContext, env: ProcessEnv) {
    super(ctx, { ...env, FILES: remoteBucket(env.STORAGE, "FILES"), MODELS: remoteBucket(env.STORAGE, "MODELS") });
  }

  override async health(): Promise<EngineHealth> {
    const health = await super.health();
    if (health.ok && !warming) {
      warming = Promise.all([warmRasterizer(this.env.BROWSER), getEngine(this.env.MODELS, DEFAULT_LANGUAGE)]).then(
        () => undefined,
        () => undefined,
      );
      this.ctx.waitUntil(warming);
    }
    return health;
  }
}
