import { engineError } from "../errors";

/** Reads a whole object as bytes, or fails with `[not_found]`. */
export async function readBytes(bucket: R2Bucket, key: string, what = "file"): Promise<Uint8Array> {
  const obj = await bucket.get(key);
  if (!obj) throw engineError("not_found", `No ${what} at key ${JSON.stringify(key)}.`);
  return new Uint8Array(await obj.arrayBuffer());
}

export async function readJson<T>(bucket: R2Bucket, key: string, what: string): Promise<T> {
  const obj = await bucket.get(key);
  if (!obj) throw engineError("not_found", `No ${what} at key ${JSON.stringify(key)}.`);
  try {
    return (await obj.json()) as T;
  } catch {
    throw engineError("corrupt_file", `The ${what} at ${JSON.stringify(key)} is not valid JSON.`);
  }
}

/** Writes `body` and returns its size in bytes. */
export async function writeObject(
  bucket: R2Bucket,
  key: string,
  body: Uint8Array | string,
  contentType: string,
  customMetadata?: Record<string, string>,
): Promise<number> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  await bucket.put(key, bytes, { httpMetadata: { contentType }, ...(customMetadata ? { customMetadata } : {}) });
  return bytes.byteLength;
}

export function writeJson(bucket: R2Bucket, key: string, value: unknown): Promise<number> {
  return writeObject(bucket, key, JSON.stringify(value), "application/json");
}

/** Every key under `prefix`, following list() pagination. */
export async function listKeys(bucket: R2Bucket, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    for (const o of page.objects) keys.push(o.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}
