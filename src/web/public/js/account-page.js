// Account: profile, sessions, two-factor, API keys, webhooks, glossaries, translation memory,
// wallet and ledger, usage, plans and checkout. Each section loads on its own so one failing
// section does not hide the others.
import { api, appConfig } from "./api.js";
import { h, render, field, notice, busy, onSubmit, formatDate, act, inlineForm } from "./dom.js";

/**
 * A section that builds its body with `build(reload, out, kept)`; `kept` is an area that survives
 * reloads (a secret shown once must stay visible after the list is read again).
 */
function section(title, build) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const out = notice();
  const kept = h("div", {});
  const el = h("section", { class: "card", id: title.toLowerCase().replace(/[^a-z]+/g, "-") }, h("h2", {}, title), out, kept, body);
  const reload = () => busy(null, out, async () => render(body, await build(reload, out, kept)));
  reload();
  return el;
}

/** A secret shown once, with a copy button. */
function shownOnce(label, value) {
  const input = h("input", { readonly: true, value, "aria-label": label, class: "share-url" });
  return h(
    "div",
    { class: "notice", "data-kind": "info" },
    h("p", {}, `${label} — shown only now; copy it:`),
    h(
      "div",
      { class: "inline" },
      input,
      h(
        "button",
        { type: "button", class: "secondary", onclick: () => navigator.clipboard.writeText(value).catch(() => input.select()) },
        "Copy",
      ),
    ),
  );
}

function table(headers, rows, empty) {
  if (!rows.length) return h("p", { class: "empty" }, empty);
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          // A column without a heading holds the row's buttons: its header is named for screen readers.
          headers.map((x) => h("th", {}, x || h("span", { class: "visually-hidden" }, "Actions"))),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((r) =>
          h(
            "tr",
            {},
            r.map((c) => h("td", {}, c)),
          ),
        ),
      ),
    ),
  );
}

export async function accountPage(main, _params, session) {
  const user = session.user;
  const q = new URLSearchParams(location.search);
  const checkout = q.get("checkout");
  render(
    main,
    h("h1", {}, "Account"),
    checkout
      ? h(
          "p",
          { class: "notice", "data-kind": checkout === "success" ? "info" : "error", role: "status" },
          checkout === "success" ? "Payment received; the credits appear once it is confirmed." : "The payment was not completed.",
        )
      : null,
    h("p", {}, `${user.email} · ${user.plan} plan` + (user.email_verified ? "" : " · email not verified")),
    h(
      "nav",
      { class: "toc", "aria-label": "Account sections" },
      [
        "Wallet",
        "Usage",
        "Plans and credits",
        "API keys",
        "Webhooks",
        "Glossaries",
        "Translation memory",
        "Sessions",
        "Two-factor sign-in",
      ].map((t) => h("a", { href: "#" + t.toLowerCase().replace(/[^a-z]+/g, "-") }, t)),
    ),
    section("Wallet", walletSection),
    section("Usage", usageSection),
    section("Plans and credits", plansSection),
    section("API keys", apiKeysSection),
    section("Webhooks", webhooksSection),
    section("Glossaries", glossariesSection),
    section("Translation memory", memorySection),
    section("Sessions", sessionsSection),
    section("Two-factor sign-in", (reload, out) => twoFactorSection(reload, out, session)),
  );
}

async function walletSection() {
  const [w, ledger] = await Promise.all([api("/account/wallet"), api("/account/wallet/ledger", { query: { limit: 20 } })]);
  return [
    h("p", { class: "big" }, `${w.available} credits available`),
    h("p", { class: "muted" }, `Balance ${w.balance}, held by running jobs ${w.reserved}.`),
    table(
      ["When", "Kind", "Amount", "Balance after", "Reason"],
      ledger.map((e) => [formatDate(e.created_at), e.kind, String(e.amount), String(e.balance_after), e.reason || ""]),
      "No credit moves yet.",
    ),
  ];
}

