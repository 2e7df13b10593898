import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * Requests to the static-assets service of wrangler.toml's [assets] (with its `_headers` and
 * single-page-application fallback). Paths under run_worker_first never reach it: the e2e run
 * (npm run test:e2e) covers that routing against `wrangler dev`.
 */
function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return env.ASSETS.fetch(`http://127.0.0.1:8787${path}`, { headers: { Accept: "text/html", ...headers } });
}

async function expectAppShell(res: Response, path: string) {
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
  expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
  expect(text, path).toContain('<script type="module" src="/js/app.js"></script>');
  expect(text, path).toContain('<main id="main"');
  return res;
}

describe("web app pages", () => {
  it("serves the app shell at / with a strict Content-Security-Policy", async () => {
    const res = await expectAppShell(await get("/"), "/");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("serves the app shell at the clean URLs the app routes itself", async () => {
    for (const path of [
      "/s/AbCdEf0123456789xyz",
      "/projects/prj_0a1b2c3d4e5f6g7h8i9j",
      "/login",
      "/verify-email?token=abc",
      "/reset-password?token=abc",
      "/magic-link?token=abc",
      "/billing?checkout=success",
      "/login?oauth=authenticated",
      "/login?oauth_error=state",
    ]) {
      const res = await expectAppShell(await get(path), path);
      expect(res.headers.get("content-security-policy"), path).toContain("default-src 'self'");
    }
  });

  it("serves the scripts as JavaScript and the stylesheet as CSS", async () => {
    for (const name of [
      "app",
      "api",
      "dom",
      "auth-pages",
      "job-pages",
      "projects-page",
      "editor-page",
      "share-panel",
      "share-viewer",
      "account-page",
    ]) {
      const res = await get(`/js/${name}.js`, { Accept: "*/*" });
      const text = await res.text();
      expect(res.status, `/js/${name}.js: ${text.slice(0, 200)}`).toBe(200);
      expect(res.headers.get("content-type"), name).toMatch(/^(text|application)\/javascript/);
      // Data reaches the page only as text: no script builds HTML from strings.
      expect(text, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    }
    const css = await get("/app.css", { Accept: "text/css" });
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(await css.text()).toContain(".box");
  });
});
