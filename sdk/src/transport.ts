import { errorFromResponse, LingoscanError } from "./errors.js";

export interface TransportOptions {
  /** API key (`lik_live_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Service origin, e.g. `https://lingoscan.example.com` (paths start with /api/v1). */
  baseUrl: string;
  /** A fetch implementation (default: the global one); Workers can pass a service binding's fetch. */
  fetch?: typeof fetch;
  /** Retries of a retryable failure (envelope `retryable: true`, network error); default 3. */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per retry with jitter, capped at 20 s; default 500. */
  retryDelayMs?: number;
  /** Extra headers on every request (e.g. a User-Agent). */
  headers?: Record<string, string>;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  json?: unknown;
  form?: FormData;
  /** Sent as `Idempotency-Key`; POSTs get a random one unless given, the same on every retry. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** `false`: no Authorization header (signed URLs carry their own proof). */
  auth?: boolean;
}

const MAX_DELAY_MS = 20_000;

/** Waits `ms`, or rejects when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** HTTP to the API: authentication, idempotency keys, the error envelope as LingoscanError, retries with backoff. */
export class Transport {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxRetries: number;
  private readonly retryDelayMs: number;

  constructor(private readonly opts: TransportOptions) {
    if (!opts.apiKey) throw new TypeError("Lingoscan: an API key is required (lik_live_…)");
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    // Bound so that `fetch` keeps its receiver in browsers ("Illegal invocation").
    this.fetchImpl = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxRetries = opts.maxRetries ?? 3;
    this.retryDelayMs = opts.retryDelayMs ?? 500;
  }

  url(path: string, query?: RequestOptions["query"]): string {
    const u = new URL(path, `${this.baseUrl}/`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    return u.toString();
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { Authorization: `Bearer ${this.opts.apiKey}`, Accept: "application/json", ...this.opts.headers, ...extra };
  }

  /** Delay before retry `attempt` (1-based): Retry-After when sent, else exponential with full jitter. */
  backoff(attempt: number, err: LingoscanError): number {
    if (err.retryAfter !== null) return Math.min(err.retryAfter * 1000, MAX_DELAY_MS);
    const cap = Math.min(this.retryDelayMs * 2 ** (attempt - 1), MAX_DELAY_MS);
    return cap / 2 + Math.random() * (cap / 2);
  }

  /** One raw exchange (no retry): the Response when 2xx, else the LingoscanError. */
  async send(method: string, path: string, o: RequestOptions = {}): Promise<Response> {
    const headers = this.headers(o.headers);
    if (o.auth === false) delete headers.Authorization;
    let body: BodyInit | undefined;
    if (o.form) body = o.form;
    else if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers["Content-Type"] = "application/json";
    }
    if (o.idempotencyKey) headers["Idempotency-Key"] = o.idempotencyKey;
    let res: Response;
    try {
      res = await this.fetchImpl(this.url(path, o.query), { method, headers, body, signal: o.signal });
    } catch (cause) {
      if (o.signal?.aborted) throw cause;
      throw new LingoscanError({ code: "network_error", message: `${method} ${path}: ${String(cause)}`, retryable: true, cause });
    }
    if (!res.ok) throw await errorFromResponse(res);
    return res;
  }

  /** A request with retries of retryable failures; POSTs carry one Idempotency-Key across them. */
  async request(method: string, path: string, o: RequestOptions = {}): Promise<Response> {
    const opts = method === "POST" && !o.idempotencyKey ? { ...o, idempotencyKey: crypto.randomUUID() } : o;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.send(method, path, opts);
      } catch (err) {
        if (!(err instanceof LingoscanError) || !err.retryable || attempt >= this.maxRetries) throw err;
        await sleep(this.backoff(attempt + 1, err), o.signal);
      }
    }
  }

  /** GETs an absolute URL handed out by the API (a signed download link), without the API key. */
  fetchUrl(url: string, signal?: AbortSignal): Promise<Response> {
    return this.request("GET", url, { auth: false, signal, headers: { Accept: "*/*" } });
  }

  async json<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, path, o);
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }
}
