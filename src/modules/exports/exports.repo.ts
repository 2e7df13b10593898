import { and, eq } from "drizzle-orm";
import type { DB } from "../../db/client";
import { exportFiles } from "../../db/schema";

export async function findExport(db: DB, userId: string, exportId: string) {
  const [row] = await db.select().from(exportFiles).where(and(eq(exportFiles.id, exportId), eq(exportFiles.userId, userId))).limit(1);
  return row;
}
