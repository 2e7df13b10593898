import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DB } from "./client";
import { projects } from "./schema";

/**
 * The one condition under which anything but the job processing a project may write its content
 * (pages, regions, tables): the project is live (not in the trash) and no job is processing it.
 * Edits check it inside the transaction that writes; a re-render or a retry claims the project
 * with it (marking it `processing`), so a project has one writer at a time.
 */
export const PROJECT_EDITABLE = "status != 'processing' AND trashed_at IS NULL";

/** The guard as an SQL condition with its arguments, for a statement of a caller's batch. */
export function projectEditable(projectId: string): { sql: string; args: unknown[] } {
  return { sql: `EXISTS (SELECT 1 FROM projects WHERE id = ? AND ${PROJECT_EDITABLE})`, args: [projectId] };
}

const NOT_EDITABLE = "project not editable";

/**
 * Runs a batch that writes a project's content only while the project is editable: the batch
 * opens by touching the project's `updated_at`, a statement that fails unless the project is
 * editable (D1 runs a batch as one transaction, so the failure undoes every write). SQLite raises
 * errors only from triggers; `json()` of a text that is not JSON is the failure, evaluated only
 * when the condition does not hold. False when refused.
 */
export async function batchWhileEditable(db: DB, projectId: string, statements: BatchItem<"sqlite">[]): Promise<boolean> {
  const guard = db
    .update(projects)
    .set({ updatedAt: sql`CASE WHEN ${sql.raw(PROJECT_EDITABLE)} THEN ${Date.now()} ELSE json(${NOT_EDITABLE}) END` })
    .where(eq(projects.id, projectId));
  try {
    await db.batch([guard, ...statements]);
    return true;
  } catch (err) {
    if (isGuardFailure(err)) return false;
    throw err;
  }
}

function isGuardFailure(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if (/malformed JSON/i.test(e.message)) return true;
  return false;
}
