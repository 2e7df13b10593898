// Listed first among the global setups, so that its teardown runs last (vitest tears them down in
// reverse order): by then every server, socket and child process the others opened must be closed.
// One left open keeps vitest from exiting ("something prevents Vite server from exiting") until its
// teardown timeout; this names it and fails the run instead.
import { ChildProcess } from "node:child_process";
import { Server, Socket } from "node:net";

/**
 * The servers, network sockets and child processes keeping Node's event loop alive now. The test
 * pool's own local browser (Browser Rendering, under `.wrangler/chrome/`) and the pipes to it are
 * the pool's: it closes them after the global teardowns.
 */
function openHandles(): unknown[] {
  const all = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return all.filter(
    (h) =>
      h instanceof Server ||
      (h instanceof Socket && h.remoteAddress !== undefined) ||
      (h instanceof ChildProcess && !h.spawnfile.includes("/.wrangler/chrome/")),
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
    // Closed sockets leave the list on the next turns of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const left = openHandles().filter((h) => !before.has(h));
    if (left.length) {
      process.exitCode = 1;
      throw new Error(`the global setups left open: ${left.map(describe).join("; ")}`);
    }
  };
}
