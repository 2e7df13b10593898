/**
 * The one logger: a JSON line per record on the console, which Workers Logs indexes field by
 * field. Fields use snake_case names shared across the service: `request_id`, `user_id`,
 * `job_id`, `stage`, `duration_ms`; an Error under `error` is logged with its stack.
 */
export type LogFields = Record<string, unknown>;
type Level = "debug" | "info" | "warn" | "error";

function errorText(err: unknown): string {
  return err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
}

function write(level: Level, msg: string, fields: LogFields): void {
  const record: LogFields = { level, msg, time: new Date().toISOString(), ...fields };
  if ("error" in fields) record.error = errorText(fields.error);
  const line = JSON.stringify(record);
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export const log = {
  debug: (msg: string, fields: LogFields = {}) => write("debug", msg, fields),
  info: (msg: string, fields: LogFields = {}) => write("info", msg, fields),
  warn: (msg: string, fields: LogFields = {}) => write("warn", msg, fields),
  error: (msg: string, fields: LogFields = {}) => write("error", msg, fields),
};

/**
 * Whether per-request and per-stage records are written: in deployed environments only; locally
 * wrangler prints its own request lines and the tests would drown in them.
 */
export function tracing(env: { ENVIRONMENT?: string } | undefined): boolean {
  return env?.ENVIRONMENT !== "development";
}
