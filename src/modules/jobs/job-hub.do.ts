import { DurableObject } from "cloudflare:workers";

/** One progress event of a job, as stored in D1's timeline and fanned out to SSE subscribers. */
export interface JobHubEvent {
  seq: number;
  /** SSE event name: `status` (a transition), `progress` (a page passed a stage), `warning`, `done` (terminal). */
  type: "status" | "progress" | "warning" | "done";
  data: Record<string, unknown>;
}

const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

function frame(e: JobHubEvent): Uint8Array {
  return encoder.encode(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`);
}

/**
 * Per-job hub (`idFromName(job_id)`): keeps the job's events and streams them as Server-Sent
 * Events. A subscriber sending `Last-Event-ID` gets every later event replayed, then live ones;
 * after `done` the stream ends. A retry starts a new attempt (a `status` event `queued` with
 * `retry: true`): a new subscriber replays from there, so the earlier attempt's `done` does not
 * end its stream.
 */
export class JobHub extends DurableObject<Env> {
  private readonly subscribers = new Set<WritableStreamDefaultWriter<Uint8Array>>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL)");
  }

  /** Records an event (idempotent on `seq`, so a retried pipeline step publishes it once) and pushes it live. */
  async publish(event: JobHubEvent): Promise<void> {
    const inserted = this.ctx.storage.sql
      .exec(
        "INSERT OR IGNORE INTO events (seq, type, data) VALUES (?, ?, ?) RETURNING seq",
        event.seq,
        event.type,
        JSON.stringify(event.data),
      )
      .toArray();
    if (inserted.length === 0) return;
    const bytes = frame(event);
    await Promise.all(
      [...this.subscribers].map(async (w) => {
        try {
          await w.write(bytes);
          if (event.type === "done") await w.close();
        } catch {
          this.subscribers.delete(w);
        }
      }),
    );
    if (event.type === "done") this.subscribers.clear();
  }

  private eventsAfter(seq: number): JobHubEvent[] {
    return this.ctx.storage.sql
      .exec<{ seq: number; type: JobHubEvent["type"]; data: string }>("SELECT seq, type, data FROM events WHERE seq > ? ORDER BY seq", seq)
      .toArray()
      .map((r) => ({ seq: r.seq, type: r.type, data: JSON.parse(r.data) as Record<string, unknown> }));
  }

  override async fetch(request: Request): Promise<Response> {
    const lastId = Number(request.headers.get("Last-Event-ID") ?? new URL(request.url).searchParams.get("last_event_id") ?? 0) || 0;
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const [attemptStart] = this.ctx.storage.sql
      .exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events WHERE type = 'status' AND json_extract(data, '$.retry') = 1")
      .toArray();
    const backlog = this.eventsAfter(Math.max(lastId, (attemptStart?.seq ?? 1) - 1));
    const [latest] = this.ctx.storage.sql.exec<{ type: string }>("SELECT type FROM events ORDER BY seq DESC LIMIT 1").toArray();
    const finished = latest?.type === "done";

    // Enqueue the backlog and register the subscriber in the same synchronous turn, so an event
    // published meanwhile is neither lost nor sent before the backlog.
    const ignore = () => undefined;
    writer.write(encoder.encode(": connected\nretry: 3000\n\n")).catch(ignore);
    for (const e of backlog) writer.write(frame(e)).catch(ignore);
    if (finished) {
      writer.close().catch(ignore);
    } else {
      this.subscribers.add(writer);
      const beat = setInterval(() => {
        writer.write(encoder.encode(": heartbeat\n\n")).catch(() => {
          clearInterval(beat);
          this.subscribers.delete(writer);
        });
      }, HEARTBEAT_MS);
      writer.closed.finally(() => clearInterval(beat)).catch(ignore);
    }

    return new Response(readable, {
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive" },
    });
  }
}
