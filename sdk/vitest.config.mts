// The SDK's and CLI's tests, in Node against the real service: the global setup runs `npm run dev`
// in a scratch copy of the repository on a free port (scripts/local-service.mjs).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/service-global-setup.ts"],
    environment: "node",
    // One service for every file; jobs from parallel files would only queue behind each other.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
    // Stopping the service and removing its scratch copy takes about 15 s: more than vitest's
    // default 10 s to close, after which it reported the run as kept from exiting.
    teardownTimeout: 120_000,
  },
});
