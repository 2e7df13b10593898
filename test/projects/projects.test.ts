import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db/client";
import { purgeTrash } from "../../src/modules/projects/projects.service";
import { TRASH_RETENTION_MS } from "../../src/modules/projects/projects.views";
import { api, body, seedAccount } from "../helpers/api";
import { detail, exists, fetchSigned, json, seedProject } from "./seed";

const DAY = 24 * 60 * 60 * 1000;

async function list(auth: Record<string, string>, query = "") {
  const res = await api(`/api/v1/projects${query}`, { headers: auth });
  const b = await body(res);
  expect(res.status, JSON.stringify(b)).toBe(200);
  return b;
}

describe("GET /api/v1/projects: filters, order and paging", () => {
  it("filters by tool, status, search, folder and trash, orders stably and pages without gaps", async () => {
    const { userId, auth } = await seedAccount();
    const other = await seedAccount();
    const folder = await body(await api("/api/v1/folders", json("POST", auth, { name: "Invoices" })));
    const t0 = Date.UTC(2026, 0, 1);
    const a = await seedProject(userId, {
      name: "alpha",
      tool: "ocr",
      createdAt: t0,
      updatedAt: t0 + 5 * DAY,
      pages: [{ regions: [{ text: "The zebra crossing" }] }],
    });
    const b = await seedProject(userId, {
      name: "Bravo",
      tool: "translate",
      targetLanguage: "es",
      createdAt: t0 + DAY,
      updatedAt: t0 + DAY,
      pages: [{ regions: [{ text: "Good morning", translation: "Buenos días" }] }],
    });
    const c = await seedProject(userId, {
      name: "charlie",
      tool: "tables",
      status: "failed",
      createdAt: t0 + 2 * DAY,
      updatedAt: t0 + 3 * DAY,
      folderId: folder.id,
    });
    const d = await seedProject(userId, {
      name: "delta",
      tool: "ocr",
      status: "partial",
      createdAt: t0 + 3 * DAY,
      updatedAt: t0 + 3 * DAY,
      folderId: folder.id,
    });
    const e = await seedProject(userId, { name: "echo 100%_done", tool: "erase", createdAt: t0 + 4 * DAY, updatedAt: t0 + 4 * DAY });
    const trashed = await seedProject(userId, { name: "trashed", trashedAt: t0 + 6 * DAY, createdAt: t0, updatedAt: t0 });
    await seedProject(other.userId, { name: "alpha of another account", pages: [{ regions: [{ text: "zebra" }] }] });

    const all = await list(auth);
    expect(all.total).toBe(5);
    // Default: updated_desc, ties (c and d share updated_at) broken by id descending.
    const cd = [c.projectId, d.projectId].sort().reverse();
    expect(all.items.map((p: any) => p.id)).toEqual([a.projectId, e.projectId, ...cd, b.projectId]);
    expect(all.items[0]).toMatchObject({ name: "alpha", tool: "ocr", status: "ready", trashed_at: null, purge_at: null, page_count: 1 });

    const ids = async (q: string) => (await list(auth, q)).items.map((p: any) => p.id);
    expect(await ids("?tool=ocr")).toEqual([a.projectId, d.projectId]);
    expect(await ids("?project_status=failed")).toEqual([c.projectId]);
    expect(await ids(`?folder_id=${folder.id}`)).toEqual(cd);
    expect(await ids("?search=ZEBRA")).toEqual([a.projectId]); // recognised text, case-insensitive, own account only
    expect(await ids("?search=buenos")).toEqual([b.projectId]); // translated text
    expect(await ids("?search=brav")).toEqual([b.projectId]); // name
    expect(await ids("?search=100%25_")).toEqual([e.projectId]); // LIKE wildcards are literal
    expect(await ids("?search=0%25d")).toEqual([]);
    expect(await ids("?trash=true")).toEqual([trashed.projectId]);
    const inTrash = (await list(auth, "?trash=true")).items[0];
    expect(Date.parse(inTrash.purge_at) - Date.parse(inTrash.trashed_at)).toBe(TRASH_RETENTION_MS);

    expect(await ids("?order=updated_asc")).toEqual([b.projectId, ...[...cd].reverse(), e.projectId, a.projectId]);
    expect(await ids("?order=created_desc")).toEqual([e.projectId, d.projectId, c.projectId, b.projectId, a.projectId]);
    expect(await ids("?order=created_asc")).toEqual([a.projectId, b.projectId, c.projectId, d.projectId, e.projectId]);
    expect(await ids("?order=name_asc")).toEqual([a.projectId, b.projectId, c.projectId, d.projectId, e.projectId]);
    expect(await ids("?order=name_desc")).toEqual([e.projectId, d.projectId, c.projectId, b.projectId, a.projectId]);

    // Paging with limit 2 visits every project exactly once, in the same order as one page.
    const paged: string[] = [];
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await list(auth, `?order=name_asc&limit=2&offset=${offset}`);
      expect(page).toMatchObject({ total: 5, limit: 2, offset });
      paged.push(...page.items.map((p: any) => p.id));
    }
    expect(paged).toEqual(await ids("?order=name_asc"));

    for (const bad of ["?order=size", "?trash=maybe", "?limit=0", "?limit=101", "?tool=paint", "?project_status=done"]) {
      const res = await api(`/api/v1/projects${bad}`, { headers: auth });
      const err = await body(res);
      expect(res.status, `${bad}: ${JSON.stringify(err)}`).toBe(422);
      expect(err.error.code).toBe("validation_error");
    }
  });
});

