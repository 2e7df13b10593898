import { hmacSha256Hex, timingSafeEqualStr } from "../../lib/crypto";

/** Path under which the api Worker serves R2 files by signed URL. */
export const FILES_PATH = "/files/";

function payload(key: string, exp: number, filename: string): string {
  return `${key}\n${exp}\n${filename}`;
}

/** A short-lived URL for an R2 FILES object, signed with SIGNING_SECRET (HMAC-SHA256). */
export async function signFileUrl(secret: string, origin: string, key: string, filename: string, ttlSeconds: number, now = Date.now()) {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const sig = await hmacSha256Hex(secret, payload(key, exp, filename));
  const q = new URLSearchParams({ exp: String(exp), name: filename, sig });
  return { url: `${origin}${FILES_PATH}${key.split("/").map(encodeURIComponent).join("/")}?${q}`, expiresAt: new Date(exp * 1000) };
}

/** The R2 key a signed path names, or null when its percent-encoding is broken (no signed URL has that). */
function keyOf(url: URL): string | null {
  try {
    return url.pathname.slice(FILES_PATH.length).split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
}

/** Checks a signed URL; returns the key and filename when valid and unexpired. */
export async function verifyFileUrl(
  secret: string,
  url: URL,
  now = Date.now(),
): Promise<{ key: string; filename: string } | "expired" | "invalid"> {
  const key = keyOf(url);
  const exp = Number(url.searchParams.get("exp"));
  const filename = url.searchParams.get("name") ?? "";
  const sig = url.searchParams.get("sig") ?? "";
  if (!key || !Number.isInteger(exp) || !sig) return "invalid";
  const expected = await hmacSha256Hex(secret, payload(key, exp, filename));
  if (!timingSafeEqualStr(sig, expected)) return "invalid";
  if (exp * 1000 < now) return "expired";
  return { key, filename };
}