async function usageSection() {
  const u = await api("/account/usage", { query: { days: 30 } });
  const max = Math.max(1, ...u.daily.map((d) => d.pages));
  return [
    h("p", {}, `Last ${u.days} days: ${u.totals.jobs} job(s), ${u.totals.pages} page(s), ${u.totals.credits} credit(s).`),
    h(
      "div",
      { class: "chart", role: "img", "aria-label": `Pages per day, most ${max}` },
      u.daily.map((d) => {
        const bar = h("span", { title: `${d.day}: ${d.pages} page(s)` });
        bar.style.height = `${(d.pages / max) * 100}%`;
        return bar;
      }),
    ),
  ];
}

async function plansSection(_reload, out) {
  const [{ plans, credit_packs }, sub] = await Promise.all([api("/billing/plans"), api("/billing/subscription")]);
  const pay = async (body) => {
    const c = await api("/billing/checkout", { method: "POST", json: body });
    location.assign(c.url);
  };
  return [
    sub ? h("p", {}, `Subscription: ${sub.plan} (${sub.status})`) : h("p", { class: "muted" }, "No subscription."),
    table(
      ["Plan", "Price per month", "Credits per month", "Pages per document", ""],
      plans.map((p) => [
        p.name,
        `${(p.price_cents / 100).toFixed(2)} ${p.currency.toUpperCase()}`,
        String(p.monthly_credits),
        String(p.page_limit),
        p.price_cents > 0 ? act(`Subscribe to ${p.name}`, out, () => pay({ kind: "subscription", plan: p.id }), "") : "",
      ]),
      "No plans.",
    ),
    h("h3", {}, "Buy credits"),
    h(
      "div",
      { class: "actions" },
      credit_packs.map((k) =>
        act(`${k.name} — ${(k.price_cents / 100).toFixed(2)} ${k.currency.toUpperCase()}`, out, () => pay({ kind: "credits", pack: k.id })),
      ),
    ),
  ];
}

async function apiKeysSection(reload, out, shown) {
  const keys = await api("/account/api-keys");
  const name = h("input", { maxlength: 100, value: "API key" });
  const days = h("input", { type: "number", min: 1, max: 3650 });
  const submit = h("button", { type: "submit" }, "Create key");
  return [
    table(
      ["Name", "Key", "Created", "Last used", "Expires", ""],
      keys.map((k) => [
        k.name,
        `${k.prefix}…`,
        formatDate(k.created_at),
        formatDate(k.last_used_at),
        k.expires_at ? formatDate(k.expires_at) : "never",
        act(
          "Revoke",
          out,
          async () => {
            await api(`/account/api-keys/${k.id}`, { method: "DELETE" });
            reload();
          },
          "danger",
        ),
      ]),
      "No API keys.",
    ),
    inlineForm(
      submit,
      out,
      async () => {
        const k = await api("/account/api-keys", {
          method: "POST",
          json: { name: name.value, ...(days.value ? { expires_in_days: Number(days.value) } : {}) },
        });
        render(shown, shownOnce(`API key “${k.name}”`, k.key));
        await reload();
      },
      field("Name", name),
      field("Expires after days (optional)", days),
    ),
  ];
}

/**
 * Event checkboxes for an endpoint: "All events" (`*`, also what the API stores for it) or a
 * choice of kinds from GET /config.
 */
function eventChoice(kinds, selected) {
  const all = h("input", { type: "checkbox", value: "*", checked: selected.includes("*") });
  const boxes = kinds.map((k) =>
    h("input", { type: "checkbox", value: k, checked: selected.includes("*") || selected.includes(k), disabled: selected.includes("*") }),
  );
  // Checking "All events" ticks and locks every kind; unchecking it starts an empty choice.
  all.addEventListener("change", () =>
    boxes.forEach((b) => {
      b.disabled = all.checked;
      b.checked = all.checked;
    }),
  );
  const el = h(
    "fieldset",
    { class: "checks" },
    h("legend", {}, "Events"),
    h("label", { class: "check" }, all, " All events"),
    kinds.map((k, i) => h("label", { class: "check" }, boxes[i], " ", k)),
  );
  el.value = () => {
    if (all.checked) return ["*"];
    const picked = boxes.filter((b) => b.checked).map((b) => b.value);
    if (!picked.length) throw new Error("Choose at least one event.");
    return picked;
  };
  return el;
}

