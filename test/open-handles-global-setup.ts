// Listed first among the global setups, so that its teardown runs last (vitest tears them down in
// reverse order): by then every server, socket and child process the others opened must be closed.
// One left open keeps vitest from exiting ("something prevents Vite server from exiting") until its
// teardown timeout; this names it and fails the run instead.
import { ChildProcess } from "node:child_process";
import { Server, Socket } from "node:net";

const activeHandles = () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();

/** The test pool's local browsers (Browser Rendering: Chromium under `.wrangler/chrome/`). */
const isPoolBrowser = (h: unknown): h is ChildProcess => h instanceof ChildProcess && h.spawnfile.includes("/.wrangler/chrome/");

/** The servers, network sockets and child processes keeping Node's event loop alive now, the pool's browsers aside. */
function openHandles(): unknown[] {
  return activeHandles().filter(
    (h) =>
      h instanceof Server || (h instanceof Socket && h.remoteAddress !== undefined) || (h instanceof ChildProcess && !isPoolBrowser(h)),
  );
}

/**
 * Stops the local browsers still running. The pool closes the browsers of the runtimes it
 * disposes, but one launched for a page a job was still drawing in the background when its test
 * file ended (a runtime being torn down) belongs to no runtime any more: it ran on after the
 * tests and kept vitest from exiting ("something prevents Vite server from exiting").
 */
async function stopBrowsers(): Promise<void> {
  const running = activeHandles()
    .filter(isPoolBrowser)
    .filter((p) => p.exitCode === null && p.signalCode === null);
  await Promise.all(
    running.map(
      (p) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5_000);
          p.once("exit", () => (clearTimeout(timer), resolve()));
          p.kill("SIGKILL");
        }),
    ),
  );
}

function describe(h: unknown): string {
  if (h instanceof Server) return `server on ${JSON.stringify(h.address())}`;
  if (h instanceof ChildProcess) return `child process ${h.pid} (${h.spawnargs.join(" ").slice(0, 100)})`;
  const s = h as Socket;
  return `socket ${s.localAddress}:${s.localPort} → ${s.remoteAddress}:${s.remotePort}`;
}

export default function setup() {
  const before = new Set(openHandles());
  return async () => {
    await stopBrowsers();
    // Closed sockets leave the list on the next turns of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const left = openHandles().filter((h) => !before.has(h));
    if (left.length) {
      process.exitCode = 1;
      throw new Error(`the global setups left open: ${left.map(describe).join("; ")}`);
    }
  };
}
