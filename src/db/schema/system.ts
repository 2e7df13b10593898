import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id, ms } from "./columns";
import { COMPONENT_STATUSES } from "./enums";

/**
 * Manual status overrides by an administrator, merged over live health checks by GET /status.
 * The newest unexpired, unresolved override of a component wins.
 */
export const statusOverrides = sqliteTable(
  "status_overrides",
  {
    id: id(), // sto_…
    /** Component name (`api`, `ocr`, `translation`, …) or `*` for the whole service. */
    component: text("component").notNull(),
    status: text("status", { enum: COMPONENT_STATUSES }).notNull(),
    message: text("message"),
    /** Who set it (admin label). */
    createdBy: text("created_by"),
    createdAt: createdAt(),
    startsAt: ms("starts_at"),
    expiresAt: ms("expires_at"),
    resolvedAt: ms("resolved_at"),
  },
  (t) => [
    index("status_overrides_component_created_idx").on(t.component, t.createdAt),
    index("status_overrides_expires_idx").on(t.expiresAt),
  ],
);
