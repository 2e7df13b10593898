// New job (upload one or many files, options, estimate, start) and the live progress of a job
// over Server-Sent Events (GET /jobs/{id}/events; the session cookie goes with it, same origin).
import { api, appConfig } from "./api.js";
import { h, render, field, notice, busy, onSubmit, link, go, formatBytes, act } from "./dom.js";

export const TERMINAL = ["completed", "partially_completed", "failed", "cancelled"];

export async function newJobPage(main) {
  const [config, glossaries] = await Promise.all([appConfig(), api("/account/glossaries").catch(() => [])]);
  const out = notice();
  const estimateOut = notice();
  let files = [];

  // The drop zone is the file input's label: its visible text is the input's name, a click or a
  // key press on the (visually hidden, focusable) input opens the file chooser.
  const fileInput = h("input", { type: "file", multiple: true, accept: "image/*,application/pdf", class: "visually-hidden" });
  const fileList = h("ul", { class: "files" });
  const drop = h(
    "label",
    { class: "drop" },
    h("strong", {}, "Drop files here"),
    h("span", { class: "muted" }, " or press to choose images and PDFs"),
    fileInput,
  );
  const setFiles = (list) => {
    files = [...list];
    render(
      fileList,
      files.length
        ? files.map((f) => h("li", {}, `${f.name} (${formatBytes(f.size)})`))
        : h("li", { class: "muted" }, "No file chosen yet."),
    );
    estimateOut.clear();
  };
  setFiles([]);
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    setFiles(e.dataTransfer.files);
  });
  fileInput.addEventListener("change", () => setFiles(fileInput.files));

  const tool = h(
    "select",
    {},
    config.tools.map((t) => h("option", { value: t.id }, t.name)),
  );
  const toolHelp = h("small", { class: "muted" });
  const source = h(
    "select",
    {},
    config.languages.ocr.map((l) => h("option", { value: l.code, selected: l.code === "en" }, l.name)),
  );
  const target = h("select", {});
  const targetField = field("Translate into", target);
  const formats = h("fieldset", { class: "checks" });
  const glossary = h(
    "select",
    { multiple: true, size: 3 },
    glossaries.map((g) => h("option", { value: g.id }, `${g.name} (${g.source_language}→${g.target_language})`)),
  );
  const glossaryField = field(
    "Glossaries",
    glossary,
    glossaries.length ? "Terms the translation must keep." : "No glossaries yet: create them under Account.",
  );

  const names = new Map(config.languages.ocr.map((l) => [l.code, l.name]));
  const refresh = () => {
    const t = config.tools.find((x) => x.id === tool.value);
    toolHelp.textContent = `${t.description} ${t.credits_per_page} credit(s) per page.`;
    const pairs = config.languages.translation_pairs.filter((p) => p.source === source.value);
    render(
      target,
      pairs.length
        ? pairs.map((p) => h("option", { value: p.target }, names.get(p.target) ? `${names.get(p.target)} (${p.target})` : p.target))
        : h("option", { value: "" }, "No translation from this language"),
    );
    targetField.hidden = !t.needs_target_language;
    glossaryField.hidden = !t.needs_target_language;
    render(
      formats,
      h("legend", {}, "Export formats"),
      t.export_formats.map((f) =>
        h("label", { class: "check" }, h("input", { type: "checkbox", value: f, checked: t.default_exports.includes(f) }), " ", f),
      ),
    );
    estimateOut.clear();
  };
  tool.addEventListener("change", refresh);
  source.addEventListener("change", refresh);
  refresh();

  const options = () => {
    const t = config.tools.find((x) => x.id === tool.value);
    const o = { tool: t.id, source_language: source.value };
    const fmts = [...formats.querySelectorAll("input:checked")].map((i) => i.value);
    if (fmts.length) o.export_formats = fmts;
    if (t.needs_target_language) {
      if (!target.value) throw new Error("Choose a language to translate into.");
      o.target_language = target.value;
      const g = [...glossary.selectedOptions].map((x) => x.value);
      if (g.length) o.glossary_ids = g;
    }
    return o;
  };

  const estimateBtn = h("button", { type: "button", class: "secondary" }, "Estimate cost");
  const estimate = () =>
    busy(estimateBtn, estimateOut, async () => {
      // Images are one page each; a PDF's page count is known only after upload, so count it as one.
      const pages = Math.max(1, files.length);
      const e = await api("/estimate", { method: "POST", query: { pages }, json: options() });
      estimateOut.show(
        `${e.pages} page(s) × ${e.credits_per_page} = ${e.credits} credits (PDFs count every page). You have ${e.available_credits} credits` +
          (e.sufficient_credits ? "." : " — not enough.") +
          (e.within_page_limit ? "" : ` Your ${e.plan} plan allows ${e.page_limit} pages per document.`),
        e.sufficient_credits ? "info" : "error",
      );
      return e;
    });
  estimateBtn.addEventListener("click", estimate);

  const start = h("button", { type: "submit" }, "Start");
  const form = h(
    "form",
    {
      class: "card",
      onsubmit: onSubmit(start, out, async () => {
        if (!files.length) throw new Error("Choose at least one file.");
        const est = await estimate();
        if (!est || !est.sufficient_credits) return;
        const body = new FormData();
        for (const f of files) body.append("file", f, f.name);
        body.append("options", JSON.stringify(options()));
        const job = await api(files.length > 1 ? "/batch" : "/process", { method: "POST", form: body });
        go(`/jobs/${job.id}`);
      }),
    },
    drop,
    fileList,
    h(
      "div",
      { class: "grid2" },
      h("div", {}, field("Tool", tool), toolHelp),
      field("Language of the text", source),
      targetField,
      glossaryField,
    ),
    formats,
    h("div", { class: "actions" }, estimateBtn, start),
    estimateOut,
    out,
  );
  render(main, h("h1", {}, "New job"), form);
}

