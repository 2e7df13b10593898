import type { TestProject } from "vitest/node";
import { startApertium } from "../../scripts/apertium.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the loopback apertium-apy server the test workers translate with. */
    apertiumUrl: string;
  }
}

/** Loopback port for tests, distinct from the dev server's 2737 (a running one is reused). */
const TEST_PORT = Number(process.env.APERTIUM_TEST_PORT ?? 2738);

/** Starts apertium-apy for the test run (workerd cannot spawn processes) and stops it afterwards. */
export default async function setup(project: TestProject) {
  const server = (await startApertium({ port: TEST_PORT })) as { url: string; stop: () => Promise<void> };
  project.provide("apertiumUrl", server.url);
  return () => server.stop();
}
