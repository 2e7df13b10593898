import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount, startOfWindow } from "../helpers/api";
import { fetchSigned, json, seedProject } from "../projects/seed";

async function share(projectId: string, auth: Record<string, string>, payload: unknown = {}) {
  const res = await api(`/api/v1/projects/${projectId}/share`, json("POST", auth, payload));
  const b = await body(res);
  expect(res.status, JSON.stringify(b)).toBe(201);
  return b;
}

const view = (token: string, query = "") => api(`/api/v1/share/${encodeURIComponent(token)}${query}`);

async function expectError(res: Response, status: number, code: string) {
  const b = await body(res);
  expect(res.status, JSON.stringify(b)).toBe(status);
  expect(b.error.code).toBe(code);
  return b;
}

describe("share links: owner side", () => {
  it("creates a link with a long random token stored only as a hash, lists and revokes it", async () => {
    const { userId, auth } = await seedAccount();
    const other = await seedAccount();
    const { projectId } = await seedProject(userId);
    const s = await share(projectId, auth, { expires_in_hours: 48, allow_download: false });
    expect(s).toMatchObject({
      project_id: projectId,
      status: "active",
      has_password: false,
      allow_download: false,
      view_count: 0,
      revoked_at: null,
    });
    expect(s.id).toMatch(/^shr_/);
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    expect(s.url).toBe(`${env.PUBLIC_BASE_URL}/s/${s.token}`);
    expect(s.token_prefix).toBe(s.token.slice(0, 8));
    expect(Math.abs(Date.parse(s.expires_at) - (Date.now() + 48 * 3_600_000))).toBeLessThan(60_000);
    const stored = await env.DB.prepare("SELECT token_hash, password_hash FROM shares WHERE id = ?")
      .bind(s.id)
      .first<{ token_hash: string }>();
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(s.token);

    const withPassword = await share(projectId, auth, { password: "open sesame" });
    const hash = await env.DB.prepare("SELECT password_hash FROM shares WHERE id = ?")
      .bind(withPassword.id)
      .first<{ password_hash: string }>();
    expect(hash!.password_hash).toMatch(/^pbkdf2_sha256\$100000\$/);

    const listed = await body(await api(`/api/v1/projects/${projectId}/share`, { headers: auth }));
    expect(listed.map((x: any) => x.id)).toEqual([withPassword.id, s.id]);
    expect(listed.every((x: any) => x.token === null && x.url === null)).toBe(true);
    expect(listed[0].has_password).toBe(true);

    for (const bad of [
      { password: "abc" },
      { expires_at: "2020-01-01T00:00:00Z" },
      { expires_in_hours: 0 },
      { expires_at: "2099-01-01T00:00:00Z", expires_in_hours: 2 },
      { nope: 1 },
    ]) {
      const res = await api(`/api/v1/projects/${projectId}/share`, json("POST", auth, bad));
      await expectError(res, 422, "validation_error");
    }

    await expectError(await api(`/api/v1/share/${s.id}`, { method: "DELETE", headers: other.auth }), 404, "not_found");
    expect((await api(`/api/v1/share/${s.id}`, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await api(`/api/v1/share/${s.id}`, { method: "DELETE", headers: auth })).status).toBe(204);
    const revoked = (await body(await api(`/api/v1/projects/${projectId}/share`, { headers: auth }))).find((x: any) => x.id === s.id);
    expect(revoked.status).toBe("revoked");
    await expectError(await view(s.token), 410, "link_expired");
  });

  it("refuses to share a trashed project, and a trashed project's link stops working", async () => {
    const { userId, auth } = await seedAccount();
    const { projectId } = await seedProject(userId);
    const s = await share(projectId, auth);
    expect((await view(s.token)).status).toBe(200);
    await api(`/api/v1/projects/${projectId}`, { method: "DELETE", headers: auth });
    await expectError(await api(`/api/v1/projects/${projectId}/share`, json("POST", auth, {})), 409, "conflict");
    await expectError(await view(s.token), 410, "link_expired");
    await api(`/api/v1/projects/${projectId}/restore`, { method: "POST", headers: auth });
    expect((await view(s.token)).status).toBe(200);
  });
});

describe("share links: public side", () => {
  it("shows the project's pages, edited regions and tables without an account, and nothing else", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, {
      name: "Menu",
      tool: "translate",
      targetLanguage: "es",
      pages: [
        {
          width: 640,
          height: 480,
          regions: [
            { text: "Sop of the day", translation: "Sopa del día" },
            { text: "Bread", translation: "Pan" },
          ],
        },
      ],
      table: {
        page: 0,
        rows: 1,
        cols: 2,
        cells: [
          { row: 0, col: 0, text: "Tea" },
          { row: 0, col: 1, text: "2.00" },
        ],
      },
    });
    const secret = await seedProject(userId, { name: "Private diary", pages: [{ regions: [{ text: "my secret" }] }] });
    await api(
      `/api/v1/projects/${p.projectId}/regions/${p.regionIds[0]![0]}`,
      json("PATCH", auth, { text: "Soup of the day", translation: "Sopa del día (casera)" }),
    );
    const s = await share(p.projectId, auth);

    const res = await view(s.token);
    const v = await body(res);
    expect(res.status, JSON.stringify(v)).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(v.project).toEqual({
      name: "Menu",
      tool: "translate",
      source_language: "eng",
      target_language: "es",
      page_count: 1,
      updated_at: expect.any(String),
    });
    expect(v.pages).toHaveLength(1);
    expect(v.pages[0]).toMatchObject({ index: 0, width: 640, height: 480, render_url: null });
    expect(await (await fetchSigned(v.pages[0].image_url)).text()).toBe(`image 0 of ${p.projectId}`);
    expect(v.regions.map((r: any) => [r.order, r.text, r.translation])).toEqual([
      [0, "Soup of the day", "Sopa del día (casera)"],
      [1, "Bread", "Pan"],
    ]);
    expect(v.tables[0].cells.map((c: any) => c.text)).toEqual(["Tea", "2.00"]);
    expect(v).toMatchObject({ allow_download: true, expires_at: null });
    // Signed file URLs name storage keys (opaque ids, useless without a signature); the rest shows no id at all.
    const raw = JSON.stringify({ ...v, pages: v.pages.map((pg: any) => ({ ...pg, image_url: null })) });
    for (const leak of [
      userId,
      p.projectId,
      p.regionIds[0]![0],
      p.pageIds[0],
      s.id,
      "Private diary",
      "my secret",
      "Sop of the day",
      secret.projectId,
    ]) {
      expect(raw, `leaks ${leak}`).not.toContain(leak);
    }
    const listed = (await body(await api(`/api/v1/projects/${p.projectId}/share`, { headers: auth })))[0];
    expect(listed.view_count).toBe(1);
    expect(listed.last_viewed_at).not.toBeNull();

    await expectError(await view("not-a-real-token"), 404, "not_found");
    await expectError(await view(s.token.slice(0, -1)), 404, "not_found");
  });

  it("asks for the password with distinct codes for missing and wrong, and rate limits attempts", async () => {
    const { userId, auth } = await seedAccount();
    const { projectId } = await seedProject(userId, { export: true });
    const s = await share(projectId, auth, { password: "correct horse" });

    const missing = await expectError(await view(s.token), 401, "share_password_required");
    expect(missing.error.retryable).toBe(false);
    await expectError(await view(s.token, "?password=wrong"), 403, "share_password_invalid");
    expect((await view(s.token, "?password=correct%20horse")).status).toBe(200);
    await expectError(await api(`/api/v1/share/${s.token}/download`), 401, "share_password_required");
    await expectError(await api(`/api/v1/share/${s.token}/download?password=nope`), 403, "share_password_invalid");
    expect((await api(`/api/v1/share/${s.token}/download?password=correct%20horse`)).status).toBe(200);

    // RL_SHARE allows 30 password attempts a minute per link; the next are refused with Retry-After.
    // The attempts below take about a second: they are made inside one window of the limit.
    await startOfWindow(60, 10_000);
    let limited: Response | null = null;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await view(s.token, `?password=guess${i}`);
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(403);
    }
    expect(limited, "no 429 after 40 attempts").not.toBeNull();
    const err = await expectError(limited!, 429, "rate_limited");
    expect(err.error.retryable).toBe(true);
    expect(limited!.headers.get("Retry-After")).toBe("60");
    // Even the right password waits now: the limit is per link, not per guess.
    expect((await view(s.token, "?password=correct%20horse")).status).toBe(429);
    // Another link is not affected.
    const other = await share(projectId, auth, { password: "another one" });
    expect((await view(other.token, "?password=another%20one")).status).toBe(200);
  });

  it("answers 410 once the link has expired", async () => {
    const { userId, auth } = await seedAccount();
    const { projectId } = await seedProject(userId, { export: true });
    const s = await share(projectId, auth, { expires_in_hours: 1 });
    expect((await view(s.token)).status).toBe(200);
    await env.DB.prepare("UPDATE shares SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, s.id)
      .run();
    const gone = await expectError(await view(s.token), 410, "link_expired");
    expect(gone.error.details.status).toBe("expired");
    await expectError(await api(`/api/v1/share/${s.token}/download`), 410, "link_expired");
    expect((await body(await api(`/api/v1/projects/${projectId}/share`, { headers: auth })))[0].status).toBe("expired");
  });

  it("downloads the newest ready export of each format through signed URLs, when allowed", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, { name: "Letter", export: true, pages: [{ regions: [{ text: "Dear Ann" }] }] });
    const built = await body(await api(`/api/v1/projects/${p.projectId}/exports`, json("POST", auth, { format: "txt" })));
    expect(built.status).toBe("ready");
    const allowed = await share(p.projectId, auth);
    const res = await api(`/api/v1/share/${allowed.token}/download`);
    const d = await body(res);
    expect(res.status, JSON.stringify(d)).toBe(200);
    expect(d.project).toEqual({ name: "Letter" });
    expect(d.exports).toHaveLength(1);
    expect(d.exports[0]).toMatchObject({ format: "txt", filename: "Letter.txt", content_type: "text/plain; charset=utf-8" });
    expect(Date.parse(d.expires_at)).toBeGreaterThan(Date.now());
    const file = await fetchSigned(d.exports[0].url);
    expect(file.status).toBe(200);
    expect((await file.text()).trim()).toBe("Dear Ann");

    const viewOnly = await share(p.projectId, auth, { allow_download: false });
    await expectError(await api(`/api/v1/share/${viewOnly.token}/download`), 403, "forbidden");
    expect((await view(viewOnly.token)).status).toBe(200);
  });
});