const endpointState = (w) =>
  w.enabled
    ? w.failure_count
      ? `Active (${w.failure_count} failed attempt(s) in a row)`
      : "Active"
    : `Off since ${formatDate(w.disabled_at)}${w.failure_count ? ` after ${w.failure_count} failed attempts` : ""}`;

async function webhooksSection(reload, out, shown) {
  const [hooks, config] = await Promise.all([api("/account/webhooks"), appConfig()]);
  const kinds = config.webhook_events || [];
  const detail = h("div", {});
  const showDeliveries = async (hook) => {
    const list = await api(`/account/webhooks/${hook.id}/deliveries`);
    render(
      detail,
      h("h3", {}, `Deliveries to ${hook.url}`),
      table(
        ["When", "Event", "Status", "Attempts", "HTTP", ""],
        list.map((d) => [
          formatDate(d.created_at),
          d.event_type,
          d.status,
          String(d.attempts),
          d.response_status === null ? "—" : String(d.response_status),
          act("Replay", out, async () => {
            await api(`/account/webhooks/deliveries/${d.id}/replay`, { method: "POST" });
            await showDeliveries(hook);
          }),
        ]),
        "No deliveries yet.",
      ),
    );
  };
  // PATCH sends only what changed; an emptied description is cleared (null).
  const edit = (hook) => {
    const url = h("input", { type: "url", required: true, maxlength: 2000, value: hook.url });
    const description = h("input", { maxlength: 200, value: hook.description || "" });
    const enabled = h("input", { type: "checkbox", checked: hook.enabled });
    const events = eventChoice(kinds, hook.events);
    const save = h("button", { type: "submit" }, "Save endpoint");
    const editOut = notice();
    render(
      detail,
      h(
        "form",
        {
          class: "card webhook-edit",
          "aria-label": `Edit ${hook.url}`,
          onsubmit: onSubmit(save, editOut, async () => {
            const changes = {};
            if (url.value.trim() !== hook.url) changes.url = url.value.trim();
            if (description.value.trim() !== (hook.description || "")) changes.description = description.value.trim() || null;
            const ev = events.value();
            if (ev.join(",") !== hook.events.join(",")) changes.events = ev;
            if (enabled.checked !== hook.enabled) changes.enabled = enabled.checked;
            if (!Object.keys(changes).length) return editOut.show("Nothing changed.");
            const updated = await api(`/account/webhooks/${hook.id}`, { method: "PATCH", json: changes });
            await reload();
            out.show(`Endpoint ${updated.url} saved.`);
          }),
        },
        h("h3", {}, "Edit endpoint"),
        field("Endpoint URL", url),
        field("Description (optional)", description),
        events,
        h("label", { class: "check" }, enabled, " Active (deliver events to this endpoint; turning it on again resets the failure count)"),
        h("div", { class: "actions" }, save, h("button", { type: "button", class: "secondary", onclick: () => render(detail) }, "Cancel")),
        editOut,
      ),
    );
    url.focus();
  };

  const url = h("input", { type: "url", required: true, maxlength: 2000, placeholder: "https://example.com/hooks/lingoscan" });
  const description = h("input", { maxlength: 200 });
  const events = eventChoice(kinds, ["*"]);
  const submit = h("button", { type: "submit" }, "Add endpoint");
  return [
    table(
      ["URL", "Description", "Events", "State", "Secret", ""],
      hooks.map((w) => [
        w.url,
        w.description || "—",
        w.events.join(", "),
        endpointState(w),
        `${w.secret_prefix}…`,
        h(
          "span",
          { class: "actions" },
          act("Edit", out, () => edit(w)),
          act("Deliveries", out, () => showDeliveries(w)),
          act("Rotate secret", out, async () => {
            const r = await api(`/account/webhooks/${w.id}/rotate`, { method: "POST" });
            render(shown, shownOnce("New signing secret", r.secret));
          }),
          act(
            "Delete",
            out,
            async () => {
              await api(`/account/webhooks/${w.id}`, { method: "DELETE" });
              reload();
            },
            "danger",
          ),
        ),
      ]),
      "No webhook endpoints.",
    ),
    detail,
    h(
      "form",
      {
        class: "webhook-new",
        onsubmit: onSubmit(submit, out, async () => {
          const d = description.value.trim();
          const w = await api("/account/webhooks", {
            method: "POST",
            json: { url: url.value.trim(), events: events.value(), ...(d ? { description: d } : {}) },
          });
          await reload();
          render(shown, shownOnce(`Signing secret of ${w.url}`, w.secret));
        }),
      },
      h("h3", {}, "Add an endpoint"),
      h("div", { class: "inline" }, field("Endpoint URL", url), field("Description (optional)", description)),
      events,
      submit,
    ),
  ];
}