describe("projects: rename, folders, trash, restore", () => {
  it("renames, moves between folders, and refuses another account's folder", async () => {
    const { userId, auth } = await seedAccount();
    const other = await seedAccount();
    const { projectId } = await seedProject(userId, { name: "scan.png" });
    const before = await detail(projectId, auth);

    const folder = await body(await api("/api/v1/folders", json("POST", auth, { name: "  Letters " })));
    expect(folder).toMatchObject({ name: "Letters", project_count: 0 });
    const foreign = await body(await api("/api/v1/folders", json("POST", other.auth, { name: "Theirs" })));

    const renamed = await api(`/api/v1/projects/${projectId}`, json("PATCH", auth, { name: "Letter to Ann", folder_id: folder.id }));
    const r = await body(renamed);
    expect(renamed.status, JSON.stringify(r)).toBe(200);
    expect(r).toMatchObject({ id: projectId, name: "Letter to Ann", folder_id: folder.id });
    expect(Date.parse(r.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect(await body(await api("/api/v1/folders", { headers: auth }))).toEqual([
      expect.objectContaining({ id: folder.id, project_count: 1 }),
    ]);

    const refused = await api(`/api/v1/projects/${projectId}`, json("PATCH", auth, { folder_id: foreign.id }));
    expect(refused.status, JSON.stringify(await body(refused))).toBe(404);
    for (const bad of [{}, { name: "" }, { name: "x", extra: 1 }]) {
      const res = await api(`/api/v1/projects/${projectId}`, json("PATCH", auth, bad));
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }

    const out = await body(await api(`/api/v1/projects/${projectId}`, json("PATCH", auth, { folder_id: null })));
    expect(out.folder_id).toBeNull();
    await api(`/api/v1/projects/${projectId}`, json("PATCH", auth, { folder_id: folder.id }));
    expect((await api(`/api/v1/folders/${folder.id}`, { method: "DELETE", headers: other.auth })).status).toBe(404);
    expect((await api(`/api/v1/folders/${folder.id}`, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await detail(projectId, auth)).folder_id).toBeNull();
  });

  it("trashes, refuses edits in the trash, restores, and purges only what is past retention", async () => {
    const { userId, auth } = await seedAccount();
    const { projectId, regionIds, files } = await seedProject(userId, { name: "old" });
    expect((await api(`/api/v1/projects/${projectId}`, { method: "DELETE", headers: auth })).status).toBe(204);
    const trashed = await detail(projectId, auth);
    expect(trashed.trashed_at).not.toBeNull();
    expect((await list(auth)).total).toBe(0);
    expect((await list(auth, "?trash=true")).items.map((p: any) => p.id)).toEqual([projectId]);
    // A second delete keeps the first trashing time.
    await api(`/api/v1/projects/${projectId}`, { method: "DELETE", headers: auth });
    expect((await detail(projectId, auth)).trashed_at).toBe(trashed.trashed_at);

    const edit = await api(`/api/v1/projects/${projectId}/regions/${regionIds[0]![0]}`, json("PATCH", auth, { text: "x" }));
    const editBody = await body(edit);
    expect(edit.status, JSON.stringify(editBody)).toBe(409);
    expect(editBody.error.code).toBe("conflict");
    expect((await api(`/api/v1/projects/${projectId}`, json("PATCH", auth, { name: "y" }))).status).toBe(409);
    expect((await api(`/api/v1/projects/${projectId}/duplicate`, { method: "POST", headers: auth })).status).toBe(409);

    const restored = await body(await api(`/api/v1/projects/${projectId}/restore`, { method: "POST", headers: auth }));
    expect(restored).toMatchObject({ id: projectId, trashed_at: null, purge_at: null });
    expect((await list(auth)).total).toBe(1);

    // purgeTrash (the scheduled handler's call) deletes what has been trashed longer than the retention.
    const now = Date.now();
    await purgeTrash(env, db(env.DB), now); // what earlier tests of this file left in the trash
    const old = await seedProject(userId, { name: "long gone", trashedAt: now - TRASH_RETENTION_MS - 1000 });
    const recent = await seedProject(userId, { name: "recently trashed", trashedAt: now - DAY });
    expect(await purgeTrash(env, db(env.DB), now)).toBe(1);
    expect((await api(`/api/v1/projects/${old.projectId}`, { headers: auth })).status).toBe(404);
    for (const k of old.files) expect(await exists(k), k).toBe(false);
    expect((await detail(recent.projectId, auth)).trashed_at).not.toBeNull();
    for (const k of recent.files) expect(await exists(k), k).toBe(true);
    for (const k of files) expect(await exists(k), k).toBe(true);
  });

  it("refuses edits while the project's job is still processing", async () => {
    const { userId, auth } = await seedAccount();
    const { projectId, regionIds } = await seedProject(userId, { status: "processing" });
    const res = await api(`/api/v1/projects/${projectId}/regions/${regionIds[0]![0]}`, json("PATCH", auth, { text: "x" }));
    expect(res.status).toBe(409);
    expect((await api(`/api/v1/projects/${projectId}?permanent=true`, { method: "DELETE", headers: auth })).status).toBe(409);
  });
});

describe("POST /api/v1/projects/{id}/duplicate", () => {
  it("deep-copies rows and files; editing or deleting one leaves the other intact", async () => {
    const { userId, auth } = await seedAccount();
    const src = await seedProject(userId, {
      name: "Menu",
      tool: "translate",
      targetLanguage: "es",
      pages: [
        { regions: [{ text: "Soup of the day", translation: "Sopa del día" }, { text: "Bread" }] },
        { regions: [{ text: "Dessert" }] },
      ],
      table: {
        page: 1,
        rows: 2,
        cols: 2,
        cells: [
          { row: 0, col: 0, text: "a" },
          { row: 0, col: 1, text: "b" },
          { row: 1, col: 0, text: "c", colSpan: 2 },
        ],
      },
      export: true,
    });
    const res = await api(`/api/v1/projects/${src.projectId}/duplicate`, { method: "POST", headers: auth });
    const copy = await body(res);
    expect(res.status, JSON.stringify(copy)).toBe(200);
    expect(copy.id).not.toBe(src.projectId);
    expect(copy).toMatchObject({ name: "Menu (copy)", tool: "translate", target_language: "es", source_job_id: null, page_count: 2 });

    const original = await detail(src.projectId, auth);
    const dup = await detail(copy.id, auth);
    const strip = (p: any) => p.regions.map((r: any) => [r.page_index, r.order, r.text, r.translation, r.box]);
    expect(strip(dup)).toEqual(strip(original));
    expect(dup.regions.every((r: any) => !original.regions.some((o: any) => o.id === r.id || o.page_id === r.page_id))).toBe(true);
    expect(dup.tables[0].cells).toEqual(original.tables[0].cells);
    expect(dup.tables[0].id).not.toBe(original.tables[0].id);

    // Files were copied to the copy's own keys, with the same content.
    const copiedImage = await fetchSigned(dup.pages[0].image_url);
    expect(copiedImage.status).toBe(200);
    expect(await copiedImage.text()).toBe(`image 0 of ${src.projectId}`);
    expect(new URL(dup.pages[0].image_url).pathname).not.toBe(new URL(original.pages[0].image_url).pathname);
    const copyExports = await body(await api(`/api/v1/projects/${copy.id}/exports`, { headers: auth }));
    expect(copyExports).toHaveLength(1);
    expect(copyExports[0]).toMatchObject({ format: "txt", status: "ready", project_id: copy.id, job_id: null });

    // Edits to the copy stay in the copy.
    const edited = await api(
      `/api/v1/projects/${copy.id}/regions/${dup.regions[0].id}`,
      json("PATCH", auth, { text: "Soup of the night", translation: "Sopa de la noche" }),
    );
    expect(edited.status, JSON.stringify(await body(edited))).toBe(200);
    await api(
      `/api/v1/projects/${copy.id}/tables/${dup.tables[0].id}/cells`,
      json("PATCH", auth, [{ row: 0, column: 0, text: "changed" }]),
    );
    await api(`/api/v1/projects/${copy.id}/regions/${dup.regions[1].id}`, { method: "DELETE", headers: auth });
    const after = await detail(src.projectId, auth);
    expect(strip(after)).toEqual(strip(original));
    expect(after.regions[0].user_text).toBeNull();
    expect(after.tables[0].cells).toEqual(original.tables[0].cells);

    // Deleting the original for good leaves the copy's files.
    expect((await api(`/api/v1/projects/${src.projectId}?permanent=true`, { method: "DELETE", headers: auth })).status).toBe(204);
    for (const k of src.files) expect(await exists(k), k).toBe(false);
    const again = await detail(copy.id, auth);
    expect(await (await fetchSigned(again.pages[1].image_url)).text()).toBe(`image 1 of ${src.projectId}`);
    const link = await body(await api(copyExports[0].download, { headers: auth }));
    expect(await (await fetchSigned(link.url)).text()).toBe(`exported text of ${src.projectId}`);
  });
});

describe("another account's project is 404 everywhere", () => {
  it.each([
    ["GET", ""],
    ["PATCH", "", { name: "x" }],
    ["DELETE", ""],
    ["DELETE", "?permanent=true"],
    ["POST", "/duplicate"],
    ["POST", "/restore"],
    ["POST", "/regions", { page_index: 0, box: { x: 0, y: 0, w: 5, h: 5 }, text: "x" }],
    ["PATCH", "/regions/REGION", { text: "x" }],
    ["DELETE", "/regions/REGION"],
    ["POST", "/regions/merge", { region_ids: ["REGION", "REGION2"] }],
    ["POST", "/regions/REGION/split", { mode: "lines" }],
    ["POST", "/regions/REGION/reocr", {}],
    ["PATCH", "/tables/TABLE/cells", [{ row: 0, column: 0, text: "x" }]],
    ["GET", "/exports"],
    ["POST", "/exports", { format: "txt" }],
    ["GET", "/share"],
    ["POST", "/share", {}],
  ] as [string, string, unknown?][])("%s /projects/{id}%s", async (method, suffix, payload) => {
    const owner = await seedAccount();
    const intruder = await seedAccount();
    const p = await seedProject(owner.userId, {
      pages: [{ regions: [{ text: "one" }, { text: "two" }] }],
      table: { page: 0, rows: 1, cols: 1, cells: [{ row: 0, col: 0, text: "x" }] },
    });
    const path = `/api/v1/projects/${p.projectId}${suffix.replace("REGION2", p.regionIds[0]![1]!).replace("REGION", p.regionIds[0]![0]!).replace("TABLE", p.tableId!)}`;
    const init = payload === undefined ? { method, headers: intruder.auth } : json(method, intruder.auth, payload);
    const res = await api(path, init);
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(404);
    expect(b.error.code).toBe("not_found");
    // And nothing changed for the owner.
    const seen = await detail(p.projectId, owner.auth);
    expect(seen).toMatchObject({ name: "Seeded", trashed_at: null });
    expect(seen.regions.map((r: any) => r.user_text ?? r.text)).toEqual(["one", "two"]);
  });

  it("answers 401 without credentials", async () => {
    const res = await api("/api/v1/projects");
    expect(res.status).toBe(401);
  });
});
