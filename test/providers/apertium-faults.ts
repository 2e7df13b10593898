import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How a faulted pair's /translate fails: `unavailable` answers 503 with apertium-apy's error
 * envelope (a crashed or overloaded pipeline), `reset` closes the connection without an answer.
 */
export type ApertiumFault = "unavailable" | "reset";

export interface ApertiumFaultProxy {
  /** Base URL to use in place of the upstream apertium-apy. */
  url: string;
  stop: () => Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** The `langpair` of a /translate request (query string or form body), e.g. `eng|glg`. */
function langpairOf(url: URL, body: Buffer, contentType: string | undefined): string | undefined {
  const fromBody = /application\/x-www-form-urlencoded/i.test(contentType ?? "")
    ? new URLSearchParams(body.toString("utf8")).get("langpair")
    : null;
  return (fromBody ?? url.searchParams.get("langpair")) || undefined;
}

/**
 * A loopback proxy in front of apertium-apy for the test run. Every request goes to `upstream`
 * unchanged, except /translate for a language pair put down through the control route:
 *
 *   PUT    /__faults/<langpair>   {"mode": "unavailable" | "reset"}   (langpair as Apertium names it: eng|glg)
 *   DELETE /__faults/<langpair>
 *   GET    /__faults              → {"faults": {"eng|glg": "unavailable"}, "failed": {"eng|glg": 3}}
 *
 * /listPairs keeps listing a faulted pair, as a real server whose pipeline for that pair fails
 * does: jobs for it are accepted and fail while translating, which is the outage the chaos test
 * needs. Production code is unchanged: it reaches this proxy through the test config's APERTIUM_URL.
 */
export async function startApertiumFaultProxy(upstream: string): Promise<ApertiumFaultProxy> {
  const faults = new Map<string, ApertiumFault>();
  const failed = new Map<string, number>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    try {
      if (url.pathname === "/__faults" && req.method === "GET") {
        return send(res, 200, { faults: Object.fromEntries(faults), failed: Object.fromEntries(failed) });
      }
      if (url.pathname.startsWith("/__faults/")) {
        const pair = decodeURIComponent(url.pathname.slice("/__faults/".length));
        if (!/^[a-z_]+\|[a-z_]+$/i.test(pair)) return send(res, 400, { error: `not a langpair: ${pair}` });
        if (req.method === "DELETE") {
          faults.delete(pair);
          return send(res, 200, { faults: Object.fromEntries(faults) });
        }
        if (req.method === "PUT") {
          const mode = (JSON.parse((await readBody(req)).toString("utf8") || "{}") as { mode?: string }).mode ?? "unavailable";
          if (mode !== "unavailable" && mode !== "reset") return send(res, 400, { error: `unknown mode: ${mode}` });
          faults.set(pair, mode);
          return send(res, 200, { faults: Object.fromEntries(faults) });
        }
        return send(res, 405, { error: "PUT or DELETE" });
      }

      const body = await readBody(req);
      const pair = url.pathname === "/translate" ? langpairOf(url, body, req.headers["content-type"]) : undefined;
      const fault = pair ? faults.get(pair) : undefined;
      if (pair && fault) {
        failed.set(pair, (failed.get(pair) ?? 0) + 1);
        if (fault === "reset") return void req.socket.destroy();
        return send(res, 503, { status: "error", code: 503, message: "Service Unavailable", explanation: `The ${pair} pipeline is down` });
      }

      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === "string" && !["host", "connection", "content-length", "transfer-encoding"].includes(k)) headers.set(k, v);
      }
      const answer = await fetch(`${upstream}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
      });
      const out = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, { "Content-Type": answer.headers.get("content-type") ?? "application/json" });
      res.end(out);
    } catch (err) {
      // The upstream is unreachable: answer as a gateway would, so the client sees a 5xx, not a hang.
      if (!res.headersSent) send(res, 502, { status: "error", code: 502, message: "Bad Gateway", explanation: String(err) });
      else res.destroy();
    }
  });
  // No idle timeout on kept-alive connections: workerd reuses them, and a socket closed by the
  // server just as a request goes out would read as a network failure in unrelated tests.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
