import type { TestProject } from "vitest/node";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { modelFiles } from "../../scripts/models.mjs";
import { TEXTS } from "../bench/ocr-texts.mjs";
/** Models of the real pages the tests read beyond the test texts (test/fixtures/real: a Persian page). */
const REAL_PAGE_MODELS = ["fas"];

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Loopback server: independent file readers (poppler, libxml2) run on posted bytes, and
     * `GET /models/<key>` serves model files too large to pass through `provide` (the CJK font),
     * `GET /pictures/<name>` the pictures of test/fixtures/pictures.
     */
    readersUrl: string;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The readers: poppler-utils' `pdftotext`/`pdfinfo`, libxml2's `xmllint` (hOCR against the XHTML
 * 1.0 Transitional DTD from w3c-sgml-lib's catalog, offline; ALTO against alto-4-subset.xsd).
 * Each answers `{ code, stdout, stderr }` for the file posted to `/<reader>`.
 */
const READERS: Record<string, (file: string) => [string, string[]]> = {
  pdftotext: (f) => ["pdftotext", ["-enc", "UTF-8", f, "-"]],
  "pdftotext-layout": (f) => ["pdftotext", ["-layout", "-enc", "UTF-8", f, "-"]],
  "pdftotext-bbox": (f) => ["pdftotext", ["-bbox", "-enc", "UTF-8", f, "-"]],
  pdfinfo: (f) => ["pdfinfo", [f]],
  "xmllint-xhtml": (f) => ["xmllint", ["--noout", "--nonet", "--valid", f]],
  "xmllint-alto": (f) => ["xmllint", ["--noout", "--nonet", "--schema", path.join(here, "alto-4-subset.xsd"), f]],
};

const PICTURES = path.join(here, "../fixtures/pictures");

let server: Server | undefined;
let dir: string | undefined;

export default async function setup(project: TestProject) {
  dir = mkdtempSync(path.join(tmpdir(), "lingoscan-readers-"));
  let n = 0;
  const models = new Map(
    modelFiles([...Object.keys(TEXTS), ...REAL_PAGE_MODELS]).map((m: { key: string; file: string }) => [m.key, m.file]),
  );
  server = createServer((req, res) => {
    const url = req.url ?? "";
    if (req.method === "GET" && url.startsWith("/models/")) {
      const file = models.get(decodeURIComponent(url.slice("/models/".length)));
      if (!file) res.writeHead(404).end();
      else res.writeHead(200, { "Content-Type": "application/octet-stream" }).end(readFileSync(file));
      return;
    }
    // Pictures too large to pass through `provide` with the real fixtures (test/fixtures/pictures).
    if (req.method === "GET" && url.startsWith("/pictures/")) {
      const file = path.join(PICTURES, path.basename(decodeURIComponent(url.slice("/pictures/".length))));
      if (!existsSync(file)) res.writeHead(404).end();
      else res.writeHead(200, { "Content-Type": "application/octet-stream" }).end(readFileSync(file));
      return;
    }
    const reader = READERS[(req.url ?? "").slice(1)];
    if (!reader || req.method !== "POST") {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const file = path.join(dir!, `in-${n++}`);
      writeFileSync(file, Buffer.concat(chunks));
      const [cmd, args] = reader(file);
      execFile(cmd, args, { maxBuffer: 20 * 1024 * 1024 }, (err, stdout, stderr) => {
        rmSync(file, { force: true });
        const code = err ? (typeof err.code === "number" ? err.code : 127) : 0;
        res
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify({ code, stdout, stderr: stderr || (err && code === 127 ? String(err.message) : "") }));
      });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  project.provide("readersUrl", `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`);
  return async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
