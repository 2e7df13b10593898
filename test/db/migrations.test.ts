import { env } from "cloudflare:workers";
import { eq, is, sql } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { db as makeDb } from "../../src/db/client";
import * as schema from "../../src/db/schema";

/** Every drizzle table exported by the schema module. */
const tables = (Object.values(schema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));
const configs = tables.map((t) => getTableConfig(t));

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}
interface IndexInfo {
  name: string;
  unique: number;
  origin: string;
  partial: number;
}
interface ForeignKeyInfo {
  table: string;
  from: string;
  to: string;
  on_delete: string;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
async function pragma<T>(sql: string): Promise<T[]> {
  return (await env.DB.prepare(sql).all<T>()).results;
}

/** The database's message for a failed query: drizzle wraps the D1 error (`cause`) in its own. */
function dbMessage(e: unknown): string {
  const parts: string[] = [];
  for (let cur = e; cur instanceof Error; cur = cur.cause) parts.push(cur.message);
  return parts.join(" | ");
}
async function expectDbError(work: PromiseLike<unknown>, pattern: RegExp) {
  let error: unknown;
  try {
    await work;
  } catch (e) {
    error = e;
  }
  expect(error, "the statement should have failed").toBeInstanceOf(Error);
  expect(dbMessage(error)).toMatch(pattern);
}

const db = makeDb(env.DB);
let n = 0;
const uid = (prefix: string) => `${prefix}_test${Date.now().toString(36)}${(n++).toString(36)}`;

async function makeUser(email = `${uid("u")}@example.com`) {
  const id = uid("usr");
  await db.insert(schema.users).values({ id, email });
  return id;
}

describe("D1 schema matches the drizzle schema", () => {
  let dbTables: string[] = [];
  beforeAll(async () => {
    dbTables = (
      await pragma<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
      )
    ).map((r) => r.name);
  });

  it("the schema defines the expected tables", () => {
    expect(configs.map((c) => c.name).sort()).toEqual(
      [
        "users",
        "oauth_identities",
        "sessions",
        "auth_tokens",
        "api_keys",
        "folders",
        "projects",
        "pages",
        "regions",
        "tables",
        "table_cells",
        "jobs",
        "job_pages",
        "job_events",
        "exports",
        "shares",
        "wallets",
        "ledger_entries",
        "payments",
        "payment_events",
        "subscriptions",
        "usage_daily",
        "webhook_endpoints",
        "webhook_deliveries",
        "glossaries",
        "glossary_terms",
        "translation_memory",
        "idempotency_keys",
        "status_overrides",
      ].sort(),
    );
  });

  it("D1 has exactly the tables of the schema", () => {
    expect(dbTables.sort()).toEqual(configs.map((c) => c.name).sort());
  });

  it("the migration was recorded", async () => {
    const applied = await pragma<{ name: string }>("SELECT name FROM d1_migrations ORDER BY id");
    expect(applied.map((r) => r.name)).toEqual(env.TEST_MIGRATIONS.map((m) => m.name));
    expect(applied[0]?.name).toBe("0000_init.sql");
  });

  for (const config of configs) {
    describe(config.name, () => {
      it("has every column with its type, nullability and primary key", async () => {
        const actual = await pragma<ColumnInfo>(`PRAGMA table_info(${q(config.name)})`);
        const compositePk = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
        const expected = config.columns.map((c) => ({
          name: c.name,
          type: c.getSQLType().toLowerCase(),
          notnull: c.notNull || c.primary ? 1 : 0,
          pk: c.primary || compositePk.has(c.name),
        }));
        expect(
          actual
            .map((c) => ({ name: c.name, type: c.type.toLowerCase(), notnull: c.notnull || c.pk ? 1 : 0, pk: c.pk > 0 }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        ).toEqual(expected.sort((a, b) => a.name.localeCompare(b.name)));
      });

      it("has every index, unique where declared", async () => {
        const actual = await pragma<IndexInfo>(`PRAGMA index_list(${q(config.name)})`);
        const created = actual.filter((i) => i.origin === "c");
        expect(
          created
            .map((i) => ({ name: i.name, unique: i.unique === 1, partial: i.partial === 1 }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        ).toEqual(
          config.indexes
            .map((i) => ({ name: i.config.name, unique: i.config.unique, partial: i.config.where !== undefined }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        );
      });

      it("has every foreign key with its delete action", async () => {
        const actual = await pragma<ForeignKeyInfo>(`PRAGMA foreign_key_list(${q(config.name)})`);
        const expected = config.foreignKeys.map((fk) => {
          const ref = fk.reference();
          return {
            table: getTableConfig(ref.foreignTable).name,
            from: ref.columns.map((c) => c.name).join(","),
            to: ref.foreignColumns.map((c) => c.name).join(","),
            on_delete: (fk.onDelete ?? "no action").toUpperCase(),
          };
        });
        expect(
          actual
            .map((fk) => ({ table: fk.table, from: fk.from, to: fk.to, on_delete: fk.on_delete.toUpperCase() }))
            .sort((a, b) => a.from.localeCompare(b.from)),
        ).toEqual(expected.sort((a, b) => a.from.localeCompare(b.from)));
      });
    });
  }

  it("every foreign key column is the leading column of an index or primary key (cascades and joins stay cheap)", async () => {
    const missing: string[] = [];
    for (const config of configs) {
      const leading = new Set<string>();
      for (const i of config.indexes) {
        const first = i.config.columns[0];
        if (first && "name" in first) leading.add(first.name);
      }
      for (const pk of config.primaryKeys) if (pk.columns[0]) leading.add(pk.columns[0].name);
      for (const c of config.columns) if (c.primary) leading.add(c.name);
      for (const fk of config.foreignKeys) {
        const col = fk.reference().columns[0]!.name;
        if (!leading.has(col)) missing.push(`${config.name}.${col}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("constraints", () => {
  it("foreign keys are enforced", async () => {
    const [row] = await pragma<{ foreign_keys: number }>("PRAGMA foreign_keys");
    expect(row?.foreign_keys).toBe(1);
    await expectDbError(
      db.insert(schema.sessions).values({ id: uid("ses"), tokenHash: uid("h"), userId: "usr_missing", expiresAt: Date.now() + 1000 }),
      /FOREIGN KEY/i,
    );
  });

  it("rejects a duplicate email", async () => {
    const email = `${uid("dup")}@example.com`;
    await makeUser(email);
    await expectDbError(makeUser(email), /UNIQUE/i);
  });

  it("rejects an email that is not lower-cased", async () => {
    await expectDbError(makeUser(`${uid("Mixed")}@Example.com`), /CHECK/i);
  });

  it("rejects a negative reservation", async () => {
    const userId = await makeUser();
    await expectDbError(db.insert(schema.wallets).values({ userId, balance: 10, reserved: -1 }), /CHECK/i);
  });

  it("makes ledger dedupe keys, idempotency keys, payment events and job event sequences unique", async () => {
    const userId = await makeUser();
    const entry = { userId, kind: "grant" as const, amount: 5, balanceAfter: 5, dedupeKey: `grant:${userId}` };
    await db.insert(schema.ledgerEntries).values({ ...entry, id: uid("led") });
    await expectDbError(db.insert(schema.ledgerEntries).values({ ...entry, id: uid("led") }), /UNIQUE/i);
    // Entries without a dedupe key do not collide.
    await db.insert(schema.ledgerEntries).values([
      { id: uid("led"), userId, kind: "adjustment", amount: 1, balanceAfter: 6 },
      { id: uid("led"), userId, kind: "adjustment", amount: 1, balanceAfter: 7 },
    ]);

    const key = { userId, key: "k1", method: "POST", path: "/api/v1/process", requestHash: "h", expiresAt: Date.now() + 1000 };
    await db.insert(schema.idempotencyKeys).values(key);
    await expectDbError(db.insert(schema.idempotencyKeys).values(key), /UNIQUE/i);

    const ev = { provider: "sandbox" as const, eventId: "evt_1", type: "checkout.completed" };
    await db.insert(schema.paymentEvents).values({ ...ev, id: uid("pev") });
    await expectDbError(db.insert(schema.paymentEvents).values({ ...ev, id: uid("pev") }), /UNIQUE/i);

    const jobId = uid("job");
    await db.insert(schema.jobs).values({ id: jobId, userId, tool: "ocr" });
    await db.insert(schema.jobEvents).values({ jobId, seq: 1, type: "status", status: "queued" });
    await expectDbError(db.insert(schema.jobEvents).values({ jobId, seq: 1, type: "status" }), /UNIQUE/i);
  });

  it("delivers one event once per endpoint, replays excepted", async () => {
    const userId = await makeUser();
    const endpointId = uid("whe");
    await db
      .insert(schema.webhookEndpoints)
      .values({ id: endpointId, userId, url: "https://example.com/hook", secret: "whsec_x", secretPrefix: "whsec_x" });
    const first = uid("dlv");
    const delivery = { endpointId, userId, eventId: "evt_a", eventType: "job.completed", payload: { a: 1 } };
    await db.insert(schema.webhookDeliveries).values({ ...delivery, id: first });
    await expectDbError(db.insert(schema.webhookDeliveries).values({ ...delivery, id: uid("dlv") }), /UNIQUE/i);
    await db.insert(schema.webhookDeliveries).values({ ...delivery, id: uid("dlv"), replayOf: first });
  });
});

describe("deletes", () => {
  it("deleting a user cascades to sessions and everything else the account owns", async () => {
    const userId = await makeUser();
    const other = await makeUser();
    const now = Date.now();
    const projectId = uid("prj");
    const pageId = uid("pg");
    const jobId = uid("job");
    const tableId = uid("tbl");
    await db.batch([
      db.insert(schema.sessions).values([
        { id: uid("ses"), tokenHash: uid("h"), userId, expiresAt: now + 60_000 },
        { id: uid("ses"), tokenHash: uid("h"), userId, expiresAt: now + 60_000 },
        { id: uid("ses"), tokenHash: uid("h"), userId: other, expiresAt: now + 60_000 },
      ]),
      db.insert(schema.wallets).values({ userId, balance: 100 }),
      db.insert(schema.projects).values({ id: projectId, userId, name: "Doc", tool: "translate" }),
      db.insert(schema.pages).values({ id: pageId, projectId, pageIndex: 0, width: 100, height: 200 }),
      db.insert(schema.regions).values({ id: uid("rgn"), projectId, pageId, x: 1, y: 2, w: 3, h: 4, text: "Hallo" }),
      db.insert(schema.tables).values({ id: tableId, projectId, pageId, x: 0, y: 0, w: 10, h: 10, rows: 1, cols: 1 }),
      db.insert(schema.tableCells).values({ tableId, row: 0, col: 0, text: "a" }),
      db.insert(schema.jobs).values({ id: jobId, userId, projectId, tool: "translate", options: { target_language: "en" } }),
      db.insert(schema.jobPages).values({ jobId, pageIndex: 0, pageId }),
      db.insert(schema.ledgerEntries).values({ id: uid("led"), userId, kind: "grant", amount: 100, balanceAfter: 100 }),
    ]);

    await db.delete(schema.users).where(eq(schema.users.id, userId));

    expect(await db.select().from(schema.sessions).where(eq(schema.sessions.userId, userId))).toEqual([]);
    expect(await db.select().from(schema.sessions).where(eq(schema.sessions.userId, other))).toHaveLength(1);
    for (const [table, rows] of [
      ["wallets", await db.select().from(schema.wallets).where(eq(schema.wallets.userId, userId))],
      ["projects", await db.select().from(schema.projects).where(eq(schema.projects.id, projectId))],
      ["pages", await db.select().from(schema.pages).where(eq(schema.pages.projectId, projectId))],
      ["regions", await db.select().from(schema.regions).where(eq(schema.regions.projectId, projectId))],
      ["table_cells", await db.select().from(schema.tableCells).where(eq(schema.tableCells.tableId, tableId))],
      ["jobs", await db.select().from(schema.jobs).where(eq(schema.jobs.id, jobId))],
      ["job_pages", await db.select().from(schema.jobPages).where(eq(schema.jobPages.jobId, jobId))],
      ["ledger_entries", await db.select().from(schema.ledgerEntries).where(eq(schema.ledgerEntries.userId, userId))],
    ] as const) {
      expect(rows, table).toEqual([]);
    }
  });

  it("deleting a project keeps its jobs as history and a batch parent takes its children along", async () => {
    const userId = await makeUser();
    const projectId = uid("prj");
    const parentId = uid("job");
    const childId = uid("job");
    await db.insert(schema.projects).values({ id: projectId, userId, name: "Doc", tool: "ocr" });
    await db.insert(schema.jobs).values([
      { id: parentId, userId, kind: "batch", tool: "ocr" },
      { id: childId, userId, projectId, parentJobId: parentId, batchIndex: 0, tool: "ocr" },
    ]);
    await db.update(schema.projects).set({ sourceJobId: childId }).where(eq(schema.projects.id, projectId));

    await db.delete(schema.projects).where(eq(schema.projects.id, projectId));
    const [child] = await db.select().from(schema.jobs).where(eq(schema.jobs.id, childId));
    expect(child?.projectId).toBeNull();

    await db.delete(schema.jobs).where(eq(schema.jobs.id, parentId));
    expect(await db.select().from(schema.jobs).where(eq(schema.jobs.id, childId))).toEqual([]);
  });
});

describe("drizzle client", () => {
  it("round-trips JSON, booleans, timestamps and defaults, and runs relational queries", async () => {
    const userId = await makeUser();
    const projectId = uid("prj");
    const pageId = uid("pg");
    const before = Date.now();
    await db.batch([
      db.insert(schema.projects).values({ id: projectId, userId, name: "Scan", tool: "translate", targetLanguage: "en" }),
      db.insert(schema.pages).values({ id: pageId, projectId, pageIndex: 0, path: "ocr" }),
      db.insert(schema.regions).values({
        id: uid("rgn"),
        projectId,
        pageId,
        x: 0,
        y: 0,
        w: 10,
        h: 5,
        text: "Bonjour",
        translation: "Hello",
        vertical: true,
        style: { font_size: 12, align: "center" },
        lines: [{ x: 0, y: 0, w: 10, h: 5, text: "Bonjour", confidence: 0.9 }],
        confidence: 0.9,
        overflow: "fitted",
      }),
      db
        .insert(schema.apiKeys)
        .values({ id: uid("key"), userId, name: "ci", prefix: "lik_live_ab", keyHash: uid("kh"), scopes: ["jobs:write"] }),
    ]);

    const project = await db.query.projects.findFirst({
      where: eq(schema.projects.id, projectId),
      with: { pages: { with: { regions: true } }, user: true },
    });
    expect(project?.status).toBe("processing");
    expect(project?.trashedAt).toBeNull();
    expect(project?.createdAt).toBeGreaterThanOrEqual(before);
    expect(project?.user.email).toMatch(/@example\.com$/);
    const region = project?.pages[0]?.regions[0];
    expect(region).toMatchObject({
      vertical: true,
      leftoverText: false,
      style: { font_size: 12, align: "center" },
      lines: [{ text: "Bonjour", confidence: 0.9 }],
      kind: "text",
      userTranslation: null,
    });
    const [key] = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.userId, userId));
    expect(key?.scopes).toEqual(["jobs:write"]);
    const [session] = await db
      .insert(schema.sessions)
      .values({ id: uid("ses"), tokenHash: uid("h"), userId, expiresAt: before + 1 })
      .returning();
    expect(session?.twoFactorPending).toBe(false);
  });

  it("upserts daily usage", async () => {
    const userId = await makeUser();
    const add = (pages: number) =>
      db
        .insert(schema.usageDaily)
        .values({ userId, day: "2026-11-21", tool: "ocr", jobs: 1, pages, credits: pages })
        .onConflictDoUpdate({
          target: [schema.usageDaily.userId, schema.usageDaily.day, schema.usageDaily.tool],
          set: {
            jobs: sql`${schema.usageDaily.jobs} + excluded.jobs`,
            pages: sql`${schema.usageDaily.pages} + excluded.pages`,
            credits: sql`${schema.usageDaily.credits} + excluded.credits`,
          },
        });
    await add(3);
    await add(4);
    const rows = await db.select().from(schema.usageDaily).where(eq(schema.usageDaily.userId, userId));
    expect(rows).toEqual([
      {
        userId,
        day: "2026-11-21",
        tool: "ocr",
        jobs: 2,
        pages: 7,
        pagesFailed: 0,
        credits: 7,
        jobsCompleted: 0,
        jobsPartiallyCompleted: 0,
        jobsFailed: 0,
        jobsCancelled: 0,
      },
    ]);
  });
});
