import { unzipSync } from "fflate";
import { env } from "cloudflare:workers";
import { inject } from "vitest";

/** Runs an independent reader (see tools-global-setup.ts) on a file's bytes. */
export async function read(
  reader: "pdftotext" | "pdftotext-layout" | "pdftotext-bbox" | "pdfinfo" | "xmllint-xhtml" | "xmllint-alto",
  bytes: Uint8Array,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const res = await fetch(`${inject("readersUrl")}/${reader}`, { method: "POST", body: bytes });
  if (!res.ok) throw new Error(`reader ${reader}: HTTP ${res.status}`);
  return res.json();
}

export async function stored(key: string): Promise<Uint8Array> {
  const obj = await env.FILES.get(key);
  if (!obj) throw new Error(`nothing at ${key}`);
  return new Uint8Array(await obj.arrayBuffer());
}

export function unzip(bytes: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, data] of Object.entries(unzipSync(bytes))) out[name] = new TextDecoder().decode(data);
  return out;
}

/** Text content of the XML elements named `tag` (e.g. w:t), in document order. */
export function texts(xmlText: string, tag: string): string[] {
  return [...xmlText.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`, "g"))].map((m) =>
    m[1]!
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
  );
}

export const squash = (s: string) => s.replace(/\s+/g, " ").trim();
