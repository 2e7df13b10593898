import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the loopback webhook receiver (and DNS-over-HTTPS stub) the tests deliver to. */
    webhookReceiverUrl: string;
    /** Bindings pointing the api Worker's webhook name resolution at the stub. */
    webhookBindings: { WEBHOOKS_DNS_RESOLVER: string };
  }
}

/** DNS answers of the stub resolver: names that resolve to private, loopback or public addresses. */
const ZONE: Record<string, { A?: string[]; AAAA?: string[] }> = {
  "intranet.lingoscan-tests.net": { A: ["10.0.0.7"] },
  "metadata.lingoscan-tests.net": { A: ["169.254.169.254"] },
  "v6loop.lingoscan-tests.net": { AAAA: ["::1"] },
  "mixed.lingoscan-tests.net": { A: ["93.184.215.14", "192.168.1.20"] },
  "public.lingoscan-tests.net": { A: ["93.184.215.14"], AAAA: ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"] },
};

interface Hook {
  /** Answer this many deliveries with `status` before accepting. */
  fail: number;
  status: number;
  /** Secrets the receiver verifies with (as a customer would hold them). */
  secrets: string[];
  received: Received[];
}

/** One delivery as the receiver saw and checked it. */
export interface Received {
  headers: Record<string, string | undefined>;
  body: string;
  /** Indexes (into `secrets`) of the secrets one of the v1 values verified with, by node:crypto. */
  verified_with: number[];
  signatures: number;
  timestamp_fresh: boolean;
  answered: number;
}

/** Verifies `t=<unix>,v1=<hex>[,v1=…]` over `<t>.<body>`: the scheme documented in the README, written independently. */
function verify(header: string | undefined, body: string, secrets: string[]) {
  const parts = (header ?? "").split(",").map((p) => p.split("=", 2) as [string, string]);
  const t = parts.find(([k]) => k === "t")?.[1] ?? "";
  const v1 = parts.filter(([k]) => k === "v1").map(([, v]) => Buffer.from(v, "hex"));
  const verifiedWith = secrets.flatMap((secret, i) => {
    const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
    return v1.some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected)) ? [i] : [];
  });
  return { verifiedWith, signatures: v1.length, fresh: Math.abs(Date.now() / 1000 - Number(t)) <= 300 };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: unknown, type = "application/json") {
  res.writeHead(status, { "Content-Type": type });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/**
 * A webhook receiver on loopback for the test run: `/hook/<name>` records deliveries and verifies
 * their signatures with node:crypto (failing on purpose as configured); `/control/<name>`
 * configures a hook (PUT) and lists what it received (GET); `/dns-query` answers
 * DNS-over-HTTPS JSON queries from a fixed zone.
 */
export default async function setup(project: TestProject) {
  const hooks = new Map<string, Hook>();
  const hook = (name: string) => {
    if (!hooks.has(name)) hooks.set(name, { fail: 0, status: 500, secrets: [], received: [] });
    return hooks.get(name)!;
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const [, kind, name] = url.pathname.split("/");
    try {
      if (url.pathname === "/dns-query") {
        const record = ZONE[url.searchParams.get("name") ?? ""];
        const type = url.searchParams.get("type") === "AAAA" ? "AAAA" : "A";
        if (!record) return send(res, 200, { Status: 3, Answer: [] }, "application/dns-json");
        const answers = (record[type] ?? []).map((data) => ({
          name: url.searchParams.get("name"),
          type: type === "A" ? 1 : 28,
          TTL: 60,
          data,
        }));
        return send(res, 200, { Status: 0, Answer: answers }, "application/dns-json");
      }
      if (kind === "control" && name && req.method === "PUT") {
        const config = JSON.parse(await readBody(req)) as Partial<Pick<Hook, "fail" | "status" | "secrets">>;
        hooks.set(name, { fail: config.fail ?? 0, status: config.status ?? 500, secrets: config.secrets ?? [], received: [] });
        return send(res, 204, "");
      }
      if (kind === "control" && name && req.method === "GET") return send(res, 200, { received: hook(name).received });
      if (kind === "hook" && name && req.method === "POST") {
        const h = hook(name);
        const body = await readBody(req);
        const check = verify(req.headers["x-service-signature"] as string | undefined, body, h.secrets);
        const answered = h.fail > 0 ? h.status : 200;
        if (h.fail > 0) h.fail--;
        h.received.push({
          headers: Object.fromEntries(
            ["content-type", "x-service-signature", "x-service-event", "x-service-event-id", "x-service-delivery", "user-agent"].map(
              (k) => [k, req.headers[k] as string | undefined],
            ),
          ),
          body,
          verified_with: check.verifiedWith,
          signatures: check.signatures,
          timestamp_fresh: check.fresh,
          answered,
        });
        return send(
          res,
          answered,
          answered === 200 ? { ok: true } : "receiver failing on purpose",
          answered === 200 ? "application/json" : "text/plain",
        );
      }
      send(res, 404, { error: "no such route" });
    } catch (err) {
      send(res, 500, String(err), "text/plain");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  project.provide("webhookReceiverUrl", base);
  project.provide("webhookBindings", { WEBHOOKS_DNS_RESOLVER: `${base}/dns-query` });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
