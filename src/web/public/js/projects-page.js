// Projects: search, filters (tool, status, folder), trash and restore, folders.
import { api, appConfig } from "./api.js";
import { h, render, field, notice, busy, link, formatDate, act, inlineForm } from "./dom.js";

const STATUSES = ["processing", "ready", "partial", "failed"];

export async function projectsPage(main) {
  const config = await appConfig();
  const out = notice();
  const search = h("input", { type: "search", placeholder: "Name or text", maxlength: 200 });
  const tool = h(
    "select",
    {},
    h("option", { value: "" }, "Any tool"),
    config.tools.map((t) => h("option", { value: t.id }, t.name)),
  );
  const status = h(
    "select",
    {},
    h("option", { value: "" }, "Any status"),
    STATUSES.map((s) => h("option", { value: s }, s)),
  );
  const folder = h("select", {});
  const trash = h("input", { type: "checkbox" });
  const list = h("div", { class: "list", "aria-live": "polite" });
  const folderName = h("input", { maxlength: 200, required: true });
  let folders = [];

  const loadFolders = async () => {
    folders = await api("/folders")
      .then((r) => (Array.isArray(r) ? r : r.items || []))
      .catch(() => []);
    const keep = folder.value;
    render(
      folder,
      h("option", { value: "" }, "All folders"),
      folders.map((f) => h("option", { value: f.id, selected: f.id === keep }, `${f.name} (${f.project_count})`)),
    );
  };

  const load = () =>
    busy(null, out, async () => {
      const r = await api("/projects", {
        query: {
          search: search.value.trim(),
          tool: tool.value,
          project_status: status.value,
          folder_id: folder.value,
          trash: trash.checked ? "true" : "false",
          limit: 50,
        },
      });
      if (!r.items.length)
        return render(
          list,
          h(
            "p",
            { class: "empty" },
            trash.checked
              ? "The trash is empty."
              : search.value
                ? "No project matches."
                : "No projects yet. Start a new job to create one.",
          ),
          link("/new", "New job"),
        );
      render(
        list,
        h(
          "table",
          { class: "table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", {}, "Name"),
              h("th", {}, "Tool"),
              h("th", {}, "Status"),
              h("th", {}, "Pages"),
              h("th", {}, trash.checked ? "Deleted for good" : "Updated"),
              h("th", {}, h("span", { class: "visually-hidden" }, "Actions")),
            ),
          ),
          h(
            "tbody",
            {},
            r.items.map((p) =>
              h(
                "tr",
                {},
                h("td", {}, trash.checked ? p.name : link(`/projects/${p.id}`, p.name)),
                h("td", {}, p.tool),
                h("td", {}, p.status),
                h("td", {}, String(p.page_count)),
                h("td", {}, formatDate(trash.checked ? p.purge_at : p.updated_at)),
                h(
                  "td",
                  { class: "actions" },
                  trash.checked
                    ? [
                        act("Restore", out, async () => {
                          await api(`/projects/${p.id}/restore`, { method: "POST" });
                          load();
                        }),
                        h(
                          "button",
                          {
                            type: "button",
                            class: "danger",
                            onclick: (e) =>
                              confirm(`Delete “${p.name}” and all its files now?`) &&
                              busy(e.target, out, async () => {
                                await api(`/projects/${p.id}`, { method: "DELETE", query: { permanent: "true" } });
                                load();
                              }),
                          },
                          "Delete for good",
                        ),
                      ]
                    : [
                        folders.length
                          ? h(
                              "select",
                              {
                                "aria-label": `Folder of ${p.name}`,
                                onchange: (e) =>
                                  busy(null, out, async () => {
                                    await api(`/projects/${p.id}`, { method: "PATCH", json: { folder_id: e.target.value || null } });
                                    loadFolders();
                                  }),
                              },
                              h("option", { value: "" }, "No folder"),
                              folders.map((f) => h("option", { value: f.id, selected: f.id === p.folder_id }, f.name)),
                            )
                          : null,
                        act("Move to trash", out, async () => {
                          await api(`/projects/${p.id}`, { method: "DELETE" });
                          load();
                        }),
                      ],
                ),
              ),
            ),
          ),
        ),
        h("p", { class: "muted" }, `${r.total} project(s)`),
      );
    });

  let timer;
  search.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(load, 300);
  });
  for (const el of [tool, status, folder, trash]) el.addEventListener("change", load);
  const addFolder = h("button", { type: "submit", class: "secondary" }, "Add folder");

  render(
    main,
    h("h1", {}, "Projects"),
    h(
      "div",
      { class: "filters" },
      field("Search", search),
      field("Tool", tool),
      field("Status", status),
      field("Folder", folder),
      h("label", { class: "check" }, trash, " Trash"),
    ),
    list,
    out,
    inlineForm(
      addFolder,
      out,
      async () => {
        await api("/folders", { method: "POST", json: { name: folderName.value } });
        folderName.value = "";
        await loadFolders();
      },
      field("New folder", folderName),
    ),
  );
  await loadFolders();
  await load();
}
