// Benchmark: Apertium translation throughput (segments/s) through the service's translation
// service, in the Workers runtime with a real apertium-apy on loopback.
//
//   node test/bench/translate-throughput.mjs
//
// Runs test/bench/translate-throughput.workers.ts with the project's vitest config (which starts
// Apertium; BENCH=1 selects the benchmark files instead of the tests), prints its output and
// reports the figures it measured (the Workers runtime cannot write the results file itself).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reportResult, RESULT_PREFIX } from "./bench-result.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const r = spawnSync(process.execPath, [vitest, "run", "test/bench/translate-throughput.workers.ts", "--silent=false"], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  encoding: "utf8",
  env: { ...process.env, BENCH: "1" },
  maxBuffer: 64 * 2 ** 20,
});
let result;
for (const line of r.stdout.split("\n")) {
  const at = line.indexOf(RESULT_PREFIX);
  if (at >= 0) result = JSON.parse(line.slice(at + RESULT_PREFIX.length));
  else console.log(line);
}
if (r.status !== 0 || !result) process.exit(r.status || 1);
const { bench, ...figures } = result;
reportResult(bench, figures);