/** Terms as text, one `source = target` per line. */
const termsText = (terms) => terms.map((t) => `${t.source} = ${t.target}`).join("\n");
function parseTerms(text) {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l, i) => {
      const [source, ...rest] = l.split("=");
      if (!rest.length) throw new Error(`Line ${i + 1}: write “source = target”.`);
      return { source: source.trim(), target: rest.join("=").trim() };
    });
}

async function glossariesSection(reload, out) {
  const list = await api("/account/glossaries");
  const name = h("input", { required: true, maxlength: 100 });
  const src = h("input", { required: true, pattern: "[a-z]{2,3}", value: "en", size: 4 });
  const tgt = h("input", { required: true, pattern: "[a-z]{2,3}", value: "es", size: 4 });
  const terms = h("textarea", { rows: 3, placeholder: "dog = perro" });
  const submit = h("button", { type: "submit" }, "Create glossary");
  return [
    list.length
      ? list.map((g) => {
          const edit = h("textarea", { rows: Math.min(10, Math.max(2, g.terms.length + 1)), "aria-label": `Terms of ${g.name}` });
          edit.value = termsText(g.terms);
          return h(
            "div",
            { class: "glossary" },
            h("h3", {}, `${g.name} (${g.source_language} → ${g.target_language}, ${g.term_count} terms)`),
            edit,
            act("Save terms", out, async () => {
              await api(`/account/glossaries/${g.id}/terms`, { method: "PUT", json: parseTerms(edit.value) });
              out.show("Terms saved.");
              reload();
            }),
            act(
              "Delete",
              out,
              async () => {
                await api(`/account/glossaries/${g.id}`, { method: "DELETE" });
                reload();
              },
              "danger",
            ),
          );
        })
      : h("p", { class: "empty" }, "No glossaries."),
    inlineForm(
      submit,
      out,
      async () => {
        await api("/account/glossaries", {
          method: "POST",
          json: { name: name.value, source_language: src.value, target_language: tgt.value, terms: parseTerms(terms.value) },
        });
        reload();
      },
      field("Name", name),
      field("From", src),
      field("To", tgt),
      field("Terms, one “source = target” per line", terms),
    ),
  ];
}

async function memorySection(reload, out) {
  const list = await api("/account/translation-memory", { query: { limit: 50 } });
  return table(
    ["Pair", "Source", "Translation", "Uses", ""],
    list.map((m) => [
      `${m.source_language}→${m.target_language}`,
      m.source_text,
      m.target_text,
      String(m.uses),
      act(
        "Delete",
        out,
        async () => {
          await api(`/account/translation-memory/${m.id}`, { method: "DELETE" });
          reload();
        },
        "danger",
      ),
    ]),
    "The translation memory is empty; your edited translations are kept here.",
  );
}

/** SessionOut.method in words. */
const METHOD_LABELS = {
  register: "Account creation",
  password: "Password",
  magic_link: "Email link",
  oauth: "Identity provider",
  reset_password: "Password reset",
};

