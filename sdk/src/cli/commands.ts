import { mkdirSync, openAsBlob, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Lingoscan, type Job, type ProcessOptions } from "../client.js";
import { LingoscanError } from "../errors.js";
import { progressReporter } from "./progress.js";

export interface Flags {
  json: boolean;
  quiet: boolean;
  out?: string;
  lang?: string;
  to?: string;
  formats?: string[];
  tool?: string;
  status?: string;
  limit?: number;
  format?: string;
  content?: string;
}

export interface Io {
  stdout: (s: string) => void;
  stderr: NodeJS.WriteStream;
}

/** What a processing command asks for by default, and which export it prints on stdout. */
const TOOL_COMMANDS = {
  ocr: { tool: "ocr", formats: ["txt"], print: "txt" },
  translate: { tool: "translate", formats: ["png", "txt"], print: "txt" },
  erase: { tool: "erase", formats: ["png"], print: null },
  tables: { tool: "tables", formats: ["csv", "xlsx"], print: "csv" },
} as const;
export type ToolCommand = keyof typeof TOOL_COMMANDS;
export const TOOL_COMMAND_NAMES = Object.keys(TOOL_COMMANDS) as ToolCommand[];

async function fileInput(file: string) {
  return { name: path.basename(file), data: await openAsBlob(file) };
}

function failIfUnsuccessful(job: Job): void {
  if (job.status === "completed" || job.status === "partially_completed") return;
  const e = job.error;
  throw new LingoscanError({
    code: e?.code ?? "internal_error",
    message: `Job ${job.id} ${job.status}: ${e?.message ?? "no result"}`,
    retryable: e?.retryable ?? false,
    details: { job_id: job.id, ...(e?.details ?? {}) },
  });
}

async function follow(ls: Lingoscan, job: Job, label: string, flags: Flags, io: Io): Promise<Job> {
  const bar = progressReporter(label, { quiet: flags.quiet || flags.json, stream: io.stderr });
  try {
    return await ls.waitForJob(job.id, { onEvent: bar.onEvent });
  } finally {
    bar.end();
  }
}

/** Saves the job's exports (all of them with --out; else those not printed, into the current directory). */
async function saveExports(
  ls: Lingoscan,
  job: Job,
  flags: Flags,
  skip: string | null,
  io: Io,
): Promise<{ printed: string | null; saved: string[] }> {
  let printed: string | null = null;
  const saved: string[] = [];
  for (const ref of job.output.exports) {
    const file = await ls.download(ref);
    if (ref.format === skip && printed === null) printed = new TextDecoder().decode(file.bytes);
    if (ref.format === skip && !flags.out) continue;
    const dir = flags.out ?? ".";
    mkdirSync(dir, { recursive: true });
    const target = path.join(dir, path.basename(file.filename || ref.filename));
    writeFileSync(target, file.bytes);
    saved.push(target);
    if (!flags.json && !flags.quiet) io.stderr.write(`saved ${target} (${file.bytes.length} bytes)\n`);
  }
  return { printed, saved };
}

/** `ocr|translate|erase|tables FILE`: upload, follow, print the text (or table) and save the other exports. */
export async function runTool(ls: Lingoscan, command: ToolCommand, file: string, flags: Flags, io: Io): Promise<void> {
  const spec = TOOL_COMMANDS[command];
  const options: Partial<ProcessOptions> = {
    tool: spec.tool,
    export_formats: (flags.formats ?? [...spec.formats]) as ProcessOptions["export_formats"],
  };
  if (flags.lang) options.source_language = flags.lang;
  if (flags.to) options.target_language = flags.to;
  const job = await follow(ls, await ls.process(await fileInput(file), options), path.basename(file), flags, io);
  failIfUnsuccessful(job);
  const { printed, saved } = await saveExports(ls, job, flags, spec.print, io);
  if (flags.json) io.stdout(JSON.stringify({ job, text: printed, saved }, null, 2));
  else if (printed !== null) io.stdout(printed.replace(/\n*$/, ""));
}

/** `batch DIR`: every file directly in DIR as one batch; the parent's ZIP and CSV report are saved. */
export async function runBatch(ls: Lingoscan, dir: string, flags: Flags, io: Io): Promise<void> {
  const names = readdirSync(dir)
    .filter((n) => !n.startsWith(".") && statSync(path.join(dir, n)).isFile())
    .sort();
  if (names.length === 0) throw new Error(`${dir} holds no files`);
  const files = await Promise.all(names.map((n) => fileInput(path.join(dir, n))));
  const options: Partial<ProcessOptions> = { tool: (flags.tool ?? "ocr") as ProcessOptions["tool"] };
  if (flags.formats) options.export_formats = flags.formats as ProcessOptions["export_formats"];
  if (flags.lang) options.source_language = flags.lang;
  if (flags.to) options.target_language = flags.to;
  const parent = await follow(ls, await ls.batch(files, options), `${names.length} files`, flags, io);
  const { saved } = await saveExports(ls, parent, { ...flags, out: flags.out ?? "." }, null, io);
  if (flags.json) io.stdout(JSON.stringify({ job: parent, saved }, null, 2));
  else
    io.stdout(
      `batch ${parent.id} ${parent.status}: ${parent.batch?.files_completed ?? 0} completed, ${parent.batch?.files_partially_completed ?? 0} partially, ${parent.batch?.files_failed ?? 0} failed of ${parent.batch?.files_total ?? names.length}`,
    );
  failIfUnsuccessful(parent);
}

/** `jobs [ID]`: one job as JSON, or a page of jobs as a table (or JSON). */
export async function runJobs(ls: Lingoscan, id: string | undefined, flags: Flags, io: Io): Promise<void> {
  if (id) {
    io.stdout(JSON.stringify(await ls.getJob(id), null, 2));
    return;
  }
  const list = await ls.listJobs({
    ...(flags.status ? { job_status: flags.status as Job["status"] } : {}),
    ...(flags.tool ? { job_type: flags.tool as Job["tool"] } : {}),
    limit: flags.limit ?? 20,
  });
  if (flags.json) {
    io.stdout(JSON.stringify(list, null, 2));
    return;
  }
  const rows = list.items.map((j) => [j.id, j.tool, j.kind, j.status, `${j.progress.percent}%`, j.source.name ?? "", j.created_at]);
  const head = ["ID", "TOOL", "KIND", "STATUS", "DONE", "FILE", "CREATED"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  io.stdout(
    [head, ...rows]
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i]!))
          .join("  ")
          .trimEnd(),
      )
      .join("\n"),
  );
  io.stdout(`${list.items.length} of ${list.total}`);
}

/** `export PROJECT_ID --format F`: builds an export of the project (with its edits) and saves it. */
export async function runExport(ls: Lingoscan, projectId: string, flags: Flags, io: Io): Promise<void> {
  if (!flags.format) throw new Error("export needs --format (e.g. pdf, docx, txt)");
  const created = await ls.createExport(projectId, {
    format: flags.format as never,
    content: (flags.content ?? "source") as "source" | "translation",
  });
  const exp = await ls.waitForExport(created);
  if (exp.status !== "ready") throw new Error(`Export ${exp.id} ${exp.status}`);
  const file = await ls.download(exp);
  const dir = flags.out ?? ".";
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, path.basename(file.filename));
  writeFileSync(target, file.bytes);
  io.stdout(flags.json ? JSON.stringify({ export: exp, saved: target }, null, 2) : target);
}
