// Editor: the page image with region boxes over it. Select a region (click, or Tab then Enter)
// to edit its text and translation, see alternatives and flags; Ctrl/Shift-click to pick several
// and merge them; split by lines; draw a rectangle to read it again (re-OCR); edit table cells;
// re-render the pages from the edits (free); create and download exports; share links.
import { api, appConfig } from "./api.js";
import { h, render, field, notice, busy, onSubmit, link, formatDate, formatBytes, act, inlineForm, listItems } from "./dom.js";
import { downloadButton, TERMINAL } from "./job-pages.js";
import { sharePanel } from "./share-panel.js";

/** Resolves once the browser has the image (or gave up), so swapping it in shows no empty frame. */
function preload(src) {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = img.onerror = () => resolve();
    img.src = src;
  });
}

export async function editorPage(main, [projectId]) {
  const config = await appConfig();
  let project = await api(`/projects/${projectId}`);
  const tool = config.tools.find((t) => t.id === project.tool);
  // Translate and erase projects draw pages; OCR and table projects only rebuild their exports.
  const draws = Boolean(tool && tool.stages.includes("rendering"));
  let pageIndex = 0;
  let view = "original";
  const selected = new Set();
  let drawing = false;
  const out = notice();

  const stage = h("div", { class: "stage" });
  const panel = h("div", { class: "panel" });
  const pager = h("div", { class: "pager" });
  const tables = h("div", {});
  const drawBtn = h("button", { type: "button", class: "secondary", "aria-pressed": "false" }, "Draw a rectangle to re-read");
  // Both labels stay in the button (one hidden), so it keeps the width of the longer one.
  const toRendered = h("span", {}, "Show rendered page");
  const toOriginal = h("span", {}, "Show original page");
  const viewBtn = h("button", { type: "button", class: "secondary view-toggle" }, toRendered, toOriginal);
  const meta = h("p", { class: "muted" });

  const reload = async () => {
    project = await api(`/projects/${projectId}`);
    for (const id of [...selected]) if (!project.regions.some((r) => r.id === id)) selected.delete(id);
    draw();
  };

  const page = () => project.pages.find((p) => p.index === pageIndex) || project.pages[0];
  const regionsOfPage = () => project.regions.filter((r) => r.page_index === pageIndex);
  const pct = (v, total) => `${(v / total) * 100}%`;
  // Text in a right-to-left language (Arabic, Hebrew, Persian, Urdu…) is edited right to left even
  // where it starts with digits or a Latin word; other text (auto, several languages) takes the
  // direction of its first letter.
  const dirOf = (lang) =>
    config.languages.ocr.some((l) => (l.code === lang || l.ocr_code === lang) && l.direction === "rtl") ? "rtl" : "auto";

  function showMeta() {
    meta.textContent =
      `${project.tool} · ${project.status} · ${project.page_count} page(s)` +
      (project.target_language ? ` · ${project.source_language || "?"} → ${project.target_language}` : "");
  }

  function draw() {
    showMeta();
    const p = page();
    if (!p) {
      render(stage, h("p", { class: "empty" }, "This project has no pages yet."));
      render(panel);
      return;
    }
    render(
      pager,
      project.pages.length > 1
        ? project.pages.map((x) =>
            h(
              "button",
              {
                type: "button",
                class: x.index === pageIndex ? "" : "secondary",
                "aria-current": x.index === pageIndex ? "page" : null,
                onclick: () => {
                  pageIndex = x.index;
                  selected.clear();
                  draw();
                },
              },
              `Page ${x.index + 1}`,
            ),
          )
        : null,
    );
    const src = view === "rendered" && p.render_url ? p.render_url : p.image_url;
    toRendered.classList.toggle("off", view === "rendered");
    toOriginal.classList.toggle("off", view !== "rendered");
    viewBtn.disabled = !p.render_url;
    // The box keeps the page's aspect ratio before the image loads, so nothing shifts.
    const frame = h("div", { class: "frame" });
    frame.style.aspectRatio = `${p.width} / ${p.height}`;
    if (src) frame.append(h("img", { src, alt: `Page ${p.index + 1}${view === "rendered" ? " (rendered)" : ""}`, draggable: "false" }));
    if (view === "original") {
      for (const r of regionsOfPage()) {
        const box = h("button", {
          type: "button",
          class: "box",
          "aria-pressed": selected.has(r.id) ? "true" : "false",
          "aria-label": `Region ${r.order + 1}: ${r.user_text ?? r.text}`,
          "data-flag": r.overflow === "overflowing" || r.leftover_text || r.smear ? "warn" : null,
          onclick: (e) => {
            if (drawing) return;
            if (!(e.ctrlKey || e.metaKey || e.shiftKey)) selected.clear();
            selected.has(r.id) && (e.ctrlKey || e.metaKey || e.shiftKey) ? selected.delete(r.id) : selected.add(r.id);
            draw();
          },
        });
        Object.assign(box.style, {
          left: pct(r.box.x, p.width),
          top: pct(r.box.y, p.height),
          width: pct(r.box.w, p.width),
          height: pct(r.box.h, p.height),
        });
        frame.append(box);
      }
      for (const t of project.tables.filter((t) => t.page_index === pageIndex)) {
        const tb = h("div", { class: "box table-box", "aria-hidden": "true" });
        Object.assign(tb.style, {
          left: pct(t.box.x, p.width),
          top: pct(t.box.y, p.height),
          width: pct(t.box.w, p.width),
          height: pct(t.box.h, p.height),
        });
        frame.append(tb);
      }
    }
    if (drawing) frame.append(rectangleLayer(frame, p));
    render(stage, frame);
    drawPanel();
    drawTables();
  }

  function rectangleLayer(frame, p) {
    const layer = h("div", { class: "draw-layer" });
    const rect = h("div", { class: "box drawn" });
    let start = null;
    const point = (e) => {
      const b = frame.getBoundingClientRect();
      return {
        x: Math.max(0, Math.min(p.width, ((e.clientX - b.left) / b.width) * p.width)),
        y: Math.max(0, Math.min(p.height, ((e.clientY - b.top) / b.height) * p.height)),
      };
    };
    layer.addEventListener("pointerdown", (e) => {
      start = point(e);
      layer.setPointerCapture(e.pointerId);
      layer.append(rect);
    });
    layer.addEventListener("pointermove", (e) => {
      if (!start) return;
      const q = point(e);
      Object.assign(rect.style, {
        left: pct(Math.min(start.x, q.x), p.width),
        top: pct(Math.min(start.y, q.y), p.height),
        width: pct(Math.abs(q.x - start.x), p.width),
        height: pct(Math.abs(q.y - start.y), p.height),
      });
    });
    layer.addEventListener("pointerup", (e) => {
      if (!start) return;
      const q = point(e);
      const box = {
        x: Math.round(Math.min(start.x, q.x)),
        y: Math.round(Math.min(start.y, q.y)),
        w: Math.max(1, Math.round(Math.abs(q.x - start.x))),
        h: Math.max(1, Math.round(Math.abs(q.y - start.y))),
      };
      start = null;
      setDrawing(false);
      if (box.w < 4 || box.h < 4) return draw();
      busy(null, out, async () => {
        // Re-read into the selected region, or into a new region created for the rectangle.
        let regionId = selected.size === 1 ? [...selected][0] : null;
        if (!regionId)
          regionId = (await api(`/projects/${projectId}/regions`, { method: "POST", json: { page_index: pageIndex, box } })).id;
        await api(`/projects/${projectId}/regions/${regionId}/reocr`, { method: "POST", json: { box } });
        selected.clear();
        selected.add(regionId);
        await reload();
        out.show("The rectangle was read again.");
      });
    });
    return layer;
  }

  function setDrawing(on) {
    drawing = on;
    drawBtn.setAttribute("aria-pressed", String(on));
    drawBtn.textContent = on ? "Cancel drawing" : "Draw a rectangle to re-read";
    draw();
  }
  drawBtn.addEventListener("click", () => {
    view = "original";
    setDrawing(!drawing);
  });
  viewBtn.addEventListener("click", () => {
    view = view === "rendered" ? "original" : "rendered";
    draw();
  });

  function drawPanel() {
    const ids = [...selected];
    if (ids.length === 0) {
      const list = regionsOfPage();
      return render(
        panel,
        h("h2", {}, "Regions"),
        list.length
          ? h(
              "ol",
              { class: "regions" },
              list.map((r) =>
                h(
                  "li",
                  {},
                  h(
                    "button",
                    {
                      type: "button",
                      class: "link",
                      dir: dirOf(project.source_language),
                      onclick: () => {
                        selected.add(r.id);
                        draw();
                      },
                    },
                    (r.user_text ?? r.text) || "(empty)",
                  ),
                  flags(r),
                ),
              ),
            )
          : h("p", { class: "empty" }, "No text was found on this page. Draw a rectangle to read a part of it."),
      );
    }
    if (ids.length > 1) {
      const mergeBtn = h("button", { type: "button" }, `Merge ${ids.length} regions`);
      mergeBtn.addEventListener("click", () =>
        busy(mergeBtn, out, async () => {
          const merged = await api(`/projects/${projectId}/regions/merge`, { method: "POST", json: { region_ids: ids } });
          selected.clear();
          selected.add(merged.id);
          await reload();
        }),
      );
      return render(
        panel,
        h("h2", {}, `${ids.length} regions selected`),
        mergeBtn,
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: () => {
              selected.clear();
              draw();
            },
          },
          "Clear selection",
        ),
      );
    }
    const r = project.regions.find((x) => x.id === ids[0]);
    const text = h("textarea", { rows: 4, maxlength: 20000, dir: dirOf(project.source_language) });
    text.value = r.user_text ?? r.text;
    const translation = h("textarea", { rows: 4, maxlength: 20000, dir: dirOf(project.target_language) });
    translation.value = r.user_translation ?? r.translation ?? "";
    const save = h("button", { type: "submit" }, "Save");
    const alts = h("div", {});
    const body = {};
    const form = h(
      "form",
      {
        onsubmit: onSubmit(save, out, async () => {
          if (text.value !== (r.user_text ?? r.text)) body.text = text.value;
          if (translation.value !== (r.user_translation ?? r.translation ?? "")) body.translation = translation.value;
          if (!Object.keys(body).length) return out.show("Nothing changed.");
          await api(`/projects/${projectId}/regions/${r.id}`, { method: "PATCH", json: body });
          await reload();
          out.show("Saved.");
        }),
      },
      field(
        "Source text",
        text,
        r.user_text !== null
          ? `Recognised: ${r.text}`
          : r.confidence !== null
            ? `Confidence ${Math.round(r.confidence * (r.confidence <= 1 ? 100 : 1))}%`
            : null,
      ),
      project.target_language
        ? field(
            `Translation (${project.target_language})`,
            translation,
            r.user_translation !== null && r.translation ? `Machine translation: ${r.translation}` : null,
          )
        : null,
      h(
        "div",
        { class: "actions" },
        save,
        act("Split by lines", out, async () => {
          const regions = await api(`/projects/${projectId}/regions/${r.id}/split`, { method: "POST", json: { mode: "lines" } });
          selected.clear();
          await reload();
          out.show(`Split into ${regions.length} regions.`);
        }),
        project.target_language
          ? act("Alternatives", alts, async () => {
              const a = await api(`/projects/${projectId}/regions/${r.id}/alternatives`);
              const items = Array.isArray(a.candidates) ? a.candidates : [];
              render(
                alts,
                h("h3", {}, "Alternatives"),
                items.length
                  ? h(
                      "ul",
                      {},
                      items.map((x) => {
                        return h(
                          "li",
                          {},
                          h(
                            "button",
                            {
                              type: "button",
                              class: "link",
                              onclick: () => {
                                translation.value = x.text;
                                translation.focus();
                              },
                            },
                            x.text,
                          ),
                          h("small", { class: "muted" }, ` ${x.provider || x.origin}`),
                        );
                      }),
                    )
                  : h("p", { class: "empty" }, "No alternatives for this text."),
              );
            })
          : null,
        act(
          "Delete region",
          out,
          async () => {
            await api(`/projects/${projectId}/regions/${r.id}`, { method: "DELETE" });
            selected.clear();
            await reload();
          },
          "danger",
        ),
      ),
    );
    render(
      panel,
      h("h2", {}, `Region ${r.order + 1}`),
      flags(r),
      form,
      alts,
      h(
        "button",
        {
          type: "button",
          class: "link",
          onclick: () => {
            selected.clear();
            draw();
          },
        },
        "Back to all regions",
      ),
    );
  }

  function flags(r) {
    const f = [];
    if (r.overflow === "overflowing") f.push("Translation does not fit its box");
    else if (r.overflow === "shrunk") f.push("Translation shrunk to fit");
    if (r.leftover_text) f.push("Original text may still show after erasing");
    if (r.smear) f.push("The erased area may look smeared: check the background here");
    return f.length
      ? h(
          "ul",
          { class: "flags" },
          f.map((x) => h("li", {}, x)),
        )
      : null;
  }

  function drawTables() {
    const list = project.tables.filter((t) => t.page_index === pageIndex);
    render(
      tables,
      list.map((t, n) => {
        const inputs = new Map();
        const grid = h(
          "table",
          { class: "grid" },
          h(
            "tbody",
            {},
            Array.from({ length: t.rows }, (_, row) =>
              h(
                "tr",
                {},
                Array.from({ length: t.columns }, (_, column) => {
                  const cell = t.cells.find((c) => c.row === row && c.column === column);
                  if (
                    !cell &&
                    t.cells.some((c) => c.row <= row && row < c.row + c.row_span && c.column <= column && column < c.column + c.column_span)
                  )
                    return null;
                  const input = h("input", {
                    dir: "auto",
                    value: cell ? cell.text : "",
                    "aria-label": `Row ${row + 1}, column ${column + 1}`,
                  });
                  inputs.set(`${row}:${column}`, { input, before: cell ? cell.text : "" });
                  return h(
                    "td",
                    {
                      colspan: cell && cell.column_span > 1 ? cell.column_span : null,
                      rowspan: cell && cell.row_span > 1 ? cell.row_span : null,
                    },
                    input,
                  );
                }),
              ),
            ),
          ),
        );
        const save = h("button", { type: "button" }, "Save cells");
        save.addEventListener("click", () =>
          busy(save, out, async () => {
            const changes = [...inputs]
              .filter(([, v]) => v.input.value !== v.before)
              .map(([k, v]) => ({ row: Number(k.split(":")[0]), column: Number(k.split(":")[1]), text: v.input.value }));
            if (!changes.length) return out.show("No cell changed.");
            const res = await api(`/projects/${projectId}/tables/${t.id}/cells`, { method: "PATCH", json: changes });
            await reload();
            out.show(`${res.updated} cell(s) saved.`);
          }),
        );
        return h("section", { class: "card" }, h("h2", {}, `Table ${n + 1}`), h("div", { class: "scroll" }, grid), save);
      }),
    );
  }

  // Re-render: a free job that redraws every page from the regions as edited and rebuilds the
  // job's exports. Its progress line has a fixed size (one line, bar kept in place while idle), so
  // updates never move the page image or the panel.
  const rerenderBtn = h(
    "button",
    {
      type: "button",
      class: "secondary",
      title: draws
        ? "Erase and typeset every page again from your edits, and rebuild the exports. Free."
        : "Rebuild the exports from your edits. Free.",
    },
    draws ? "Re-render (free)" : "Re-export (free)",
  );
  const rerenderBar = h("progress", { max: "100", value: "0", "aria-label": "Re-render progress" });
  const rerenderText = h("span", { class: "rerender-text" });
  const rerenderLine = h(
    "div",
    { class: "rerender", "data-state": "idle", role: "status", "aria-live": "polite" },
    rerenderBar,
    rerenderText,
  );
  const setRerender = (state, text, percent) => {
    rerenderLine.dataset.state = state;
    rerenderText.textContent = text;
    rerenderText.title = text;
    if (typeof percent === "number") rerenderBar.value = percent;
  };

  function followRerender(job) {
    rerenderBtn.disabled = true;
    setRerender("running", "Re-render queued…", 0);
    const events = new EventSource(`/api/v1/jobs/${job.id}/events`);
    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      events.close();
      try {
        const j = await api(`/jobs/${job.id}`);
        project = await api(`/projects/${projectId}`);
        const ok = j.status === "completed" || j.status === "partially_completed";
        const p = page();
        if (ok && draws && p && p.render_url) {
          await preload(p.render_url);
          view = "rendered";
        }
        draw();
        if (ok)
          setRerender(
            "done",
            j.status === "completed"
              ? draws
                ? "Re-rendered: showing the new rendered page."
                : "Exports rebuilt."
              : `Re-rendered, but ${j.pages.failed} page(s) failed: ${j.error ? j.error.message : "see the job"}.`,
            100,
          );
        else setRerender("failed", j.error ? j.error.message : `The re-render ${j.status.replaceAll("_", " ")}.`);
        await loadExports();
      } catch (err) {
        setRerender("failed", err.message || String(err));
      } finally {
        rerenderBtn.disabled = false;
      }
    };
    const update = (ev) => {
      const d = JSON.parse(ev.data || "{}");
      if (d.status && TERMINAL.includes(d.status)) return finish();
      const stage = d.stage ? d.stage.replaceAll("_", " ") : d.status || "";
      setRerender("running", d.message || `Re-render: ${stage}`, typeof d.percent === "number" ? d.percent : undefined);
    };
    events.addEventListener("status", update);
    events.addEventListener("progress", update);
    events.addEventListener("warning", update);
    events.addEventListener("done", finish);
    // The browser reconnects by itself; a job that ended meanwhile is read once more.
    events.onerror = () =>
      api(`/jobs/${job.id}`).then(
        (j) => {
          if (TERMINAL.includes(j.status)) finish();
        },
        () => null,
      );
  }

  // Not busy(): the button stays disabled until the job ends, not just until the request answers.
  // Errors go to the re-render line too, so nothing above the page image appears or goes.
  rerenderBtn.addEventListener("click", async () => {
    rerenderBtn.disabled = true;
    try {
      const job = await api(`/projects/${projectId}/rerender`, { method: "POST", json: {} });
      project.status = "processing";
      showMeta();
      followRerender(job);
    } catch (err) {
      setRerender("failed", err.message || String(err));
      rerenderBtn.disabled = false;
    }
  });

  const exportsList = h("ul", {});
  const format = h(
    "select",
    {},
    (tool ? tool.export_formats : []).map((f) => h("option", { value: f }, f)),
  );
  const content = h(
    "select",
    {},
    h("option", { value: "source" }, "Source text"),
    project.target_language ? h("option", { value: "translation", selected: true }, "Translation") : null,
  );
  const exportOut = notice();
  const loadExports = async () => {
    const list = await api(`/projects/${projectId}/exports`);
    render(
      exportsList,
      listItems(
        list,
        (x) => [
          x.download
            ? downloadButton(x.download, `${x.filename || x.format} (${formatBytes(x.bytes)})`, exportOut)
            : `${x.format}: ${x.status}`,
          h("small", { class: "muted" }, ` ${formatDate(x.created_at)}`),
        ],
        "No exports yet.",
      ),
    );
  };
  const exportBtn = h("button", { type: "submit" }, "Create export");
  const exportForm = inlineForm(
    exportBtn,
    exportOut,
    async () => {
      const x = await api(`/projects/${projectId}/exports`, { method: "POST", json: { format: format.value, content: content.value } });
      await loadExports();
      exportOut.show(`Export ${x.filename || x.format} is ${x.status}.`);
    },
    field("Format", format),
    field("Content", content),
  );

  render(
    main,
    h("p", {}, link("/projects", "← Projects")),
    h("h1", {}, project.name),
    meta,
    pager,
    h("div", { class: "toolbar" }, drawBtn, viewBtn, rerenderBtn, rerenderLine),
    out,
    h("div", { class: "editor" }, stage, panel),
    tables,
    h("section", { class: "card" }, h("h2", {}, "Exports"), exportForm, exportOut, exportsList),
    await sharePanel(projectId),
  );
  draw();
  // A re-render started earlier (here or elsewhere) is still running: follow it.
  if (project.status === "processing") {
    const running = await api("/jobs", { query: { limit: 50 } }).then(
      (l) => l.items.find((j) => j.kind === "rerender" && j.project_id === projectId && !TERMINAL.includes(j.status)),
      () => null,
    );
    if (running) followRerender(running);
  }
  await loadExports();
}
