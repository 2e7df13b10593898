import { WorkerEntrypoint } from "cloudflare:workers";

/** The engine's RPC surface, reached through the api Worker's `ENGINE` service binding. */
export default class Engine extends WorkerEntrypoint<Env> {
  async fetch(): Promise<Response> {
    return Response.json({ error: { code: "not_found", message: "The engine is reached over RPC only.", retryable: false, details: {} } }, { status: 404 });
  }

  async ping(): Promise<{ ok: true }> {
    return { ok: true };
  }
}
