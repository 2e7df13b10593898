import type { BatchItem } from "drizzle-orm/batch";
import type { DB } from "../../db/client";
import type { ProjectStatus, Tool } from "../../db/schema/enums";

/** The project a document job creates, `processing` from the start. */
export interface JobProject {
  id: string;
  userId: string;
  name: string;
  tool: Tool;
  sourceLanguage: string | null;
  targetLanguage: string | null;
  pageCount: number;
  sourceJobId: string;
}

/**
 * What a job's lifecycle changes of the project it works on. The projects domain owns that table
 * and ranks above jobs, so jobs declare what they need here and the composition (`src/index.ts`)
 * supplies the projects' implementation once, before any request or workflow step runs.
 */
export interface ProjectPort {
  /** Inserts the project a new job creates, for the job's intake batch. */
  createStatement(db: DB, project: JobProject, now: number): BatchItem<"sqlite">;
  /** Deletes the projects that jobs refused before they started had created. */
  deleteOfJobsStatement(db: DB, jobIds: string[]): BatchItem<"sqlite">;
  /** The project's status change for a job transition's batch, applied only if `guard` (SQL) holds. */
  statusStatement(db: DB, projectId: string, status: ProjectStatus, guard: { sql: string; args: unknown[] }): D1PreparedStatement;
  setStatus(db: DB, projectId: string, status: ProjectStatus): Promise<void>;
  /** What the project's pages say: ready when all hold content, partial when some do, failed when none. */
  statusFromPages(db: DB, projectId: string): Promise<ProjectStatus>;
  /** Whether the project passes the edit guard now (live, not processing). */
  editableNow(db: DB, projectId: string): Promise<boolean>;
}

let supplied: ProjectPort | undefined;

/** Called once by the composition with the projects domain's implementation. */
export function supplyProjectPort(port: ProjectPort): void {
  supplied = port;
}

/** The supplied port; a missing one is a wiring error, never a request's fault. */
export function projectPort(): ProjectPort {
  if (!supplied) throw new Error("The projects port was not supplied (src/index.ts supplies it at start-up).");
  return supplied;
}