function describeEvent(type, data) {
  if (data.error) return `${data.message || "Failed"}`;
  if (data.message) return data.message;
  if (type === "status") return `Job is ${data.status}${data.stage ? ` (${data.stage})` : ""}.`;
  return `${type}: ${data.stage || data.status || ""}`;
}

export async function jobPage(main, [jobId]) {
  let job = await api(`/jobs/${jobId}`);
  const status = h("p", { class: "status", "aria-live": "polite" });
  const bar = h("progress", { max: "100", value: "0", "aria-label": "Progress" });
  // The log scrolls once long: focusable, so that it scrolls from the keyboard too.
  const log = h("ol", { class: "log", "aria-live": "polite", tabindex: "0", "aria-label": "Progress events" });
  const result = h("div", {});
  const out = notice();

  const show = () => {
    status.textContent =
      `${job.status.replaceAll("_", " ")}${job.stage ? ` — ${job.stage}` : ""} · pages ${job.pages.succeeded}/${job.pages.total}` +
      (job.pages.failed ? `, ${job.pages.failed} failed` : "");
    status.dataset.state = job.status;
    bar.value = job.progress.percent;
    const parts = [];
    if (job.error) parts.push(h("p", { class: "notice", "data-kind": "error", role: "alert" }, job.error.message));
    if (job.project_id) parts.push(h("p", {}, link(`/projects/${job.project_id}`, "Open in the editor", { class: "button" })));
    if (job.output.exports.length)
      parts.push(
        h("h2", {}, "Results"),
        h(
          "ul",
          {},
          job.output.exports.map((x) => h("li", {}, downloadButton(x.download, `${x.filename} (${formatBytes(x.bytes)})`, out))),
        ),
      );
    if (!TERMINAL.includes(job.status))
      parts.push(
        act("Cancel", out, async () => {
          job = await api(`/jobs/${jobId}/cancel`, { method: "POST" });
          show();
        }),
      );
    else if (job.status !== "completed")
      parts.push(
        act("Retry", out, async () => {
          job = await api(`/jobs/${jobId}/${job.kind === "batch" ? "retry-failed" : "retry"}`, { method: "POST" });
          show();
          listen();
        }),
      );
    render(result, parts);
    if (job.kind === "batch") children();
  };

  const childList = h("ul", {});
  const children = async () => {
    const list = await api("/jobs", { query: { parent_job_id: job.id, limit: 100 } }).catch(() => null);
    if (list)
      render(
        childList,
        list.items.map((c) => h("li", {}, link(`/jobs/${c.id}`, c.source.name || c.id), ` — ${c.status.replaceAll("_", " ")}`)),
      );
  };

  let source = null;
  const listen = () => {
    if (TERMINAL.includes(job.status)) return;
    source?.close();
    source = new EventSource(`/api/v1/jobs/${jobId}/events`);
    const onEvent = (type) => (ev) => {
      const data = JSON.parse(ev.data || "{}");
      if (typeof data.percent === "number") bar.value = data.percent;
      if (data.status) job.status = data.status;
      if (data.stage) job.stage = data.stage;
      log.append(h("li", { "data-kind": data.error ? "error" : "info" }, describeEvent(type, data)));
      if (type === "done") {
        source.close();
        api(`/jobs/${jobId}`).then(
          (j) => {
            job = j;
            show();
          },
          (err) => out.fail(err),
        );
      } else show();
    };
    for (const t of ["status", "progress", "warning", "done"]) source.addEventListener(t, onEvent(t));
    source.onerror = () => {
      // The browser reconnects by itself (with Last-Event-ID); once finished the job is read again.
      api(`/jobs/${jobId}`).then(
        (j) => {
          job = j;
          show();
          if (TERMINAL.includes(j.status)) source.close();
        },
        () => null,
      );
    };
  };

  render(
    main,
    h("h1", {}, job.source.name || "Job"),
    h("p", { class: "muted" }, `${job.tool} · ${job.kind} · ${job.id}`),
    status,
    bar,
    result,
    job.kind === "batch" ? [h("h2", {}, "Files"), childList] : null,
    h("h2", {}, "Progress"),
    log,
    out,
  );
  show();
  listen();
}

/** A button that asks the API for a short-lived signed URL and follows it. */
export function downloadButton(downloadPath, label, out) {
  return h(
    "button",
    {
      type: "button",
      class: "link",
      onclick: (e) =>
        busy(e.target, out, async () => {
          const r = await api(downloadPath.replace(/^\/api\/v1/, ""));
          location.assign(r.url);
        }),
    },
    label,
  );
}
