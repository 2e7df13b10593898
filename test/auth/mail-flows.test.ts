import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { HttpApiMailer } from "../../src/providers/mail/http-api";
import { mailer } from "../../src/providers/mail/mailer";
import { api, body } from "../helpers/api";
import { mailsTo, PASSWORD, registered, SessionClient, uniqueEmail, waitForMail } from "./session-client";

const post = (path: string, json: unknown) =>
  api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(json) });

/** Headers of an answer without the ones that differ per request by design. */
function stableHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([k]) => k !== "x-request-id"));
}

describe("email verification", () => {
  it("mails a link at registration; the token confirms the address once", async () => {
    const { email, client } = await registered();
    const mail = await waitForMail(email, "verify_email");
    expect(mail.text).toContain("http://127.0.0.1:8787/verify-email?token=");
    // Only the hash of the token is stored.
    const stored = await env.DB.prepare("SELECT token_hash FROM auth_tokens WHERE purpose = 'verify_email' AND email = ?")
      .bind(email)
      .first<{ token_hash: string }>();
    expect(stored!.token_hash).not.toBe(mail.token);

    const res = await post("/api/v1/auth/verify-email", { token: mail.token });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b).toMatchObject({ email, email_verified: true });
    expect(await body(await client.fetch("/api/v1/auth/me"))).toMatchObject({ email_verified: true });

    const again = await post("/api/v1/auth/verify-email", { token: mail.token });
    const ba = await body(again);
    expect(again.status, JSON.stringify(ba)).toBe(400);
    expect(ba.error.code).toBe("invalid_token");
    const resend = await client.fetch("/api/v1/auth/resend-verification", { method: "POST" });
    expect((await body(resend)).error.code).toBe("conflict");
  });

  it("resends a new link that replaces the old one; expired links answer 410", async () => {
    const { email, client } = await registered();
    const first = await waitForMail(email, "verify_email");
    const res = await client.fetch("/api/v1/auth/resend-verification", { method: "POST" });
    expect(res.status).toBe(202);
    expect(await body(res)).toEqual({ accepted: true });
    await expect.poll(async () => (await mailsTo(email)).filter((m) => m.kind === "verify_email").length).toBe(2);
    const second = await waitForMail(email, "verify_email");
    expect(second.token).not.toBe(first.token);
    expect((await body(await post("/api/v1/auth/verify-email", { token: first.token }))).error.code).toBe("invalid_token");

    await env.DB.prepare("UPDATE auth_tokens SET expires_at = ? WHERE purpose = 'verify_email' AND email = ?")
      .bind(Date.now() - 1, email)
      .run();
    const expired = await post("/api/v1/auth/verify-email", { token: second.token });
    const b = await body(expired);
    expect(expired.status, JSON.stringify(b)).toBe(410);
    expect(b.error.code).toBe("link_expired");
  });
});

describe("magic link", () => {
  it("answers the same for an existing and an unknown address", async () => {
    const { email } = await registered();
    const unknown = uniqueEmail("nobody");
    const a = await post("/api/v1/auth/magic-link", { email });
    const b = await post("/api/v1/auth/magic-link", { email: unknown });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(await a.text()).toBe(await b.text());
    expect(stableHeaders(a)).toEqual(stableHeaders(b));
  });

  it("signs in an existing account once per link", async () => {
    const { email, user } = await registered();
    await post("/api/v1/auth/magic-link", { email });
    const mail = await waitForMail(email, "magic_link");
    expect(mail.text).toContain("/magic-link?token=");
    const client = new SessionClient();
    const res = await client.fetch("/api/v1/auth/magic-link/verify", { method: "POST", json: { token: mail.token } });
    const b = await client.json(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b).toMatchObject({ status: "authenticated", user: { id: user.id, email_verified: true } });
    expect((await client.fetch("/api/v1/auth/me")).status).toBe(200);

    const reuse = await post("/api/v1/auth/magic-link/verify", { token: mail.token });
    expect((await body(reuse)).error.code).toBe("invalid_token");
  });

  it("creates a password-less, verified account for a new address", async () => {
    const email = uniqueEmail("newcomer");
    await post("/api/v1/auth/magic-link", { email });
    const mail = await waitForMail(email, "magic_link");
    const res = await post("/api/v1/auth/magic-link/verify", { token: mail.token });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b.user).toMatchObject({ email, email_verified: true, has_password: false });
  });

  it("refuses an expired link with 410 and an unknown one with 400", async () => {
    const { email } = await registered();
    await post("/api/v1/auth/magic-link", { email });
    const mail = await waitForMail(email, "magic_link");
    await env.DB.prepare("UPDATE auth_tokens SET expires_at = ? WHERE purpose = 'magic_link' AND email = ?")
      .bind(Date.now() - 1, email)
      .run();
    const expired = await post("/api/v1/auth/magic-link/verify", { token: mail.token });
    expect(expired.status).toBe(410);
    expect((await body(expired)).error.code).toBe("link_expired");
    const unknown = await post("/api/v1/auth/magic-link/verify", { token: "x".repeat(43) });
    expect((await body(unknown)).error.code).toBe("invalid_token");
  });
});

