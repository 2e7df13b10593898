// The public viewer of a share link (/s/<token>): no account. Asks for the password when the link
// has one, shows each page translated or original, the text, and the downloads the owner allows.
import { ApiFailure } from "./api.js";
import { h, render, field, notice, busy, cardForm, formatBytes, listItems } from "./dom.js";

async function shareApi(path, password) {
  const url = new URL(`/api/v1/share/${path}`, location.origin);
  if (password) url.searchParams.set("password", password);
  const res = await fetch(url, { credentials: "omit" });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiFailure(res.status, data);
  return data;
}

export async function shareViewerPage(main, [token]) {
  const out = notice();
  const open = async (password) => {
    const view = await shareApi(encodeURIComponent(token), password);
    document.title = `${view.project.name} · Lingoscan`;
    showView(main, token, view, password);
  };
  try {
    await open("");
  } catch (err) {
    if (err.code !== "share_password_required") {
      render(main, h("h1", {}, "This link does not work"), h("p", { class: "notice", "data-kind": "error", role: "alert" }, err.message));
      return;
    }
    const pw = h("input", { type: "password", autocomplete: "current-password", required: true });
    const submit = h("button", { type: "submit" }, "Open");
    render(
      main,
      h("h1", {}, "Protected document"),
      cardForm(submit, out, () => open(pw.value), h("p", {}, "The owner protected this document with a password."), field("Password", pw)),
    );
    pw.focus();
  }
}

function showView(main, token, view, password) {
  const hasTranslation = Boolean(view.project.target_language) || view.pages.some((p) => p.render_url);
  let translated = hasTranslation;
  const out = notice();
  const pages = h("div", { class: "viewer-pages" });
  const toggle = h("button", { type: "button", class: "secondary", "aria-pressed": String(translated) });

  const draw = () => {
    toggle.textContent = translated ? "Show original" : "Show translation";
    toggle.setAttribute("aria-pressed", String(translated));
    render(
      pages,
      view.pages.map((p) => {
        const src = translated && p.render_url ? p.render_url : p.image_url;
        const regions = view.regions.filter((r) => r.page_index === p.index).sort((a, b) => a.order - b.order);
        const frame = h("div", { class: "frame" });
        frame.style.aspectRatio = `${p.width} / ${p.height}`;
        if (src) frame.append(h("img", { src, alt: `Page ${p.index + 1}${translated ? " (translated)" : ""}` }));
        return h(
          "section",
          { class: "viewer-page" },
          h("h2", {}, `Page ${p.index + 1}`),
          frame,
          regions.length
            ? h(
                "ol",
                { class: "regions" },
                regions.map((r) => h("li", {}, translated && r.translation ? r.translation : r.text)),
              )
            : null,
        );
      }),
    );
  };
  toggle.addEventListener("click", () => {
    translated = !translated;
    draw();
  });

  const downloads = h("ul", {});
  const dl = h("button", { type: "button" }, "Download");
  dl.addEventListener("click", () =>
    busy(dl, out, async () => {
      const d = await shareApi(`${encodeURIComponent(token)}/download`, password);
      render(
        downloads,
        listItems(
          d.exports,
          (x) => h("a", { href: x.url, download: x.filename }, `${x.filename} (${formatBytes(x.bytes)})`),
          "No files to download yet.",
        ),
      );
    }),
  );

  render(
    main,
    h("h1", {}, view.project.name),
    h(
      "p",
      { class: "muted" },
      `${view.project.page_count} page(s)` +
        (view.project.target_language ? ` · ${view.project.source_language || "?"} → ${view.project.target_language}` : ""),
    ),
    h("div", { class: "toolbar" }, hasTranslation ? toggle : null, view.allow_download ? dl : null),
    out,
    downloads,
    pages,
  );
  draw();
}
