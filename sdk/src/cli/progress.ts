import type { JobEvent } from "../client.js";

const WIDTH = 30;

/**
 * Job progress on stderr: a redrawn bar on a terminal, one line per change otherwise (logs, CI).
 * Silent when `quiet`.
 */
export function progressReporter(label: string, opts: { quiet: boolean; stream?: NodeJS.WriteStream }) {
  const out = opts.stream ?? process.stderr;
  let percent = 0;
  let stage = "queued";
  let lastLine = "";
  const draw = () => {
    if (opts.quiet) return;
    const filled = Math.round((percent / 100) * WIDTH);
    const line = `${label} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${String(percent).padStart(3)}% ${stage}`;
    if (out.isTTY) out.write(`\r${line}\x1b[K`);
    else if (line !== lastLine) out.write(`${line}\n`);
    lastLine = line;
  };
  return {
    onEvent(e: JobEvent) {
      const d = e.data;
      if (typeof d.percent === "number") percent = Math.max(0, Math.min(100, Math.round(d.percent)));
      const next = typeof d.stage === "string" ? d.stage : typeof d.status === "string" ? d.status : null;
      if (next) stage = next;
      if (e.type === "done") percent = 100;
      draw();
    },
    end() {
      if (!opts.quiet && out.isTTY && lastLine) out.write("\n");
    },
  };
}
