import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import path from "node:path";
import { readdirSync } from "node:fs";
import { buildDevStorage, buildEngine, DEV_STORAGE_OUT, ENGINE_OUT } from "./scripts/build-engine.mjs";

/** `fn`'s result, computed on the first call only. */
function once<T>(fn: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: fn() }).v;
}

/**
 * The bundled engine Worker as Miniflare modules: its entry first, then its wasm and chunks. Built
 * once a run: the pool resolves its options again at the start of every test file.
 */
const engineModules = once(() => {
  buildEngine();
  const files = readdirSync(ENGINE_OUT).filter((f) => f.endsWith(".js") || f.endsWith(".wasm") || f.endsWith(".mjs"));
  files.sort((a, b) => Number(b === "index.js") - Number(a === "index.js"));
  // .mjs: text modules (wrangler's Text rule: pdf.js source for the rasteriser's browser page).
  const type = (f: string) => (f.endsWith(".wasm") ? "CompiledWasm" : f.endsWith(".mjs") ? "Text" : "ESModule");
  return files.map((f) => ({ type: type(f), path: path.join(ENGINE_OUT, f) }) as const);
});

/** workers/dev/engine-pool.ts bundled: the api process's side of the local storage bridge. */
function devStorageModules() {
  buildDevStorage();
  return [{ type: "ESModule", path: path.join(DEV_STORAGE_OUT, "index.js") }] as const;
}

export default defineConfig({
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: "./wrangler.toml" },
      remoteBindings: false,
      miniflare: {
        // Tests translate for real through Apertium on loopback, started by the global setup; every
        // multi-page job runs two pages at a time, as production fans pages out.
        bindings: {
          PAGE_CONCURRENCY: "2",
          TEST_MIGRATIONS: await readD1Migrations("./migrations"),
          APERTIUM_URL: inject("apertiumUrl"),
          ...inject("oidcBindings"),
          ...inject("webhookBindings"),
        },
        // `npm run dev`'s storage bridge (workers/dev/), served across a real RPC boundary (test/dev/).
        serviceBindings: { DEV_STORAGE: { name: "lingoscan-dev-storage", entrypoint: "LocalStorage" } },
        // The engine Worker, bundled as `wrangler deploy` would, behind the real ENGINE service binding.
        workers: [
          {
            name: "lingoscan-engine",
            modules: engineModules(),
            modulesRoot: ENGINE_OUT,
            compatibilityDate: "2026-11-01",
            compatibilityFlags: ["nodejs_compat"],
            r2Buckets: { FILES: "lingoscan-files", MODELS: "lingoscan-models" },
            // Vector-only PDF pages are rasterised by Browser Rendering (local: scripts/install-chromium.sh).
            browserRendering: { binding: "BROWSER" },
          },
          {
            name: "lingoscan-dev-storage",
            modules: devStorageModules(),
            modulesRoot: DEV_STORAGE_OUT,
            compatibilityDate: "2026-11-01",
            compatibilityFlags: ["nodejs_compat"],
            r2Buckets: { FILES: "lingoscan-files", MODELS: "lingoscan-models" },
          },
        ],
      },
    })),
  ],
  test: {
    globalSetup: [
      // First, so that its teardown runs last: it fails the run when a global setup leaves anything open.
      "./test/open-handles-global-setup.ts",
      "./test/global-setup.ts",
      "./test/providers/apertium-global-setup.ts",
      "./test/engine/fixtures-global-setup.ts",
      "./test/auth/oidc-global-setup.ts",
      "./test/webhooks/receiver-global-setup.ts",
      "./test/render/fixtures-global-setup.ts",
      "./test/exports/tools-global-setup.ts",
    ],
    setupFiles: ["./test/setup.ts"],
    // Benchmarks that need the Workers runtime run only when asked (BENCH=1), never as tests.
    include: process.env.BENCH ? ["test/bench/**/*.workers.ts"] : ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
