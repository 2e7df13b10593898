// The one way the web app talks to the API: same-origin fetch with the session cookie, plus the
// X-CSRF-Token header on unsafe methods (fetched once from /auth/csrf, refreshed on csrf_failed).

let csrf = null;

export class ApiFailure extends Error {
  constructor(status, body) {
    const e = body && body.error ? body.error : null;
    super(e ? e.message : `The server answered ${status}.`);
    this.status = status;
    this.code = e ? e.code : "http_" + status;
    this.details = e ? e.details : {};
  }
}

export function setCsrf(token) {
  csrf = token || null;
}

async function csrfToken() {
  if (!csrf) {
    const res = await fetch("/api/v1/auth/csrf", { credentials: "same-origin" });
    if (res.ok) csrf = Object.values(await res.json())[0] || null;
  }
  return csrf;
}

/**
 * Calls the API. `json` sends a JSON body, `form` a FormData; `query` is added to the URL.
 * Answers the parsed JSON (null for 204) or throws ApiFailure with the server's message.
 */
export async function api(path, { method = "GET", json, form, query, retried = false } = {}) {
  const url = new URL("/api/v1" + path, location.origin);
  for (const [k, v] of Object.entries(query || {})) if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, String(v));
  const headers = {};
  let body;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form) body = form;
  const unsafe = !["GET", "HEAD"].includes(method);
  if (unsafe) {
    const t = await csrfToken();
    if (t) headers["X-CSRF-Token"] = t;
  }
  const res = await fetch(url, { method, headers, body, credentials: "same-origin" });
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const failure = new ApiFailure(res.status, data);
    if (failure.code === "csrf_failed" && !retried) {
      csrf = null;
      return api(path, { method, json, form, query, retried: true });
    }
    throw failure;
  }
  return data;
}

/** Cached GET /config (tools, languages, plans, limits). */
let configPromise = null;
export function appConfig() {
  configPromise ??= api("/config");
  return configPromise;
}
