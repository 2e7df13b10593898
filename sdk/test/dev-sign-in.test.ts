// `npm run dev` brings a loopback identity provider: "Sign in with Local ID" works out of the box
// and lands on the development account. (This suite's service is `npm run dev` itself.)
import { describe, expect, inject, it } from "vitest";

type Jar = Map<string, string>;
const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
function keep(jar: Jar, res: Response): void {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair!.indexOf("=");
    jar.set(pair!.slice(0, i), pair!.slice(i + 1));
  }
}

describe("npm run dev: development identity provider", () => {
  it("is listed in /config, marked development-only, and signs in as the development user", async () => {
    const { base } = inject("service");
    const config = await (await fetch(`${base}/api/v1/config`)).json();
    expect(JSON.stringify(config.oauth_providers)).toMatch(/devidp.*Local ID \(development only\)/);

    // Our side keeps the binding cookie of the flow; the provider's side keeps its own session.
    const ours: Jar = new Map();
    const theirs: Jar = new Map();
    const start = await fetch(`${base}/api/v1/auth/oauth/devidp/start`);
    keep(ours, start);
    const { authorization_url } = (await start.json()) as { authorization_url: string };
    let url = authorization_url;
    let back: URL | undefined;
    for (let hop = 0; hop < 10 && !back; hop++) {
      const res = await fetch(url, { redirect: "manual", headers: { Cookie: cookieHeader(theirs) } });
      keep(theirs, res);
      const location = res.headers.get("Location");
      expect(location, `${res.status} at ${url}: ${(await res.text()).slice(0, 300)}`).toBeTruthy();
      const next = new URL(location!, url);
      if (next.pathname === "/api/v1/auth/oauth/devidp/callback") back = next;
      url = next.toString();
    }
    expect(back?.origin).toBe(base);
    const callback = await fetch(`${back}`, { headers: { Cookie: cookieHeader(ours), Accept: "application/json" }, redirect: "manual" });
    keep(ours, callback);
    const signedIn = await callback.json();
    expect(callback.status, JSON.stringify(signedIn)).toBe(200);
    expect(signedIn.user).toMatchObject({ id: "usr_development0000000", email: "dev@localhost" });
    const me = await fetch(`${base}/api/v1/auth/me`, { headers: { Cookie: cookieHeader(ours) } });
    expect((await me.json()).email).toBe("dev@localhost");
  });
});
