import { sha256Hex } from "../../lib/crypto";

/** Session cookie tokens carry 256 random bits: a fast hash is enough to make a leaked table useless. */
export function hashSessionToken(token: string): Promise<string> {
  return sha256Hex(`session:${token}`);
}
