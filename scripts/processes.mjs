// The processes a local service started, from Linux /proc (none where there is no /proc).
import { existsSync, readdirSync, readFileSync } from "node:fs";

function children(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  // Each thread lists the children it started.
  return tasks.flatMap((t) => {
    try {
      return readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}

/** Every process below `pid`, parents before their children. */
export function descendants(pid) {
  if (!existsSync("/proc")) return [];
  const out = [];
  for (const queue = [pid]; queue.length;) {
    const next = children(queue.shift());
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

/** A process's command name, or null once it is gone. */
export function commandName(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
}
