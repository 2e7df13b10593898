// The owner's side of share links: create (optional password and expiry), copy, revoke.
import { api } from "./api.js";
import { h, render, field, notice, formatDate, act, inlineForm, listItems } from "./dom.js";

/** The web app's viewer address for a share token (the API's own URL answers JSON). */
export function viewerUrl(token) {
  return `${location.origin}/s/${encodeURIComponent(token)}`;
}

export async function sharePanel(projectId) {
  const out = notice();
  const list = h("ul", { class: "shares" });
  const created = h("div", {});
  const password = h("input", { type: "password", autocomplete: "new-password", minlength: 4, maxlength: 256 });
  const hours = h("input", { type: "number", min: 1, max: 8784, inputmode: "numeric" });
  const allow = h("input", { type: "checkbox", checked: true });

  const load = async () => {
    const shares = await api(`/projects/${projectId}/share`);
    render(
      list,
      listItems(
        shares,
        (s) => [
          `${s.token_prefix}… · ${s.status}${s.has_password ? " · password" : ""} · ${s.view_count} view(s) · expires ${s.expires_at ? formatDate(s.expires_at) : "never"} `,
          s.status === "active"
            ? act(
                "Revoke",
                out,
                async () => {
                  await api(`/share/${s.id}`, { method: "DELETE" });
                  await load();
                },
                "danger",
              )
            : null,
        ],
        "No share links yet.",
      ),
    );
  };

  const submit = h("button", { type: "submit" }, "Create link");
  const form = inlineForm(
    submit,
    out,
    async () => {
      const body = { allow_download: allow.checked };
      if (password.value) body.password = password.value;
      if (hours.value) body.expires_in_hours = Number(hours.value);
      const s = await api(`/projects/${projectId}/share`, { method: "POST", json: body });
      const url = viewerUrl(s.token);
      const input = h("input", { readonly: true, value: url, "aria-label": "Share link", class: "share-url" });
      render(
        created,
        h("p", {}, "Anyone with this link can view the document. It is shown only now:"),
        h(
          "div",
          { class: "inline" },
          input,
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              onclick: async () => {
                try {
                  await navigator.clipboard.writeText(url);
                  out.show("Link copied.");
                } catch {
                  input.select();
                  out.show("Press Ctrl+C to copy the selected link.");
                }
              },
            },
            "Copy",
          ),
        ),
      );
      password.value = "";
      await load();
    },
    field("Password (optional)", password),
    field("Expires after hours (optional)", hours),
    h("label", { class: "check" }, allow, " Allow downloads"),
  );

  await load();
  return h("section", { class: "card" }, h("h2", {}, "Share"), form, created, out, list);
}
