// Runs wrangler with the Node that runs this script (Node 22 from node_modules when started by npm).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./models.mjs";

const bin = path.join(root, "node_modules/wrangler/bin/wrangler.js");

/** Runs a wrangler command to completion; throws with its output when it fails. */
export function wrangler(args, opts = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    ...opts,
  });
  if (r.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Starts a long-running wrangler command with inherited output. */
export function wranglerLive(args) {
  return spawn(process.execPath, [bin, ...args], { cwd: root, stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
}
