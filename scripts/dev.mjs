// Starts the whole service locally (`npm run dev` runs scripts/setup.sh first, which installs or names
// what it needs from Debian): migrations, seeded models, a development account,
// Apertium on loopback (when installed), the api Worker in one `wrangler dev` process and the engine
// Worker in its own processes (one per core), so that reading pages never holds up the api.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import os from "node:os";
import path from "node:path";
import { root } from "./models.mjs";
import { missingModelsNotice, seedModels } from "./seed-models.mjs";
import { wrangler, wranglerLive } from "./wrangler.mjs";
import { DEFAULT_PORT as APERTIUM_PORT, startApertium } from "./apertium.mjs";
import { freePort } from "./local-service.mjs";
import { startOidcProvider } from "../test/helpers/oidc-provider.mjs";
import { engineProcessCount, localEngineConfigs } from "./local-engines.mjs";
import { descendants } from "./processes.mjs";

const PORT = Number(process.env.PORT ?? 8787);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const DEV_USER = "usr_development0000000";
const DEV_CREDITS = 1000;

function sqlString(s) {
  return `'${String(s).replaceAll("'", "''")}'`;
}

/** The development account: a user on the pro plan, a wallet with credits (granted through the ledger) and an API key. */
function seedDevAccount() {
  const keyFile = path.join(root, ".wrangler/dev-api-key");
  let key = existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : "";
  if (!key.startsWith("lik_live_")) {
    key = `lik_live_${randomBytes(32).toString("base64url")}`;
    mkdirSync(path.dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, key, { mode: 0o600 });
  }
  const hash = createHash("sha256").update(key).digest("hex");
  const now = Date.now();
  const sql = [
    `INSERT OR IGNORE INTO users (id, email, name, plan, locale, email_verified_at, created_at, updated_at) VALUES (${sqlString(DEV_USER)}, 'dev@localhost', 'Developer', 'pro', 'en', ${now}, ${now}, ${now});`,
    `INSERT OR IGNORE INTO wallets (user_id, balance, reserved, updated_at) VALUES (${sqlString(DEV_USER)}, 0, 0, ${now});`,
    `UPDATE wallets SET balance = balance + ${DEV_CREDITS}, updated_at = ${now} WHERE user_id = ${sqlString(DEV_USER)} AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE dedupe_key = 'grant:development');`,
    `INSERT INTO ledger_entries (id, user_id, kind, amount, reserved_delta, balance_after, reserved_after, reason, dedupe_key, created_at) SELECT 'led_development000000000', user_id, 'grant', ${DEV_CREDITS}, 0, balance, reserved, 'Development credits', 'grant:development', ${now} FROM wallets WHERE user_id = ${sqlString(DEV_USER)} AND changes() = 1;`,
    `INSERT OR IGNORE INTO api_keys (id, user_id, name, prefix, key_hash, scopes, created_at) VALUES ('key_development0000000', ${sqlString(DEV_USER)}, 'Development key', ${sqlString(key.slice(0, 13))}, ${sqlString(hash)}, '[]', ${now});`,
    `UPDATE api_keys SET key_hash = ${sqlString(hash)}, prefix = ${sqlString(key.slice(0, 13))}, revoked_at = NULL WHERE id = 'key_development0000000';`,
  ].join("\n");
  wrangler(["d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--command", sql]);
  return key;
}

/**
 * Development only: a loopback OpenID Provider (the one the tests use), so "Sign in with Local ID"
 * works out of the box. Whoever arrives signs in as the development user (dev@localhost, verified),
 * with no password. Not started when OAUTH_PROVIDERS is given (the end-to-end run brings its own).
 * Returns wrangler `--var` arguments for the api Worker (its redirect URI is built from
 * PUBLIC_BASE_URL, which dev sets to the port it serves on).
 */
async function startDevIdentityProvider() {
  if (process.env.OAUTH_PROVIDERS) return { vars: [], stop: () => undefined };
  const clientId = "lingoscan-dev";
  const secret = randomBytes(24).toString("base64url");
  const idp = await startOidcProvider({
    clientId,
    secret,
    redirectUri: `${BASE_URL}/api/v1/auth/oauth/devidp/callback`,
    cookieKey: randomBytes(16).toString("hex"),
    accountOf: () => "developer",
    claimsOf: () => ({ email: "dev@localhost", email_verified: true }),
  });
  const providers = { devidp: { issuer: idp.issuer, client_id: clientId, scope: "openid email", name: "Local ID (development only)" } };
  console.log(`dev: identity provider "Local ID (development only)" at ${idp.issuer}`);
  return {
    vars: ["--var", `OAUTH_PROVIDERS:${JSON.stringify(providers)}`, "--var", `OAUTH_CLIENT_SECRET_DEVIDP:${secret}`],
    stop: () => idp.close(),
  };
}

