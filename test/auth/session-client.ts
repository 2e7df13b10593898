import { api, body } from "../helpers/api";

let counter = 0;
/** A fresh, unique address per call (storage is per file, rate-limit counters are not). */
export function uniqueEmail(tag = "user"): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

export const PASSWORD = "tulip-harbour-91-quietly";

/**
 * A browser-like client: keeps the cookies the API sets (name=value; attributes ignored, as for
 * one host and path) and sends the CSRF value it was given on unsafe methods.
 */
export class SessionClient {
  cookies = new Map<string, string>();
  csrf: string | undefined;
  lastSetCookies: string[] = [];

  async fetch(path: string, init: RequestInit & { json?: unknown; noCsrf?: boolean } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const method = (init.method ?? "GET").toUpperCase();
    if (this.csrf && !init.noCsrf && !["GET", "HEAD"].includes(method)) headers.set("X-CSRF-Token", this.csrf);
    let reqBody = init.body;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      reqBody = JSON.stringify(init.json);
    }
    const res = await api(path, { ...init, method, headers, body: reqBody });
    this.lastSetCookies = res.headers.getSetCookie();
    for (const c of this.lastSetCookies) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === "" || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Reads the answer as JSON and keeps its CSRF value when it is an AuthResponse. */
  async json<T = any>(res: Response): Promise<T> {
    const b = await body(res);
    if (b && typeof b.csrf_token === "string") this.csrf = b.csrf_token;
    return b as T;
  }
}

/** Registers a new account through the API and returns its signed-in client. */
export async function registered(email = uniqueEmail(), password = PASSWORD) {
  const client = new SessionClient();
  const res = await client.fetch("/api/v1/auth/register", { method: "POST", json: { email, password } });
  const auth = await client.json(res);
  if (res.status !== 201) throw new Error(`register failed ${res.status}: ${JSON.stringify(auth)}`);
  return { client, email, password, user: auth.user, auth };
}

/** Waits for a mail of `kind` to `to` in the development outbox (mail is sent after the answer). */
export async function waitForMail(to: string, kind: string, timeoutMs = 10_000): Promise<{ text: string; subject: string; token: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
    const { messages } = await body(res);
    const mail = messages.find((m: any) => m.kind === kind);
    if (mail) {
      const token = /[?&]token=([^\s&]+)/.exec(mail.text)?.[1];
      if (!token) throw new Error(`no token in mail: ${mail.text}`);
      return { text: mail.text, subject: mail.subject, token: decodeURIComponent(token) };
    }
    if (Date.now() > deadline) throw new Error(`no ${kind} mail to ${to} after ${timeoutMs} ms: ${JSON.stringify(messages)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every mail to an address, newest first. */
export async function mailsTo(to: string): Promise<any[]> {
  return (await body(await api(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}&limit=100`))).messages;
}