/** "Firefox on Windows" from a User-Agent header; the full header stays in the tooltip. */
function deviceName(ua) {
  if (!ua) return "Unknown device";
  const browser = [
    [/Edg(e|A|iOS)?\//, "Edge"],
    [/OPR\/|Opera/, "Opera"],
    [/Firefox\/|FxiOS/, "Firefox"],
    [/HeadlessChrome\//, "Chrome (headless)"],
    [/Chrome\/|CriOS|Chromium\//, "Chrome"],
    [/Safari\//, "Safari"],
    [/^curl\//, "curl"],
  ].find(([re]) => re.test(ua))?.[1];
  const os = [
    [/iPhone|iPad|iPod/, "iOS"],
    [/Android/, "Android"],
    [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "macOS"],
    [/CrOS/, "ChromeOS"],
    [/Linux/, "Linux"],
  ].find(([re]) => re.test(ua))?.[1];
  if (browser && os) return `${browser} on ${os}`;
  return browser || os || ua.split(/[\s/]/)[0] || "Unknown device";
}

/** "3 minutes ago", with the exact time kept for the tooltip. */
function timeAgo(iso) {
  if (!iso) return "—";
  const s = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (s < 60) return "just now";
  const [n, unit] = s < 3600 ? [s / 60, "minute"] : s < 86400 ? [s / 3600, "hour"] : [s / 86400, "day"];
  if (unit === "day" && n >= 30) return formatDate(iso);
  const k = Math.floor(n);
  return `${k} ${unit}${k === 1 ? "" : "s"} ago`;
}

async function sessionsSection(reload, out) {
  const list = await api("/auth/sessions");
  // This device first, then the others newest first (the API's order).
  const sorted = [...list.filter((s) => s.current), ...list.filter((s) => !s.current)];
  return [
    table(
      ["Device", "Signed in with", "IP address", "Signed in", "Last seen", ""],
      sorted.map((s) => [
        h("span", { title: s.user_agent || "" }, deviceName(s.user_agent)),
        METHOD_LABELS[s.method] || "Unknown",
        s.ip || "—",
        h("span", { title: formatDate(s.created_at) }, timeAgo(s.created_at)),
        s.current ? "now" : h("span", { title: formatDate(s.last_seen_at) }, timeAgo(s.last_seen_at)),
        s.current
          ? h("strong", { class: "badge" }, "This device")
          : act(
              "Revoke",
              out,
              async () => {
                await api(`/auth/sessions/${s.id}`, { method: "DELETE" });
                reload();
              },
              "danger",
            ),
      ]),
      "No sessions.",
    ),
    act(
      "Sign out everywhere",
      out,
      async () => {
        await api("/auth/logout-all", { method: "POST" });
        location.assign("/login");
      },
      "danger",
    ),
  ];
}

/** An inline form that sends the authenticator's code to a two-factor endpoint, then reloads the section. */
function codeForm(code, submit, out, reload, method, path) {
  const send = async () => {
    await api(path, { method, json: { code: code.value.trim() } });
    reload();
  };
  return inlineForm(submit, out, send, field("Code", code));
}

async function twoFactorSection(reload, out, session) {
  const user = await session.refresh();
  const code = h("input", { inputmode: "numeric", autocomplete: "one-time-code", minlength: 6, maxlength: 32, required: true });
  if (user.two_factor_enabled) {
    const submit = h("button", { type: "submit", class: "danger" }, "Turn off");
    return [h("p", {}, "Two-factor sign-in is on."), codeForm(code, submit, out, reload, "DELETE", "/auth/2fa")];
  }
  const area = h("div", {});
  const start = act(
    "Set up",
    out,
    async () => {
      const s = await api("/auth/2fa/start", { method: "POST" });
      const submit = h("button", { type: "submit" }, "Turn on");
      render(
        area,
        h("p", {}, "Add this secret to your authenticator app, then enter the code it shows."),
        h("p", {}, h("code", {}, s.secret)),
        h("p", { class: "muted" }, "Recovery codes (each works once; keep them safe):"),
        h(
          "ul",
          { class: "codes" },
          (s.recovery_codes || []).map((c) => h("li", {}, h("code", {}, c))),
        ),
        codeForm(code, submit, out, reload, "POST", "/auth/2fa/confirm"),
      );
    },
    "",
  );
  return [h("p", {}, "Two-factor sign-in is off."), start, area];
}
