// Benchmark: Apertium translation throughput (segments/s) through the service's translation
// service, in the Workers runtime with a real apertium-apy on loopback.
//
//   node test/bench/translate-throughput.mjs
//
// Runs test/bench/translate-throughput.workers.ts with the project's vitest config (which starts
// Apertium; BENCH=1 selects the benchmark files instead of the tests) and prints its figures.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const r = spawnSync(process.execPath, [vitest, "run", "test/bench/translate-throughput.workers.ts", "--silent=false"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, BENCH: "1" },
});
process.exit(r.status ?? 1);
