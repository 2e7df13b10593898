import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { DB } from "../../db/client";
import { statusOverrides } from "../../db/schema";
import { newId } from "../../lib/ids";

type Status = (typeof statusOverrides.$inferSelect)["status"];

/** Overrides in force now: the newest per component, not expired and not cleared. */
export async function activeOverrides(db: DB, now: number) {
  const rows = await db
    .select()
    .from(statusOverrides)
    .where(and(isNull(statusOverrides.resolvedAt), or(isNull(statusOverrides.expiresAt), gt(statusOverrides.expiresAt, now))))
    .orderBy(desc(statusOverrides.createdAt));
  const newest = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (!newest.has(r.component)) newest.set(r.component, r);
  return [...newest.values()];
}

export async function insertOverride(db: DB, o: { component: string; status: Status; message?: string; expires_in_minutes?: number }) {
  const now = Date.now();
  const row = {
    id: newId("sto"),
    component: o.component,
    status: o.status,
    message: o.message ?? null,
    createdAt: now,
    expiresAt: o.expires_in_minutes ? now + o.expires_in_minutes * 60_000 : null,
    createdBy: "admin",
  };
  await db.insert(statusOverrides).values(row);
  return {
    id: row.id,
    component: row.component,
    status: row.status,
    message: row.message,
    created_at: new Date(now).toISOString(),
    expires_at: row.expiresAt ? new Date(row.expiresAt).toISOString() : null,
  };
}

/** Clears every active override of a component; returns whether one was active. */
export async function clearOverride(db: DB, component: string, now: number): Promise<boolean> {
  const res = await db
    .update(statusOverrides)
    .set({ resolvedAt: now })
    .where(and(eq(statusOverrides.component, component), isNull(statusOverrides.resolvedAt)))
    .returning({ id: statusOverrides.id });
  return res.length > 0;
}
