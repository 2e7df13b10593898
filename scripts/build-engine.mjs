// Bundles the engine Worker (as `wrangler deploy` would) into .build/engine for the test pool,
// which loads it as an auxiliary Worker behind the api Worker's ENGINE service binding.
import { spawnSync } from "node:child_process";
import { buildSync } from "esbuild";
import path from "node:path";
import { root } from "./models.mjs";

export const ENGINE_OUT = path.join(root, ".build/engine");

export function buildEngine() {
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/wrangler/bin/wrangler.js"),
      "deploy",
      "--dry-run",
      "--outdir",
      ENGINE_OUT,
      "-c",
      "workers/engine/wrangler.toml",
    ],
    { cwd: root, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`engine build failed:\n${r.stdout}\n${r.stderr}`);
}

export const DEV_STORAGE_OUT = path.join(root, ".build/dev-storage");

/**
 * Bundles workers/dev/engine-pool.ts (the api process's side of `npm run dev`'s storage bridge) for
 * the test pool, which serves its `LocalStorage` entrypoint from a Worker of its own so that the
 * bridge's calls cross a real RPC boundary, as between `npm run dev`'s processes. esbuild is the
 * bundler wrangler itself runs. Bundled once a process: the pool resolves its options for every test file.
 */
let devStorageBuilt = false;
export function buildDevStorage() {
  if (devStorageBuilt) return;
  devStorageBuilt = true;
  buildSync({
    entryPoints: [path.join(root, "workers/dev/engine-pool.ts")],
    outfile: path.join(DEV_STORAGE_OUT, "index.js"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    external: ["cloudflare:*"],
    logLevel: "error",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) buildEngine();
