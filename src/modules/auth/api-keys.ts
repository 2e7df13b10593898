import { base64Url } from "../../lib/ids";
import { sha256Hex } from "../../lib/crypto";

export const API_KEY_PREFIX = "lik_live_";

/** A new API key: the full secret (shown once), its SHA-256 hash (stored) and a display prefix. */
export async function mintApiKey(): Promise<{ key: string; hash: string; prefix: string }> {
  const key = API_KEY_PREFIX + base64Url(crypto.getRandomValues(new Uint8Array(32)));
  return { key, hash: await sha256Hex(key), prefix: key.slice(0, API_KEY_PREFIX.length + 4) };
}

/**
 * API keys carry 256 random bits, so a fast hash is enough to make a leaked table useless
 * (unlike passwords, which need a slow KDF).
 */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}
