#!/usr/bin/env node
// `lingoscan`: the command-line tool on the SDK. `lingoscan help` lists the commands.
import { parseArgs } from "node:util";
import { Lingoscan } from "../client.js";
import { LingoscanError } from "../errors.js";
import { runBatch, runExport, runJobs, runTool, TOOL_COMMAND_NAMES, type Flags, type ToolCommand } from "./commands.js";
import { configPath, DEFAULT_BASE_URL, resolveSettings } from "./config.js";

const USAGE = `Usage: lingoscan <command> [options]

Commands:
  ocr FILE                 recognise the text; prints it
  translate FILE --to LANG translate the text in the image; prints the text, saves the image
  erase FILE               remove the text; saves the clean image
  tables FILE              extract tables; prints CSV, saves the spreadsheet
  batch DIR [--tool T]     process every file in DIR as one batch; saves the ZIP and CSV report
  jobs [ID]                list recent jobs (--status, --tool, --limit), or show one
  export PROJECT --format F  build an export of a project (with its edits) and save it

Options:
  --lang CODE         source language (default en)
  --to CODE           target language (translate)
  --formats a,b       export formats to produce
  --out DIR           save every export into DIR
  --content source|translation   (export) which text to export
  --json              machine-readable output on stdout (no progress)
  --quiet             no progress on stderr
  --base-url URL      default: LINGOSCAN_BASE_URL, the config file, or ${DEFAULT_BASE_URL}
  --api-key KEY       default: LINGOSCAN_API_KEY or the config file (${configPath()})
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      quiet: { type: "boolean", short: "q", default: false },
      out: { type: "string", short: "o" },
      lang: { type: "string" },
      to: { type: "string" },
      formats: { type: "string" },
      tool: { type: "string" },
      status: { type: "string" },
      limit: { type: "string" },
      format: { type: "string" },
      content: { type: "string" },
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, arg] = positionals;
  if (!command || values.help || command === "help") {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  const flags: Flags = {
    json: values.json,
    quiet: values.quiet,
    out: values.out,
    lang: values.lang,
    to: values.to,
    formats: values.formats
      ?.split(",")
      .map((f) => f.trim())
      .filter(Boolean),
    tool: values.tool,
    status: values.status,
    limit: values.limit === undefined ? undefined : Number(values.limit),
    format: values.format,
    content: values.content,
  };
  const ls = new Lingoscan({
    ...resolveSettings({ apiKey: values["api-key"], baseUrl: values["base-url"] }),
    headers: { "User-Agent": "lingoscan-cli/1.0" },
  });
  const io = { stdout: (s: string) => process.stdout.write(`${s}\n`), stderr: process.stderr };
  const needArg = (what: string) => {
    if (!arg) throw new UsageError(`${command} needs ${what}`);
    return arg;
  };
  if ((TOOL_COMMAND_NAMES as string[]).includes(command)) await runTool(ls, command as ToolCommand, needArg("a FILE"), flags, io);
  else if (command === "batch") await runBatch(ls, needArg("a DIR"), flags, io);
  else if (command === "jobs") await runJobs(ls, arg, flags, io);
  else if (command === "export") await runExport(ls, needArg("a PROJECT id"), flags, io);
  else throw new UsageError(`unknown command ${command}`);
  return 0;
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const json = process.argv.includes("--json");
    if (err instanceof LingoscanError) {
      if (json) process.stdout.write(`${JSON.stringify({ error: err.toJSON() }, null, 2)}\n`);
      process.stderr.write(`lingoscan: ${err.code}: ${err.message}${err.requestId ? ` (request ${err.requestId})` : ""}\n`);
      process.exit(1);
    }
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    process.stderr.write(
      `lingoscan: ${err instanceof Error ? err.message : String(err)}\n${usage ? "Run `lingoscan help` for usage.\n" : ""}`,
    );
    process.exit(usage ? 2 : 1);
  },
);
