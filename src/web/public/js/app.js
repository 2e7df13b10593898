// Router and session state of the web app. Each page is a function (main, params, session) that
// fills `main`; pages that need an account send signed-out visitors to /login.
import { api } from "./api.js";
import { h, render, link, go } from "./dom.js";
import { loginPage, registerPage, forgotPage, resetPage, magicLinkPage, verifyEmailPage } from "./auth-pages.js";
import { newJobPage, jobPage } from "./job-pages.js";
import { projectsPage } from "./projects-page.js";
import { editorPage } from "./editor-page.js";
import { shareViewerPage } from "./share-viewer.js";
import { accountPage } from "./account-page.js";

export const session = {
  user: null,
  async refresh() {
    try {
      this.user = await api("/auth/me");
    } catch {
      this.user = null;
    }
    renderNav();
    return this.user;
  },
};

const routes = [
  { path: /^\/login$/, page: loginPage, title: "Sign in" },
  { path: /^\/register$/, page: registerPage, title: "Create an account" },
  { path: /^\/forgot-password$/, page: forgotPage, title: "Forgot password" },
  { path: /^\/reset-password$/, page: resetPage, title: "Choose a new password" },
  { path: /^\/magic-link$/, page: magicLinkPage, title: "Signing in" },
  { path: /^\/verify-email$/, page: verifyEmailPage, title: "Verify your email" },
  { path: /^\/s\/([^/]+)$/, page: shareViewerPage, title: "Shared document", public: true },
  { path: /^\/(?:new)?$/, page: newJobPage, title: "New job", authed: true },
  { path: /^\/jobs\/([^/]+)$/, page: jobPage, title: "Job", authed: true },
  { path: /^\/projects$/, page: projectsPage, title: "Projects", authed: true },
  { path: /^\/projects\/([^/]+)$/, page: editorPage, title: "Editor", authed: true },
  { path: /^\/(account|billing)$/, page: accountPage, title: "Account", authed: true },
];

function renderNav() {
  const nav = document.getElementById("nav");
  if (!nav) return;
  if (location.pathname.startsWith("/s/")) return render(nav);
  if (!session.user) return render(nav, link("/login", "Sign in"), link("/register", "Create account"));
  render(
    nav,
    link("/new", "New job"),
    link("/projects", "Projects"),
    link("/account", "Account"),
    h(
      "button",
      {
        class: "link",
        type: "button",
        onclick: async () => {
          await api("/auth/logout", { method: "POST" }).catch(() => null);
          session.user = null;
          go("/login");
        },
      },
      "Sign out",
    ),
  );
}

async function route() {
  const main = document.getElementById("main");
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const r = routes.find((x) => x.path.test(path));
  document.title = (r ? r.title : "Not found") + " · Lingoscan";
  renderNav();
  if (!r)
    return render(main, h("h1", {}, "Page not found"), h("p", {}, "There is nothing at this address. "), link("/", "Go to the start page"));
  if (r.authed && !session.user) {
    await session.refresh();
    if (!session.user) return go("/login?next=" + encodeURIComponent(location.pathname + location.search));
  }
  const params = path.match(r.path).slice(1).map(decodeURIComponent);
  render(main, h("p", { class: "muted" }, "Loading…"));
  try {
    await r.page(main, params, session);
  } catch (err) {
    render(
      main,
      h("h1", {}, "Something went wrong"),
      h("p", { class: "notice", "data-kind": "error", role: "alert" }, err.message || String(err)),
    );
  }
  main.focus({ preventScroll: true });
}

window.addEventListener("popstate", route);
if (!location.pathname.startsWith("/s/")) await session.refresh();
route();
