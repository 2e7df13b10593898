/**
 * D1 binds at most 100 parameters to one statement, so a list bound into `IN (…)` or a multi-row
 * INSERT goes in runs below that. A run of LIST_CHUNK values leaves room for a statement's other
 * parameters (owner, project, language pair…).
 */
export const MAX_BOUND_PARAMETERS = 100;
export const LIST_CHUNK = 90;

/** `items` cut into consecutive runs of at most `size`. */
export function chunks<T>(items: readonly T[], size = LIST_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs a query once per run of `items` (one after another) and concatenates the rows. */
export async function queryInChunks<T, R>(items: readonly T[], query: (run: T[]) => Promise<R[]>, size = LIST_CHUNK): Promise<R[]> {
  const rows: R[] = [];
  for (const run of chunks(items, size)) rows.push(...(await query(run)));
  return rows;
}
