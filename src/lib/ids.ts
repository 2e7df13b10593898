const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Random, unguessable id with a type prefix, e.g. `job_3k9…` (20 base36 chars, ~103 bits). */
export function newId(prefix: string, length = 20): string {
  let s = "";
  while (s.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length))) {
      // 252 = 7 × 36: rejecting 252..255 keeps every character equally likely.
      if (b < 252 && s.length < length) s += ALPHABET[b % 36];
    }
  }
  return `${prefix}_${s}`;
}

/** Random secret for credentials and links: url-safe base64 of 32 random bytes. */
export function newToken(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

export function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
}

/** A project's page id: stable per project and 0-based index, so a retried stage rewrites the same row. */
export function pageIdOf(projectId: string, pageIndex: number): string {
  return `pg_${projectId.slice(4)}_${pageIndex}`;
}
