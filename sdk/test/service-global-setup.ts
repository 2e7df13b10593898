import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
// @ts-expect-error: plain ES module without types
import { scratchCopy, startService } from "../../scripts/local-service.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The local service's origin and its development API key. */
    service: { base: string; key: string };
  }
}

const root = path.resolve(import.meta.dirname, "../..");

export default async function setup(project: TestProject) {
  const logDir = path.join(root, "sdk/test/logs");
  mkdirSync(logDir, { recursive: true });
  const dir: string = scratchCopy("lingoscan-sdk-service-", ["sdk/test/logs", "sdk/dist"]);
  const service = await startService(dir, { logFile: path.join(logDir, "service.log"), minutes: 8 }).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  project.provide("service", { base: service.base, key: service.key });
  return async () => {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
