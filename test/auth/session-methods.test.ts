import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { body } from "../helpers/api";
import { PASSWORD, registered, SessionClient, waitForMail } from "./session-client";

/** The caller's own entry in GET /auth/sessions. */
async function currentSession(client: SessionClient) {
  const res = await client.fetch("/api/v1/auth/sessions");
  const list = await body(res);
  expect(res.status, JSON.stringify(list)).toBe(200);
  const current = list.find((s: any) => s.current);
  expect(current, JSON.stringify(list)).toBeDefined();
  return current;
}

describe("the sign-in method of each session", () => {
  it("records register, password and magic link, each on its own session", async () => {
    const { client, email } = await registered();
    expect(await currentSession(client)).toMatchObject({ method: "register" });

    const withPassword = new SessionClient();
    const login = await withPassword.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } });
    expect(login.status, JSON.stringify(await withPassword.json(login))).toBe(200);
    expect(await currentSession(withPassword)).toMatchObject({ method: "password" });

    const withLink = new SessionClient();
    await withLink.fetch("/api/v1/auth/magic-link", { method: "POST", json: { email } });
    const mail = await waitForMail(email, "magic_link");
    const verified = await withLink.fetch("/api/v1/auth/magic-link/verify", { method: "POST", json: { token: mail.token } });
    expect(verified.status, JSON.stringify(await withLink.json(verified))).toBe(200);
    expect(await currentSession(withLink)).toMatchObject({ method: "magic_link" });

    // Every session of the account shows its own method to any of them.
    const all = await body(await client.fetch("/api/v1/auth/sessions"));
    expect(all.map((s: any) => s.method).sort()).toEqual(["magic_link", "password", "register"]);
  });

  it("keeps the first factor's method through the two-factor step", async () => {
    const { client, email } = await registered();
    const setup = await body(await client.fetch("/api/v1/auth/2fa/start", { method: "POST" }));
    expect(
      (await client.fetch("/api/v1/auth/2fa/confirm", { method: "POST", json: { code: await generate({ secret: setup.secret }) } })).status,
    ).toBe(204);

    const second = new SessionClient();
    const login = await second.json(await second.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } }));
    expect(login.status).toBe("two_factor_required");
    const verify = await second.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: setup.recovery_codes[0] } });
    expect(verify.status, JSON.stringify(await second.json(verify))).toBe(200);
    expect(await currentSession(second)).toMatchObject({ method: "password" });
  });
});
