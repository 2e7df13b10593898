import { describe, expect, it } from "vitest";
import { api, body } from "../helpers/api";
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from "../../src/modules/auth/password";
import { uniqueEmail } from "./session-client";

describe("password hashing", () => {
  it("verifies the right password only, with a fresh salt each time", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("correct horse battery", "md5$abc")).toBe(false);
    expect(needsRehash(a)).toBe(false);
  });

  it("reads older parameters from the stored string and asks to re-hash them", async () => {
    // A hash made with 1,000 iterations (computed independently with WebCrypto).
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("legacy password"), "PBKDF2", false, ["deriveBits"]);
    const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 1000 }, key, 256));
    const b64 = (u: Uint8Array) =>
      btoa(String.fromCharCode(...u))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replaceAll("=", "");
    const stored = `pbkdf2_sha256$1000$${b64(salt)}$${b64(bits)}`;
    expect(await verifyPassword("legacy password", stored)).toBe(true);
    expect(needsRehash(stored)).toBe(true);
  });
});

describe.each([
  ["short1", "Password must be at least 10 characters long."],
  ["x".repeat(257), "Password must be at most 256 characters long."],
  ["          ", "Password must not be only spaces."],
  ["abababababab", "Password must use at least 4 different characters."],
  ["Password123", "This password is too common; choose another one."],
  ["ada.lovelace-2024", "Password must not contain your email address."],
])("password policy: %j", (password, message) => {
  it("is refused with a clear message", () => {
    expect(passwordProblem(password, "ada.lovelace@example.com")).toBe(message);
  });

  it("answers 422 at registration with that message on the password field", async () => {
    const res = await api("/api/v1/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "ada.lovelace@example.com", password }),
    });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(422);
    expect(b.error.code).toBe("validation_error");
    expect(b.error.message).toBe(message);
    expect(b.error.details.fields).toEqual([{ location: "json", field: "password", message, code: "password_policy" }]);
  });
});

it("accepts a long passphrase", async () => {
  expect(passwordProblem("violet otters sing at noon", "someone@example.com")).toBeNull();
  const res = await api("/api/v1/auth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: uniqueEmail(), password: "violet otters sing at noon" }),
  });
  expect(res.status, JSON.stringify(await body(res))).toBe(201);
});