async function main() {
  console.log("dev: applying D1 migrations");
  wrangler(["d1", "migrations", "apply", "DB", "--local", "-c", "wrangler.toml"], { env: { ...process.env, CI: "true" } });
  console.log("dev: seeding models");
  const { missing } = await seedModels();
  const key = seedDevAccount();
  let apertium;
  try {
    apertium = await startTranslation();
    console.log(`dev: Apertium at ${apertium.url}${apertium.reused ? " (already running, reused)" : ""}`);
  } catch (err) {
    console.warn(`dev: translation unavailable: ${err.message}`);
  }
  let idp = { vars: [], stop: () => undefined };
  try {
    idp = await startDevIdentityProvider();
  } catch (err) {
    console.warn(`dev: identity-provider sign-in unavailable: ${err.message}`);
  }
  const processes = await startWorkers([...idp.vars, ...(apertium ? ["--var", `APERTIUM_URL:${apertium.url}`] : [])]);
  console.log(
    `\n  Base URL: ${BASE_URL}\n  API key:  ${key}\n  Try:      curl -H "Authorization: Bearer ${key}" ${BASE_URL}/api/v1/config\n`,
  );
  if (missing.length) console.warn(missingModelsNotice(missing));
  let stopping = false;
  // Browsers the local Browser Rendering launched run in process groups of their own: they are
  // noted before the Workers stop and ended after them, so none is left spinning.
  let below = [];
  const stop = () => {
    if (stopping) return;
    stopping = true;
    below = processes.flatMap((p) => descendants(p.pid));
    for (const p of processes) if (p.exitCode === null) p.kill("SIGINT");
    apertium?.stop();
    idp.stop();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // One process ending ends the service: the others are stopped, and dev exits with its code.
  let exitCode = null;
  for (const p of processes)
    p.on("exit", (code) => {
      exitCode ??= code ?? 0;
      stop();
      if (processes.every((q) => q.exitCode !== null || q.signalCode !== null)) {
        for (const pid of below) killQuietly(pid);
        process.exit(exitCode);
      }
    });
}

function killQuietly(pid) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** True when something accepts connections on 127.0.0.1:port. */
function portTaken(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Apertium on APERTIUM_PORT (default 2737): reused when an Apertium server already answers there
 * (another checkout's `npm run dev`, say); when something else holds the port, a free port instead.
 */
async function startTranslation() {
  const port = Number(process.env.APERTIUM_PORT ?? APERTIUM_PORT);
  try {
    return await startApertium({ port });
  } catch (err) {
    if (!(await portTaken(port))) throw err;
    return startApertium({ port: await freePort() });
  }
}

/**
 * CPU priorities (nice values) under `npm run dev`: the api's processes at API_NICE when permitted,
 * the engine processes ENGINE_BELOW_API below the api's, so the api's requests are never queued
 * behind a page's OCR. With the api raised the engines stay at 0: on a busy machine, lower ones would
 * get only its idle time, which two processes share as one would, and pages would no longer run in parallel.
 */
const API_NICE = -10;
const ENGINE_BELOW_API = 10;

/**
 * Sets a `wrangler dev` process's nice value as soon as it is spawned, before it starts its workerd,
 * which inherits it; returns the value it runs at. A negative value needs root (CAP_SYS_NICE):
 * without it the process keeps the priority it has.
 */
function prioritise(child, nice) {
  try {
    os.setPriority(child.pid, nice);
  } catch {
    console.log(`dev: process ${child.pid} stays at nice ${os.getPriority(child.pid)} (nice ${nice} needs root or CAP_SYS_NICE)`);
  }
  return os.getPriority(child.pid);
}

/**
 * The Workers. With ENGINE_PROCESSES=n (default: one per core, at most 4), the api Worker runs in one
 * `wrangler dev` process and the engine in n more, each with its own workerd (its own thread), so
 * the engine's CPU time never blocks the api, and the pages of a document (PAGE_CONCURRENCY = n)
 * and the bands of one page (PAGE_SPLIT = n, within ENGINE_SLOTS = n) spread over the cores. The engine processes run at a
 * lower CPU priority than the api (see API_NICE), as on Workers, where each engine call has its own
 * isolate and the api never waits for one: a poll, health check or upload is served before any page's OCR.
 * ENGINE_PROCESSES=0 runs both Workers in one process, as `wrangler dev -c … -c …` does.
 */
async function startWorkers(extraVars) {
  // Wrangler's local trace collector writes every invocation's spans and logs to SQLite on the api
  // process's thread (a job's workflow steps, RPC, D1 and R2 calls): the largest share of that
  // thread's sampled time while pages are read. Off unless asked for (X_LOCAL_OBSERVABILITY=true);
  // console output still prints.
  process.env.X_LOCAL_OBSERVABILITY ??= "false";
  const count = engineProcessCount(process.env.ENGINE_PROCESSES, os.availableParallelism());
  const common = ["--ip", "127.0.0.1", "--show-interactive-dev-session=false"];
  const apiArgs = [...common, "--port", String(PORT), "--var", `PUBLIC_BASE_URL:${BASE_URL}`, ...extraVars];
  if (count === 0) {
    return [wranglerLive(["dev", "-c", "wrangler.toml", "-c", "workers/engine/wrangler.toml", ...apiArgs])];
  }
  // Each checkout's processes find each other in its own dev registry, never another checkout's.
  process.env.WRANGLER_REGISTRY_PATH ??= path.join(root, ".wrangler/registry");
  const { pool, engines } = localEngineConfigs(count);
  console.log(`dev: the engine runs in ${count} process${count === 1 ? "" : "es"} beside the api's`);
  const api = wranglerLive([
    "dev",
    "-c",
    "wrangler.toml",
    "-c",
    pool,
    ...apiArgs,
    "--var",
    `PAGE_CONCURRENCY:${count}`,
    "--var",
    `PAGE_SPLIT:${count}`,
    "--var",
    `ENGINE_SLOTS:${count}`,
  ]);
  const engineNice = Math.min(19, prioritise(api, API_NICE) + ENGINE_BELOW_API);
  const children = [api];
  for (const [i, config] of engines.entries()) {
    const engine = wranglerLive([
      "dev",
      "-c",
      config,
      ...common,
      "--port",
      String(await freePort()),
      "--inspector-port",
      String(await freePort()),
      "--persist-to",
      path.join(root, `.wrangler/engine-state/${i}`),
    ]);
    prioritise(engine, engineNice);
    children.push(engine);
  }
  return children;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
