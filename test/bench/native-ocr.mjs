// Native tesseract (Debian's tesseract-ocr) with the engine's own best_int models, for side-by-side runs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { modelFiles } from "../../scripts/models.mjs";

/** Unpacks the OCR models of `languages` (default: those dev seeds, scripts/models.mjs) into `dir` for `tesseract --tessdata-dir`. */
export function nativeTessdata(dir, languages) {
  mkdirSync(dir, { recursive: true });
  for (const { key, file } of modelFiles(languages)) {
    if (!key.startsWith("tessdata/")) continue;
    const out = path.join(dir, path.basename(key, ".gz"));
    if (!existsSync(out)) writeFileSync(out, gunzipSync(readFileSync(file)));
  }
}

/** CPU time (user + system, ms) of a process, or of the children it has waited for (`children`), from /proc. */
export function cpuMs(pid = process.pid, children = false) {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // Fields 14-17 of stat (utime, stime, cutime, cstime), counted from field 3 here; clock ticks of 10 ms.
  const [ut, st, cut, cst] = f.slice(11, 15).map(Number);
  return (children ? cut + cst : ut + st) * 10;
}

/** `extra`: more arguments (`--psm 5`, output configs such as `pdf` after `stdout`). */
export function runNative(file, lang, tessdata, extra = []) {
  const t0 = performance.now();
  const c0 = cpuMs(process.pid, true);
  // One thread, like the engine's wasm. With OpenMP's default threads, Debian's tesseract spends
  // most of its time spinning on a shared 2-core machine (an A4 page: 16 s instead of 2.6 s).
  const r = spawnSync("tesseract", [file, "stdout", "-l", lang, "--tessdata-dir", tessdata, ...extra], {
    encoding: "utf8",
    env: { ...process.env, OMP_THREAD_LIMIT: "1" },
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`tesseract failed: ${r.stderr}`);
  return { text: r.stdout, ms, cpuMs: cpuMs(process.pid, true) - c0 };
}

/**
 * `runNative` with tesseract's word confidences from the same run (its TSV output beside the
 * text): `words` are the recognised words with their confidence, 0..100.
 */
export function runNativeWithWords(file, lang, tessdata, outBase) {
  const t0 = performance.now();
  const r = spawnSync(
    "tesseract",
    [file, outBase, "-l", lang, "--tessdata-dir", tessdata, "-c", "tessedit_create_txt=1", "-c", "tessedit_create_tsv=1"],
    { encoding: "utf8", env: { ...process.env, OMP_THREAD_LIMIT: "1" } },
  );
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`tesseract failed: ${r.stderr}`);
  const words = readFileSync(`${outBase}.tsv`, "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"))
    .filter((c) => c[0] === "5" && c[11]?.trim())
    .map((c) => ({ text: c[11], conf: Number(c[10]) }));
  return { text: readFileSync(`${outBase}.txt`, "utf8"), words, ms };
}