describe("forgot and reset password", () => {
  it("answers the same for an existing and an unknown address, and mails only the account", async () => {
    const { email } = await registered();
    const unknown = uniqueEmail("ghost");
    const a = await post("/api/v1/auth/forgot-password", { email });
    const b = await post("/api/v1/auth/forgot-password", { email: unknown });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(await a.text()).toBe(await b.text());
    expect(stableHeaders(a)).toEqual(stableHeaders(b));
    await waitForMail(email, "reset_password");
    expect(await mailsTo(unknown)).toEqual([]);
  });

  it("resets with the token, ends every session, and the token works once", async () => {
    const { email, client } = await registered();
    const other = new SessionClient();
    await other.json(await other.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } }));
    await post("/api/v1/auth/forgot-password", { email });
    const mail = await waitForMail(email, "reset_password");

    // A refused password does not use up the link.
    const weak = await post("/api/v1/auth/reset-password", { token: mail.token, password: "short" });
    const bw = await body(weak);
    expect(weak.status, JSON.stringify(bw)).toBe(422);
    expect(bw.error.message).toBe("Password must be at least 10 characters long.");

    const res = await post("/api/v1/auth/reset-password", { token: mail.token, password: "a-fresh-start-2031" });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b).toMatchObject({ email, email_verified: true });
    expect((await client.fetch("/api/v1/auth/me")).status).toBe(401);
    expect((await other.fetch("/api/v1/auth/me")).status).toBe(401);
    expect((await post("/api/v1/auth/login", { email, password: PASSWORD })).status).toBe(401);
    expect((await post("/api/v1/auth/login", { email, password: "a-fresh-start-2031" })).status).toBe(200);

    const reuse = await post("/api/v1/auth/reset-password", { token: mail.token, password: "yet-another-secret-42" });
    expect((await body(reuse)).error.code).toBe("invalid_token");
  });
});

describe("mail providers", () => {
  it("refuses the development outbox endpoint outside development", async () => {
    const res = await createApp().request("/api/v1/dev/outbox", {}, { ...env, ENVIRONMENT: "production", MAIL_PROVIDER: "http" }, {
      waitUntil: () => undefined,
      passThroughOnException: () => undefined,
      props: {},
    } as unknown as ExecutionContext);
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(403);
    expect(b.error.code).toBe("forbidden");
  });

  it("refuses to use the outbox provider in production", () => {
    expect(() => mailer({ ...env, ENVIRONMENT: "production", MAIL_PROVIDER: "outbox" })).toThrow(/only in development/);
    expect(() => mailer({ ...env, MAIL_PROVIDER: "http", MAIL_API_KEY: "" })).toThrow(/MAIL_API_KEY/);
  });

  it("sends through the HTTP mail API with the key, sender and message", async () => {
    const calls: Request[] = [];
    const fake = (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(new Request(input, init));
      return new Response('{"id":"m_1"}', { status: 200 });
    }) as typeof fetch;
    const m = mailer(
      {
        ...env,
        ENVIRONMENT: "production",
        MAIL_PROVIDER: "http",
        MAIL_API_KEY: "re_secret",
        MAIL_API_URL: "https://mail.example.test/emails",
      },
      fake,
    );
    expect(m).toBeInstanceOf(HttpApiMailer);
    await m.send({ to: "ada@example.com", subject: "Hello", text: "Body", kind: "magic_link" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("https://mail.example.test/emails");
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer re_secret");
    expect(await calls[0]!.json()).toEqual({
      from: env.MAIL_FROM,
      to: ["ada@example.com"],
      subject: "Hello",
      text: "Body",
      tags: [{ name: "kind", value: "magic_link" }],
    });

    const failing = new HttpApiMailer(
      { url: "https://mail.example.test/emails", apiKey: "k", from: "a@b.c" },
      (async () => new Response("quota exceeded", { status: 429 })) as typeof fetch,
    );
    await expect(failing.send({ to: "x@example.com", subject: "s", text: "t", kind: "k" })).rejects.toThrow(/429: quota exceeded/);
  });
});
