// Runs `npm run dev` (scripts/dev.mjs) in a scratch copy of the repository, on a free port, for the
// benchmarks and the SDK tests: its own local D1/R2/Workflows state and development account, so a
// developer's running service and data are left alone.
import { spawn } from "node:child_process";
import { cpSync, createWriteStream, existsSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { root } from "./models.mjs";

export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Ends a process group this script started (SIGINT, then SIGTERM, then SIGKILL). */
export async function stopGroup(child, exited) {
  for (const [signal, waitMs] of [
    ["SIGINT", 15_000],
    ["SIGTERM", 10_000],
    ["SIGKILL", 5_000],
  ]) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      return;
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, waitMs))]);
  }
}

/** A copy of the repository to run `npm run dev` in: sources and config, node_modules linked, no local state. */
export function scratchCopy(prefix, skipDirs = []) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const skip = new Set(["node_modules", ".wrangler", ".git", ".build", ...skipDirs].map((d) => path.join(root, d)));
  cpSync(root, dir, {
    recursive: true,
    filter: (src) => !skip.has(src) && !src.includes(`${path.sep}.wrangler`) && !src.includes(`${path.sep}.build`),
  });
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/**
 * Starts `npm run dev` in `dir` on a free port and resolves once /health/ready answers and the
 * development key is written: `{ base, key, stop }`. Its output goes to `logFile`.
 */
export async function startService(dir, { logFile, minutes = 5, env = {} }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ["scripts/dev.mjs"], {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PATH: `${path.join(root, "node_modules/.bin")}${path.delimiter}${process.env.PATH}`,
      ...env,
      PORT: String(port),
    },
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const stop = () => stopGroup(child, exited);
  const deadline = Date.now() + minutes * 60_000;
  const keyFile = path.join(dir, ".wrangler/dev-api-key");
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited (${child.exitCode}); see ${path.relative(root, logFile)}`);
    const ready = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
    if (ready?.ok && existsSync(keyFile)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm run dev did not become ready within ${minutes} minutes; see ${path.relative(root, logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { base, key: readFileSync(keyFile, "utf8").trim(), stop };
}
