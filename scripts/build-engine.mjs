// Bundles the engine Worker (as `wrangler deploy` would) into .build/engine for the test pool,
// which loads it as an auxiliary Worker behind the api Worker's ENGINE service binding.
import { spawnSync } from "node:child_process";
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

if (import.meta.url === `file://${process.argv[1]}`) buildEngine();
