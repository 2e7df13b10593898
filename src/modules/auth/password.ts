import { timingSafeEqualStr } from "../../lib/crypto";
import { base64Url } from "../../lib/ids";

/**
 * Passwords are hashed with PBKDF2-SHA256, the slow KDF WebCrypto offers in Workers (which caps it
 * at 100,000 iterations). The stored string names the algorithm and its parameters:
 * `pbkdf2_sha256$<iterations>$<salt>$<hash>` (salt and hash url-safe base64), so the cost can be
 * raised later: `needsRehash` tells when a stored hash is weaker than the current parameters.
 */
const ALGORITHM = "pbkdf2_sha256";
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

async function derive(password: string, salt: Uint8Array, iterations: number, bytes: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password.normalize("NFKC")), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, bytes * 8);
  return new Uint8Array(bits);
}

function fromBase64Url(s: string): Uint8Array {
  const b64 = s.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (s.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

/** Hashes a password into the self-describing string stored in `users.password_hash`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS, HASH_BYTES);
  return `${ALGORITHM}$${PBKDF2_ITERATIONS}$${base64Url(salt)}$${base64Url(hash)}`;
}

/** Checks a password against a stored hash string; an unknown format never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algorithm, iter, salt, hash] = stored.split("$");
  const iterations = Number(iter);
  if (algorithm !== ALGORITHM || !salt || !hash || !Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS)
    return false;
  const expected = fromBase64Url(hash);
  const actual = await derive(password, fromBase64Url(salt), iterations, expected.length);
  return timingSafeEqualStr(base64Url(actual), hash);
}

/** Whether a stored hash uses weaker parameters than new hashes do (re-hash it at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const [algorithm, iter] = stored.split("$");
  return algorithm !== ALGORITHM || Number(iter) < PBKDF2_ITERATIONS;
}

/**
 * A hash of a random password, verified against when the account does not exist or has no
 * password, so that sign-in takes the same time either way (no account enumeration by timing).
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(base64Url(crypto.getRandomValues(new Uint8Array(16))));
  return decoy;
}

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/** Passwords that appear at the top of every breach list; refused whatever their length. */
const COMMON = new Set([
  "password",
  "password1",
  "password12",
  "password123",
  "password1234",
  "passw0rd",
  "1234567890",
  "12345678910",
  "0123456789",
  "qwertyuiop",
  "qwerty1234",
  "qwerty12345",
  "1q2w3e4r5t",
  "1qaz2wsx3edc",
  "iloveyou12",
  "letmein123",
  "welcome123",
  "admin12345",
  "administrator",
  "abcdefghij",
  "abc1234567",
  "aaaaaaaaaa",
  "changeme123",
  "football123",
  "baseball123",
  "sunshine123",
  "princess123",
  "dragon1234",
  "monkey1234",
  "trustno1234",
  "lingoscan123",
  "lingoscan1",
]);

/**
 * The password policy (NIST SP 800-63B style: length over composition rules). Returns the reason a
 * password is refused, or null when it is acceptable.
 */
export function passwordProblem(password: string, email?: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`;
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters long.`;
  if (password.trim().length === 0) return "Password must not be only spaces.";
  if (new Set(password).size < 4) return "Password must use at least 4 different characters.";
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return "This password is too common; choose another one.";
  if (email) {
    const local = email.toLowerCase().split("@")[0] ?? "";
    if (lower === email.toLowerCase() || (local.length >= 4 && lower.includes(local)))
      return "Password must not contain your email address.";
  }
  return null;
}
