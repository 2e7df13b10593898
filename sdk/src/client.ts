import { LingoscanError } from "./errors.js";
import type { components, operations } from "./schema.js";
import { parseEventStream } from "./sse.js";
import { sleep, Transport, type TransportOptions } from "./transport.js";

type Schemas = components["schemas"];
export type Job = Schemas["JobOut"];
export type JobList = Schemas["JobListOut"];
export type JobStatus = Job["status"];
export type ProcessOptions = Schemas["CreateJobRequest"];
export type ExportRef = Schemas["ExportRefOut"];
export type ProjectExport = Schemas["ExportOut"];
export type ExportRequest = Schemas["ExportRequest"];
export type CostEstimate = Schemas["CostEstimateOut"];
export type JobListQuery = NonNullable<operations["listJobs"]["parameters"]["query"]>;
export type WebhookEndpoint = Schemas["WebhookOut"];
export type WebhookCreateRequest = Schemas["WebhookCreateRequest"];
export type WebhookCreated = Schemas["WebhookCreatedOut"];
export type WebhookRotated = Schemas["WebhookRotateOut"];
export type WebhookDelivery = Schemas["WebhookDeliveryOut"];

/** A file to upload: bytes with a name (the service sniffs the format from the bytes). */
export type FileInput = Blob | { name: string; data: Blob | Uint8Array | ArrayBuffer; type?: string };

/** A progress event of a job's stream: `status`, `progress`, `warning` or `done`. */
export interface JobEvent {
  id: number | null;
  type: string;
  data: Record<string, unknown>;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called for every stream event (or, when polling, every changed job). */
  onEvent?: (event: JobEvent) => void;
  /** Polling interval when the stream cannot be used; default 1500 ms. */
  pollIntervalMs?: number;
  /** `false` polls only; default true (the SSE stream, resumed with Last-Event-ID, polling as fallback). */
  stream?: boolean;
}

export interface DownloadedFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export const TERMINAL_STATUSES: readonly JobStatus[] = ["completed", "partially_completed", "failed", "cancelled"];

export function isTerminal(job: Pick<Job, "status">): boolean {
  return TERMINAL_STATUSES.includes(job.status);
}

/** Stream reconnects in a row without a new event before waitForJob polls instead. */
const MAX_STREAM_FAILURES = 3;

function toBlob(file: FileInput): { blob: Blob; name: string } {
  if (file instanceof Blob) return { blob: file, name: (file as File).name || "upload" };
  const data = file.data instanceof Blob ? file.data : new Blob([file.data as BlobPart], file.type ? { type: file.type } : {});
  return { blob: data, name: file.name };
}

/**
 * The Lingoscan API client. Fetch-based: runs in Node ≥ 20, browsers and Workers.
 *
 * ```ts
 * const ls = new Lingoscan({ apiKey: process.env.LINGOSCAN_API_KEY!, baseUrl: "https://lingoscan.example.com" });
 * const job = await ls.waitForJob((await ls.process(file, { tool: "ocr" })).id);
 * const text = new TextDecoder().decode((await ls.download(job.output.exports[0]!)).bytes);
 * ```
 */
export class Lingoscan {
  readonly http: Transport;

  constructor(opts: TransportOptions) {
    this.http = new Transport(opts);
  }

  /** Uploads a file with processing options; answers the job at once (status `queued`). */
  process(file: FileInput, options: Partial<ProcessOptions> = {}, o: { idempotencyKey?: string; signal?: AbortSignal } = {}): Promise<Job> {
    const form = new FormData();
    const { blob, name } = toBlob(file);
    form.append("file", blob, name);
    form.append("options", JSON.stringify(options));
    return this.http.json<Job>("POST", "/api/v1/process", { form, ...o });
  }

  /** Uploads several files with one set of options: the batch's parent job (one child job per file). */
  batch(
    files: FileInput[],
    options: Partial<ProcessOptions> = {},
    o: { idempotencyKey?: string; signal?: AbortSignal } = {},
  ): Promise<Job> {
    const form = new FormData();
    for (const f of files) {
      const { blob, name } = toBlob(f);
      form.append("file", blob, name);
    }
    form.append("options", JSON.stringify(options));
    return this.http.json<Job>("POST", "/api/v1/batch", { form, ...o });
  }

  /** The price of a job with these options and pages, computed by the code that charges. */
  estimate(options: Partial<ProcessOptions>, pages: number): Promise<CostEstimate> {
    return this.http.json("POST", "/api/v1/estimate", { query: { pages }, json: options });
  }

  getJob(id: string, signal?: AbortSignal): Promise<Job> {
    return this.http.json("GET", `/api/v1/jobs/${encodeURIComponent(id)}`, { signal });
  }

  listJobs(query: Partial<JobListQuery> = {}): Promise<JobList> {
    return this.http.json("GET", "/api/v1/jobs", { query });
  }

  cancelJob(id: string): Promise<Job> {
    return this.http.json("POST", `/api/v1/jobs/${encodeURIComponent(id)}/cancel`);
  }

  retryJob(id: string): Promise<Job> {
    return this.http.json("POST", `/api/v1/jobs/${encodeURIComponent(id)}/retry`);
  }

  /** Starts an export of a project (an edited result, another format); see waitForExport. */
  createExport(projectId: string, body: ExportRequest): Promise<ProjectExport> {
    return this.http.json("POST", `/api/v1/projects/${encodeURIComponent(projectId)}/exports`, { json: body });
  }

  listExports(projectId: string): Promise<ProjectExport[]> {
    return this.http.json("GET", `/api/v1/projects/${encodeURIComponent(projectId)}/exports`);
  }

