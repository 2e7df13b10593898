// Runs the engine Worker for benchmarks under `wrangler dev` (workerd, as in local development),
// beside a small driver Worker (ocr-driver.js) that forwards JSON calls to the engine's RPC methods.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { modelFiles, root } from "../../scripts/models.mjs";
import { localEngineConfigs } from "../../scripts/local-engines.mjs";
import { freePort } from "../../scripts/local-service.mjs";
import { commandName, descendants } from "../../scripts/processes.mjs";
import { TEXTS } from "./ocr-texts.mjs";

const PORT = Number(process.env.OCR_BENCH_PORT ?? 8797);
const wranglerJs = path.join(root, "node_modules/wrangler/bin/wrangler.js");

/**
 * Bundles the engine as `wrangler deploy` would into a private directory and writes a config that
 * serves that bundle unbundled: `wrangler dev` reloads on source changes, which would cut the run.
 */
function frozenEngine(dir, browser) {
  const r = spawnSync(process.execPath, [wranglerJs, "deploy", "--dry-run", "--outdir", dir, "-c", "workers/engine/wrangler.toml"], {
    cwd: root,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`engine build failed:\n${r.stdout}\n${r.stderr}`);
  const config = `name = "lingoscan-engine"
main = "index.js"
compatibility_date = "2026-11-01"
compatibility_flags = ["nodejs_compat"]
no_bundle = true
find_additional_modules = true
rules = [{ type = "CompiledWasm", globs = ["**/*.wasm"] }, { type = "Text", globs = ["**/*.mjs"] }]

${browser ? '[browser]\nbinding = "BROWSER"\n' : ""}
[[r2_buckets]]
binding = "FILES"
bucket_name = "lingoscan-files"

[[r2_buckets]]
binding = "MODELS"
bucket_name = "lingoscan-models"
`;
  writeFileSync(path.join(dir, "wrangler.toml"), config);
  return path.join(dir, "wrangler.toml");
}

/** The workerd processes under a `wrangler dev` process (Linux /proc): the runtime and its proxy. */
function workerdsOf(pid) {
  const found = [pid, ...descendants(pid)].filter((p) => commandName(p) === "workerd");
  if (!found.length) throw new Error(`no workerd process under ${pid}`);
  return found;
}

/** Starts `wrangler dev` with `args`; resolves with the child once it serves. Its output goes to `logFile`. */
async function wranglerDev(args, logFile, env = {}) {
  const child = spawn(process.execPath, [wranglerJs, "dev", ...args, "--ip", "127.0.0.1"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
  });
  const out = createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  let log = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${log}`)), 120_000);
    const onData = (d) => {
      log += d;
      if (/Ready on/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`wrangler dev exited (${code}):\n${log}`)));
  });
  child.on("exit", (code) => {
    if (code !== null && code !== 0) console.error(`wrangler dev exited (${code}); see ${logFile}`);
  });
  return child;
}

/**
 * Starts the engine with MODELS seeded; returns `call(method, input)`, `put`, `get` and `dispose`.
 * `languages`: models seeded beyond those of the test texts. Without `browser`, Browser Rendering is not bound (text-layer PDF pages then get a blank page image).
 * `processes` > 0: the engine runs as under `npm run dev`, in that many processes of its own behind
 * the local engine pool (workers/dev/engine-pool.ts), each call going to the least busy one.
 */
export async function startEngine({ browser = true, languages = [], processes = 0 } = {}) {
  const state = mkdtempSync(path.join(os.tmpdir(), "lingoscan-bench-state-"));
  const logFile = path.join(state, "wrangler.log");
  const children = [];
  const dispose = () => {
    for (const c of children) c.kill("SIGTERM");
  };
  try {
    if (processes > 0) {
      // A private dev registry: the pool and its engine processes find each other, never another run's.
      const env = { WRANGLER_REGISTRY_PATH: path.join(state, "registry") };
      const { pool, engines } = localEngineConfigs(processes);
      const base = ["-c", "test/bench/ocr-driver.wrangler.toml", "-c", pool, "--port", String(PORT), "--persist-to", state];
      children.push(await wranglerDev(base, logFile, env));
      for (const [i, config] of engines.entries()) {
        const args = ["-c", config, "--port", String(await freePort()), "--inspector-port", String(await freePort())];
        children.push(
          await wranglerDev([...args, "--persist-to", path.join(state, `engine-${i}`)], path.join(state, `engine-${i}.log`), env),
        );
      }
    } else {
      const engineConfig = frozenEngine(mkdtempSync(path.join(os.tmpdir(), "lingoscan-bench-engine-")), browser);
      children.push(
        await wranglerDev(
          ["-c", "test/bench/ocr-driver.wrangler.toml", "-c", engineConfig, "--port", String(PORT), "--persist-to", state],
          logFile,
        ),
      );
    }
  } catch (err) {
    dispose();
    throw err;
  }
  const base = `http://127.0.0.1:${PORT}`;
  // wrangler dev closes a kept-alive connection that idled while the script was busy elsewhere (a
  // native tesseract run takes seconds): a request that finds its socket closed (or closing) is sent once more.
  // Every request here is idempotent (puts to a fixed key, engine calls writing fixed keys).
  const fetch = async (url, init) => {
    try {
      return await globalThis.fetch(url, init);
    } catch (err) {
      if (!["UND_ERR_SOCKET", "EPIPE", "ECONNRESET"].includes(err?.cause?.code)) throw err;
      return globalThis.fetch(url, init);
    }
  };
  const put = async (key, bytes, bucket = "FILES") => {
    const res = await fetch(`${base}/put?bucket=${bucket}&key=${encodeURIComponent(key)}`, { method: "POST", body: bytes });
    if (!res.ok) throw new Error(`put ${key}: ${res.status}`);
  };
  const get = async (key) => {
    const res = await fetch(`${base}/get?key=${encodeURIComponent(key)}`);
    if (!res.ok) throw new Error(`get ${key}: ${res.status}`);
    return res;
  };
  for (const { key, file } of modelFiles([...Object.keys(TEXTS), ...languages])) await put(key, readFileSync(file), "MODELS");
  const call = async (method, input) => {
    const res = await fetch(`${base}/call`, { method: "POST", body: JSON.stringify({ method, input }) });
    const body = await res.json();
    if (!body.ok) throw new Error(`${method}: ${body.error} (wrangler log: ${logFile})`);
    return body.result;
  };
  return {
    call,
    files: { put: (k, b) => put(k, b), get },
    /** Process ids of the engine's workerd processes, a list per engine process (the only one without `processes`). */
    enginePids: () => (processes > 0 ? children.slice(1) : children).map((c) => workerdsOf(c.pid)),
    dispose,
  };
}
