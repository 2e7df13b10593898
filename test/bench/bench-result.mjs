// The machine-readable line each benchmark prints last, read by the benchmark suite (scripts/bench.mjs):
//   BENCH_RESULT {"bench":"<name>", …figures}
export const RESULT_PREFIX = "BENCH_RESULT ";

/** Prints one benchmark's figures as a single JSON line. */
export function reportResult(bench, figures) {
  console.log(`${RESULT_PREFIX}${JSON.stringify({ bench, ...figures })}`);
}
