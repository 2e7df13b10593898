// Builds DOM nodes. Data is only ever placed with textContent / attributes, never as HTML.

/** h("button", {class: "x", onclick}, "text", child) → element. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "value") el.value = v;
    else if (k === "checked" || k === "selected" || k === "disabled" || k === "multiple" || k === "required" || k === "hidden")
      el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces the children of `el`. */
export function render(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A labelled form field; `input` is the control element. */
export function field(label, input, hint) {
  const id = input.id || "f" + Math.random().toString(36).slice(2, 9);
  input.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), input, hint ? h("small", { class: "muted" }, hint) : null);
}

/** A live region for results and errors of an action. */
export function notice() {
  const el = h("p", { class: "notice", role: "status", "aria-live": "polite" });
  el.show = (text, kind = "info") => {
    el.textContent = text;
    el.dataset.kind = kind;
  };
  el.fail = (err) => el.show(err && err.message ? err.message : String(err), "error");
  el.clear = () => {
    el.textContent = "";
    delete el.dataset.kind;
  };
  return el;
}

/** Runs an async action from a form/button with the button disabled and errors shown in `out`. */
export async function busy(button, out, fn) {
  if (button) button.disabled = true;
  out?.clear?.();
  try {
    return await fn();
  } catch (err) {
    if (out) out.fail(err);
    else throw err;
  } finally {
    if (button) button.disabled = false;
  }
}

/** A form's submit handler: no page load; `fn` runs as `busy(button, out, fn)`. */
export function onSubmit(button, out, fn) {
  return (e) => {
    e.preventDefault();
    busy(button, out, fn);
  };
}

/** A narrow card form: its content, then the submit button and the notice; submitting runs `fn` as `busy(submit, out, fn)`. */
export const cardForm = (submit, out, fn, ...content) =>
  h("form", { class: "card narrow", onsubmit: onSubmit(submit, out, fn) }, ...content, submit, out);

/** A list's items: one `li` per entry holding what `item(entry)` gives (a child or an array of them), or one empty-state line. */
export const listItems = (entries, item, empty) =>
  entries.length ? entries.map((x) => h("li", {}, item(x))) : h("li", { class: "empty" }, empty);

/** An inline form: its fields, then the submit button; submitting runs `fn` as `busy(submit, out, fn)` (the notice stands elsewhere). */
export const inlineForm = (submit, out, fn, ...fields) =>
  h("form", { class: "inline", onsubmit: onSubmit(submit, out, fn) }, ...fields, submit);

/** A button that runs `fn` as `busy(button, out, fn)` when clicked. */
export const act = (label, out, fn, cls = "secondary") =>
  h("button", { type: "button", class: cls, onclick: (e) => busy(e.target, out, fn) }, label);

export function formatDate(s) {
  return s ? new Date(s).toLocaleString() : "—";
}

export function formatBytes(n) {
  if (n === null || n === undefined) return "—";
  if (n < 1024) return n + " B";
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " KB";
  return (n / 1024 / 1024).toFixed(1) + " MB";
}

/** Same-origin navigation without a reload (the router listens for it). */
export function go(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("popstate"));
}

/** An in-app link. */
export function link(path, text, attrs = {}) {
  return h(
    "a",
    {
      href: path,
      ...attrs,
      onclick: (e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        go(path);
      },
    },
    text,
  );
}
