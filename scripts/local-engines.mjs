// Local development only: the wrangler configs of the engine processes that `npm run dev` starts
// beside the api's. Both are derived from workers/engine/wrangler.toml at start-up and written to
// .wrangler/dev/; the differences from the deployed engine are exactly these:
//   - `lingoscan-engine` in the api's process is workers/dev/engine-pool.ts: it forwards each engine
//     call to one of the engine processes and serves the api's R2 buckets to them (LocalStorage);
//   - each engine process (`lingoscan-engine-<i>`) runs workers/dev/engine-process.ts, the engine
//     with FILES and MODELS reached over that service binding instead of a local R2 store, so only
//     the api's process ever opens the local D1/R2 state.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { experimental_readRawConfig } from "wrangler";
import { root } from "./models.mjs";

const ENGINE = "lingoscan-engine";

/** Engine processes by default: each holds a workerd with the engine's wasm heaps (~0.5 GB when reading). */
const DEFAULT_MAX = 4;

/** ENGINE_PROCESSES (a whole number, 0 = one process for both Workers), else one per core, at most DEFAULT_MAX. */
export function engineProcessCount(setting, cores) {
  if (setting === undefined || setting === "") return Math.max(1, Math.min(cores, DEFAULT_MAX));
  const n = Number(setting);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`ENGINE_PROCESSES must be a whole number (0 runs both Workers in one process), not ${setting}`);
  return n;
}

/** Writes the pool's and the engine processes' configs; returns their paths. */
export function localEngineConfigs(count) {
  const { rawConfig: engine } = experimental_readRawConfig({ config: path.join(root, "workers/engine/wrangler.toml") });
  const { env: _envs, r2_buckets: buckets, name: _name, main: _main, ...shared } = engine;
  const dir = path.join(root, ".wrangler/dev");
  mkdirSync(dir, { recursive: true });
  const write = (file, config) => {
    const p = path.join(dir, file);
    writeFileSync(p, `${JSON.stringify(config, null, 2)}\n`);
    return p;
  };
  const names = Array.from({ length: count }, (_, i) => `${ENGINE}-${i}`);
  const pool = write("engine-pool.json", {
    name: ENGINE,
    main: path.join(root, "workers/dev/engine-pool.ts"),
    compatibility_date: engine.compatibility_date,
    compatibility_flags: engine.compatibility_flags,
    r2_buckets: buckets,
    services: names.map((service, i) => ({ binding: `ENGINE_${i}`, service })),
  });
  const engines = names.map((name) =>
    write(`${name}.json`, {
      ...shared,
      name,
      main: path.join(root, "workers/dev/engine-process.ts"),
      services: [{ binding: "STORAGE", service: ENGINE, entrypoint: "LocalStorage" }],
    }),
  );
  return { pool, engines };
}
