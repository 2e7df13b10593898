import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import path from "node:path";
import { readdirSync } from "node:fs";
import { buildEngine, ENGINE_OUT } from "./scripts/build-engine.mjs";

/** The bundled engine Worker as Miniflare modules: its entry first, then its wasm and chunks. */
function engineModules() {
  buildEngine();
  const files = readdirSync(ENGINE_OUT).filter((f) => f.endsWith(".js") || f.endsWith(".wasm"));
  files.sort((a, b) => Number(b === "index.js") - Number(a === "index.js"));
  return files.map((f) => ({ type: f.endsWith(".wasm") ? "CompiledWasm" : "ESModule", path: path.join(ENGINE_OUT, f) }) as const);
}

export default defineConfig({
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: "./wrangler.toml" },
      remoteBindings: false,
      miniflare: {
        // Tests translate for real through Apertium on loopback, started by the global setup.
        bindings: { TEST_MIGRATIONS: await readD1Migrations("./migrations"), APERTIUM_URL: inject("apertiumUrl") },
        // The engine Worker, bundled as `wrangler deploy` would, behind the real ENGINE service binding.
        workers: [
          {
            name: "lingoscan-engine",
            modules: engineModules(),
            modulesRoot: ENGINE_OUT,
            compatibilityDate: "2026-11-01",
            compatibilityFlags: ["nodejs_compat"],
            r2Buckets: { FILES: "lingoscan-files", MODELS: "lingoscan-models" },
          },
        ],
      },
    })),
  ],
  test: {
    globalSetup: ["./test/global-setup.ts", "./test/providers/apertium-global-setup.ts"],
    setupFiles: ["./test/setup.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
