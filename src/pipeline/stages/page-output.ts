import type { DB } from "../../db/client";
import { linkJobPageStatement } from "../../modules/jobs/jobs.repo";
import { pageOutputStatements, type NewPageTable, type NewRegion, type PageOutput } from "../../modules/projects/pages.repo";

/**
 * Writes a page's recognition output and links the job's page to it, in one batch: the page, its
 * regions and tables belong to the project (its repo writes them); the job records which page it wrote.
 */
export async function savePageOutput(
  db: DB,
  jobId: string,
  page: PageOutput,
  regions: Omit<NewRegion, "projectId" | "pageId">[],
  tables?: NewPageTable[],
) {
  await db.batch([...pageOutputStatements(db, page, regions, tables), linkJobPageStatement(db, jobId, page.pageIndex, page.pageId)]);
}