  /** Polls a project's export until it is no longer being built. */
  async waitForExport(exp: ProjectExport, o: { signal?: AbortSignal; pollIntervalMs?: number } = {}): Promise<ProjectExport> {
    let current = exp;
    while (current.status !== "ready" && current.status !== "failed" && current.project_id) {
      await sleep(o.pollIntervalMs ?? 1500, o.signal);
      current = (await this.listExports(current.project_id)).find((e) => e.id === exp.id) ?? current;
    }
    return current;
  }

  /** Registers a webhook endpoint; the answer carries its signing secret, shown only once. */
  createWebhook(body: Partial<WebhookCreateRequest> & { url: string }): Promise<WebhookCreated> {
    return this.http.json("POST", "/api/v1/account/webhooks", { json: body });
  }

  deleteWebhook(endpointId: string): Promise<void> {
    return this.http.json("DELETE", `/api/v1/account/webhooks/${encodeURIComponent(endpointId)}`);
  }

  /** A new signing secret; the previous one keeps signing alongside it for 24 hours. */
  rotateWebhookSecret(endpointId: string): Promise<WebhookRotated> {
    return this.http.json("POST", `/api/v1/account/webhooks/${encodeURIComponent(endpointId)}/rotate`);
  }

  listWebhookDeliveries(endpointId: string): Promise<WebhookDelivery[]> {
    return this.http.json("GET", `/api/v1/account/webhooks/${encodeURIComponent(endpointId)}/deliveries`);
  }

  /** Sends a delivery again: same event, same body, signed now. */
  replayWebhookDelivery(deliveryId: string): Promise<WebhookDelivery> {
    return this.http.json("POST", `/api/v1/account/webhooks/deliveries/${encodeURIComponent(deliveryId)}/replay`);
  }

  /**
   * Follows a job until it reaches a terminal state and returns it read afresh. Uses the SSE
   * stream (resumed after a dropped connection with Last-Event-ID, so no event is lost or
   * repeated; a finished job's events are replayed); polls GET /jobs/{id} every 1.5 s when the
   * stream cannot be used.
   */
  async waitForJob(id: string, o: WaitOptions = {}): Promise<Job> {
    // The stream replays a finished job's events before it ends, so `onEvent` sees every one.
    if (o.stream !== false && (await this.followStream(id, o))) {
      const job = await this.getJob(id, o.signal);
      if (isTerminal(job)) return job;
    }
    return this.poll(id, o);
  }

  /** Reads the stream until `done`; false when it cannot be used (then the caller polls). */
  private async followStream(id: string, o: WaitOptions): Promise<boolean> {
    let lastEventId: string | null = null;
    let failures = 0;
    while (failures < MAX_STREAM_FAILURES) {
      let res: Response;
      try {
        res = await this.http.send("GET", `/api/v1/jobs/${encodeURIComponent(id)}/events`, {
          headers: { Accept: "text/event-stream", ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
          signal: o.signal,
        });
      } catch (err) {
        if (o.signal?.aborted) throw err;
        if (err instanceof LingoscanError && !err.retryable) throw err;
        failures++;
        await sleep(
          this.http.backoff(
            failures,
            err instanceof LingoscanError ? err : new LingoscanError({ code: "network_error", message: String(err), retryable: true }),
          ),
          o.signal,
        );
        continue;
      }
      if (!res.body || !(res.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) {
        await res.body?.cancel();
        return false;
      }
      let progressed = false;
      try {
        for await (const e of parseEventStream(res.body)) {
          if (e.id !== null) lastEventId = e.id;
          progressed = true;
          let data: Record<string, unknown> = {};
          try {
            data = JSON.parse(e.data) as Record<string, unknown>;
          } catch {
            data = { text: e.data };
          }
          o.onEvent?.({ id: e.id === null ? null : Number(e.id), type: e.event, data });
          if (e.event === "done") return true;
        }
      } catch (err) {
        if (o.signal?.aborted) throw err;
      }
      // The connection ended before `done`: reconnect from the last event seen.
      failures = progressed ? 0 : failures + 1;
    }
    return false;
  }

  private async poll(id: string, o: WaitOptions): Promise<Job> {
    let last = "";
    for (;;) {
      const job = await this.getJob(id, o.signal);
      const seen = `${job.status} ${job.progress.percent}`;
      if (seen !== last)
        o.onEvent?.({ id: null, type: "status", data: { status: job.status, stage: job.stage, percent: job.progress.percent } });
      last = seen;
      if (isTerminal(job)) return job;
      await sleep(o.pollIntervalMs ?? 1500, o.signal);
    }
  }

  /** A short-lived signed URL for an export (a job's `output.exports[]` entry, a project export, or its id). */
  async downloadUrl(exp: string | { export_id: string } | { id: string }): Promise<string> {
    const id = typeof exp === "string" ? exp : "export_id" in exp ? exp.export_id : exp.id;
    const { url } = await this.http.json<{ url: string }>("GET", `/api/v1/exports/${encodeURIComponent(id)}/download`);
    return new URL(url, `${this.http.baseUrl}/`).toString();
  }

  /** Downloads an export's bytes (through its signed URL). */
  async download(exp: string | { export_id: string } | { id: string }, signal?: AbortSignal): Promise<DownloadedFile> {
    const url = await this.downloadUrl(exp);
    const res = await this.http.fetchUrl(url, signal);
    const disposition = res.headers.get("Content-Disposition") ?? "";
    const filename =
      /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ??
      (typeof exp === "object" && "filename" in exp && typeof exp.filename === "string" ? exp.filename : "export");
    return {
      filename: decodeURIComponent(filename),
      contentType: res.headers.get("Content-Type") ?? "application/octet-stream",
      bytes: new Uint8Array(await res.arrayBuffer()),
    };
  }
}
