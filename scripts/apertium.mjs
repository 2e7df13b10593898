// Starts the local machine-translation server (Debian's apertium-apy) on loopback.
//
//   import { startApertium } from "./apertium.mjs";   const { url, stop } = await startApertium({ port: 2737 });
//   node scripts/apertium.mjs start [port]             (foreground, for the dev command; default 2737)
//
// apertium-apy has no option to choose the listening address and binds every interface; it is
// started through a small Python shim that makes its tornado server bind 127.0.0.1 only.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_PORT = 2737;
const MODES_DIR = process.env.APERTIUM_MODES ?? "/usr/share/apertium/modes";
const INSTALL_HINT = "run `sudo bash scripts/install-apertium.sh` (Debian/Ubuntu) to install apertium-apy and the language pairs";
const START_TIMEOUT_MS = 30_000;

// Runs apertium-apy's main() with TCPServer.bind forced to 127.0.0.1 (tornado's bind(port, address, …)).
const LOOPBACK_SHIM = `
import sys
import tornado.tcpserver as t
_bind = t.TCPServer.bind
def bind(self, port, address=None, *args, **kwargs):
    return _bind(self, port, "127.0.0.1", *args, **kwargs)
t.TCPServer.bind = bind
from apertium_apy.apy import main
sys.argv[0] = "apertium-apy"
sys.exit(main())
`;

/** True when an Apertium server answers /listPairs at url. */
export async function apertiumAnswers(url, timeoutMs = 1000) {
  try {
    const res = await fetch(`${url}/listPairs`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return false;
    const json = await res.json();
    return Array.isArray(json?.responseData);
  } catch {
    return false;
  }
}

/** The apertium-apy launcher on PATH, or undefined. */
function findApy() {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).concat(["/usr/bin", "/usr/local/bin"])) {
    const candidate = path.join(dir || ".", "apertium-apy");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The Python interpreter apertium-apy was installed for (its launcher's shebang). */
function pythonFor(launcher) {
  const first = readFileSync(launcher, "utf8").split("\n", 1)[0] ?? "";
  const m = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(first);
  if (!m) return "/usr/bin/python3";
  // "#!/usr/bin/env python3" → python3 from PATH; "#!/usr/bin/python3" → that file.
  return path.basename(m[1]) === "env" && m[2] ? m[2] : m[1];
}

/**
 * Reuses the Apertium server answering on 127.0.0.1:port, or starts apertium-apy there and waits
 * until /listPairs answers. stop() ends the server this call started (no-op when reused).
 *
 * @param {{ port?: number, stdio?: "inherit" | "pipe", timeoutMs?: number }} [options]
 * `exited` settles when the started server ends (never for a reused one).
 *
 * @returns {Promise<{ url: string, reused: boolean, stop: () => Promise<void>, exited: Promise<{ code: number | null, signal: string | null }> }>}
 */
export async function startApertium({ port = DEFAULT_PORT, stdio = "pipe", timeoutMs = START_TIMEOUT_MS } = {}) {
  const url = `http://127.0.0.1:${port}`;
  if (await apertiumAnswers(url)) return { url, reused: true, stop: async () => {}, exited: new Promise(() => {}) };

  const launcher = findApy();
  if (!launcher) throw new Error(`apertium-apy is not installed: ${INSTALL_HINT}`);
  if (!existsSync(MODES_DIR)) throw new Error(`no Apertium language pair is installed (${MODES_DIR} is missing): ${INSTALL_HINT}`);

  const child = spawn(pythonFor(launcher), ["-c", LOOPBACK_SHIM, "-p", String(port), MODES_DIR], {
    cwd: tmpdir(),
    // Own process group: stop() ends apertium-apy together with the translation pipelines it forks.
    detached: true,
    stdio: ["ignore", stdio, stdio],
  });
  const log = [];
  if (stdio === "pipe") {
    const keep = (chunk) => {
      log.push(...String(chunk).split("\n").filter(Boolean));
      log.splice(0, Math.max(0, log.length - 30));
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
  }
  let exited = null;
  const exit = new Promise((resolve) => child.once("exit", (code, signal) => resolve((exited = { code, signal }))));
  child.once("error", (err) => log.push(String(err)));

  const stop = async () => {
    if (exited) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, 5000);
    await exit;
    clearTimeout(killer);
  };

  const deadline = Date.now() + timeoutMs;
  while (!(await apertiumAnswers(url, 500))) {
    if (exited) {
      throw new Error(
        `apertium-apy exited (${exited.code ?? exited.signal}) before answering on ${url}:\n${log.join("\n")}\nIf it is missing pieces, ${INSTALL_HINT}`,
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`apertium-apy did not answer ${url}/listPairs within ${timeoutMs} ms:\n${log.join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.unref();
  for (const s of [child.stdout, child.stderr]) s?.unref?.();
  return { url, reused: false, stop, exited: exit };
}

// CLI: node scripts/apertium.mjs start [port]
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, portArg] = process.argv.slice(2);
  const port = portArg ? Number(portArg) : DEFAULT_PORT;
  if (command !== "start" || !Number.isInteger(port) || port <= 0 || port > 65535) {
    console.error("usage: node scripts/apertium.mjs start [port]   (default port 2737)");
    process.exit(2);
  }
  let server;
  try {
    server = await startApertium({ port, stdio: "inherit" });
  } catch (err) {
    console.error(`apertium: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  console.log(server.reused ? `apertium: already answering on ${server.url} (reused)` : `apertium: listening on ${server.url}`);
  // Stay in the foreground until interrupted, so that the dev command can supervise this process.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const shutdown = async () => {
    clearInterval(keepAlive);
    await server.stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  process.on("SIGHUP", shutdown);
  const ended = await server.exited;
  if (ended) {
    console.error(`apertium: apertium-apy exited (${ended.code ?? ended.signal})`);
    process.exit(1);
  }
}
