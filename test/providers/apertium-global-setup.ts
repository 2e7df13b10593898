import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { startApertium } from "../../scripts/apertium.mjs";
import { startApertiumFaultProxy } from "./apertium-faults";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the loopback Apertium the test workers translate with (APERTIUM_URL). */
    apertiumUrl: string;
    /** Control route of the fault proxy behind apertiumUrl: PUT/DELETE `<url>/<langpair>` puts a pair down or up. */
    apertiumFaultsUrl: string;
  }
}

/** A loopback port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts apertium-apy for the test run (workerd cannot spawn processes) behind a fault proxy that
 * forwards everything unchanged until a test puts a pair down (test/providers/apertium-faults.ts);
 * stops both afterwards.
 *
 * Each run starts its own server on a free port: a server reused from another test run running at
 * the same time would be stopped by that run's teardown in the middle of this one. Set
 * APERTIUM_TEST_PORT to use (or reuse) a server on a fixed port instead.
 */
export default async function setup(project: TestProject) {
  const port = process.env.APERTIUM_TEST_PORT ? Number(process.env.APERTIUM_TEST_PORT) : await freePort();
  const server = (await startApertium({ port })) as { url: string; stop: () => Promise<void> };
  const proxy = await startApertiumFaultProxy(server.url);
  project.provide("apertiumUrl", proxy.url);
  project.provide("apertiumFaultsUrl", `${proxy.url}/__faults`);
  return async () => {
    await proxy.stop();
    await server.stop();
  };
}
