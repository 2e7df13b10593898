import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where the CLI finds its settings when the environment does not give them. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.LINGOSCAN_CONFIG ?? path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), ".config"), "lingoscan", "config.json");
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

/**
 * API key and base URL: flags first, then LINGOSCAN_API_KEY / LINGOSCAN_BASE_URL, then the
 * config file (`{"api_key": "lik_live_…", "base_url": "https://…"}`), then the local service.
 */
export function resolveSettings(
  flags: { apiKey?: string; baseUrl?: string },
  env: NodeJS.ProcessEnv = process.env,
): { apiKey: string; baseUrl: string } {
  const file = configPath(env);
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { api_key?: string; base_url?: string }) : {};
  const apiKey = flags.apiKey ?? env.LINGOSCAN_API_KEY ?? stored.api_key;
  if (!apiKey) throw new Error(`No API key: set LINGOSCAN_API_KEY or write {"api_key": "lik_live_…"} to ${file}`);
  return { apiKey, baseUrl: flags.baseUrl ?? env.LINGOSCAN_BASE_URL ?? stored.base_url ?? DEFAULT_BASE_URL };
}
