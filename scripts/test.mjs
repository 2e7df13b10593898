// The test command (`npm test`): static checks, then the whole suite in the Workers runtime.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./models.mjs";

function run(label, cmd, args) {
  console.log(`\n== ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
  if (r.status !== 0) {
    console.error(`\n${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

/**
 * `run`, with the command's output passed through and watched: a line matching `forbidden` fails
 * the step even when the command exits 0.
 */
async function runWatched(label, cmd, args, forbidden, why) {
  console.log(`\n== ${label}`);
  const child = spawn(cmd, args, {
    cwd: root,
    stdio: ["inherit", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  let seen = null;
  const watch = (out) => {
    let tail = "";
    return (chunk) => {
      out.write(chunk);
      // A line may arrive in two chunks: the end of the last one is read with the next.
      const text = tail + chunk.toString();
      seen ??= forbidden.exec(text)?.[0] ?? null;
      tail = text.slice(-200);
    };
  };
  child.stdout.on("data", watch(process.stdout));
  child.stderr.on("data", watch(process.stderr));
  const status = await new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? signal)));
  if (status !== 0 || seen) {
    console.error(`\n${label} failed (${status !== 0 ? `exit ${status}` : `"${seen}": ${why}`})`);
    process.exit(typeof status === "number" && status !== 0 ? status : 1);
  }
}

const bin = (name) => path.join(root, "node_modules/.bin", name);
/** What vitest prints when something the tests opened outlives them. */
const LEFT_OPEN = /something prevents (?:the main process|(?:\d+ )?Vite servers?) from exiting/;
const LEFT_OPEN_WHY = "something the tests opened (a server, a socket, a child process) outlived them; close it in the test that opens it";
// What the tests need from Debian: installed when run as root, otherwise a stop naming the command.
run("Debian packages (scripts/setup.sh)", "bash", ["scripts/setup.sh"]);
run("set-up script and the CI command", process.execPath, ["--test", "test/setup/setup-script.test.mjs"]);
run("migrations match the schema", process.execPath, ["scripts/check-migrations.mjs"]);
run("generated binding types are current", bin("wrangler"), [
  "types",
  "-c",
  "wrangler.toml",
  "-c",
  "workers/engine/wrangler.toml",
  "--include-runtime=false",
  "--strict-vars=false",
  "--check",
  "worker-configuration.d.ts",
]);
run("typecheck", bin("tsc"), ["--noEmit", "-p", "."]);
run("formatting (Prettier; `npm run format` fixes it)", bin("prettier"), ["--check", "--log-level", "warn", "**/*.{ts,mts,js,mjs}"]);
run("imports run downward, and neither Worker imports the other's tree", process.execPath, ["scripts/check-imports.mjs"]);
run("links in README.md and docs/ resolve (files and #anchors)", process.execPath, ["scripts/check-links.mjs"]);
run("the link check and the benchmarks' results files", process.execPath, ["--test", "test/docs/docs-tooling.test.mjs"]);
run("docs/benchmarks.md and the README's figures match the benchmarks' results", process.execPath, ["scripts/bench-report.mjs", "--check"]);
// The engine's tesseract modules: their int8 kernels and text against native tesseract's.
run("tesseract WebAssembly build against native tesseract", process.execPath, [
  "--import",
  "tsx",
  "--test",
  "test/engine/tesseract-build.node-test.mjs",
]);
run("OpenAPI document and SDK types are current", process.execPath, ["scripts/openapi.mjs", "--check"]);
run("OpenAPI document passes Spectral (spectral:oas)", bin("spectral"), [
  "lint",
  "--ruleset",
  ".spectral.yaml",
  "--fail-severity",
  "warn",
  "sdk/openapi.json",
]);
run("SDK and CLI build", "npm", ["run", "--silent", "sdk:build"]);
run("SDK tests typecheck", bin("tsc"), ["-p", "sdk/test"]);
run("deployable bundles (wrangler deploy --dry-run, production and staging)", "npm", ["run", "--silent", "build"]);
// The committed tesseract modules are what scripts/build-tesseract.mjs builds from the pinned
// sources (a full rebuild, ~10 min on 2 cores: whole runs only).
if (process.argv.length <= 2)
  run("tesseract modules rebuilt from pinned sources (npm run check:tesseract)", process.execPath, [
    "scripts/build-tesseract.mjs",
    "--check",
  ]);
await runWatched("tests", bin("vitest"), ["run", ...process.argv.slice(2)], LEFT_OPEN, LEFT_OPEN_WHY);
// The SDK and the CLI against the real service (`npm run dev` in a scratch copy, on a free port).
if (process.argv.length <= 2) {
  await runWatched(
    "SDK and CLI against the local service",
    bin("vitest"),
    ["run", "--config", "sdk/vitest.config.mts"],
    LEFT_OPEN,
    LEFT_OPEN_WHY,
  );
  // The web app in Chromium against `npm run dev`, every page checked with axe-core.
  run("the web app end to end (npm run test:e2e)", process.execPath, ["test/e2e/web-app.e2e.mjs"]);
}
