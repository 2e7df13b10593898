// Sign-in pages: password (with the two-factor step), magic link, registration, password reset,
// and the landing pages the emailed links open (/magic-link, /verify-email, /reset-password).
import { api, setCsrf } from "./api.js";
import { h, render, field, notice, busy, link, go } from "./dom.js";

function nextPath() {
  const next = new URLSearchParams(location.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/new";
}

async function signedIn(auth, session) {
  setCsrf(auth.csrf_token);
  await session.refresh();
  go(nextPath());
}

function tokenParam() {
  return new URLSearchParams(location.search).get("token") || "";
}

export async function loginPage(main, _params, session) {
  const out = notice();
  const email = h("input", { type: "email", name: "email", autocomplete: "email", required: true });
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const submit = h("button", { type: "submit" }, "Sign in");
  const form = h("form", { class: "card", onsubmit: (e) => {
    e.preventDefault();
    busy(submit, out, async () => {
      const auth = await api("/auth/login", { method: "POST", json: { email: email.value, password: password.value } });
      if (auth.status === "two_factor_required") return twoFactorStep(main, auth, session);
      await signedIn(auth, session);
    });
  } }, h("h2", {}, "With your password"), field("Email", email), field("Password", password), submit, out);

  const mlOut = notice();
  const mlEmail = h("input", { type: "email", autocomplete: "email", required: true });
  const mlSubmit = h("button", { type: "submit", class: "secondary" }, "Email me a sign-in link");
  const magic = h("form", { class: "card", onsubmit: (e) => {
    e.preventDefault();
    busy(mlSubmit, mlOut, async () => {
      await api("/auth/magic-link", { method: "POST", json: { email: mlEmail.value } });
      mlOut.show("If that address can sign in, a link is on its way. It works for 15 minutes.");
    });
  } }, h("h2", {}, "Without a password"), field("Email", mlEmail), mlSubmit, mlOut);

  render(main,
    h("h1", {}, "Sign in"),
    h("div", { class: "grid2" }, form, magic),
    h("p", {}, link("/register", "Create an account"), " · ", link("/forgot-password", "Forgot your password?")),
  );
  email.focus();
}

function twoFactorStep(main, _auth, session) {
  const out = notice();
  const code = h("input", { inputmode: "numeric", autocomplete: "one-time-code", required: true, minlength: 6, maxlength: 32 });
  const submit = h("button", { type: "submit" }, "Verify");
  render(main, h("h1", {}, "Two-factor code"), h("form", { class: "card", onsubmit: (e) => {
    e.preventDefault();
    busy(submit, out, async () => {
      const auth = await api("/auth/2fa/verify", { method: "POST", json: { code: code.value.trim() } });
      await signedIn(auth, session);
    });
  } }, h("p", {}, "Enter the 6-digit code from your authenticator app, or one of your recovery codes."), field("Code", code), submit, out));
  code.focus();
}

export async function registerPage(main, _params, session) {
  const out = notice();
  const name = h("input", { autocomplete: "name", maxlength: 100 });
  const email = h("input", { type: "email", autocomplete: "email", required: true });
  const password = h("input", { type: "password", autocomplete: "new-password", required: true, minlength: 10 });
  const submit = h("button", { type: "submit" }, "Create account");
  render(main, h("h1", {}, "Create an account"), h("form", { class: "card narrow", onsubmit: (e) => {
    e.preventDefault();
    busy(submit, out, async () => {
      const auth = await api("/auth/register", { method: "POST", json: { email: email.value, password: password.value, ...(name.value.trim() ? { name: name.value.trim() } : {}) } });
      await signedIn(auth, session);
    });
  } }, field("Name (optional)", name), field("Email", email), field("Password", password, "At least 10 characters."), submit, out),
  h("p", {}, "Already have an account? ", link("/login", "Sign in")));
  email.focus();
}

export async function forgotPage(main) {
  const out = notice();
  const email = h("input", { type: "email", autocomplete: "email", required: true });
  const submit = h("button", { type: "submit" }, "Send reset link");
  render(main, h("h1", {}, "Forgot password"), h("form", { class: "card narrow", onsubmit: (e) => {
    e.preventDefault();
    busy(submit, out, async () => {
      await api("/auth/forgot-password", { method: "POST", json: { email: email.value } });
      out.show("If an account uses that address, a reset link is on its way. It works for one hour.");
    });
  } }, field("Email", email), submit, out), h("p", {}, link("/login", "Back to sign in")));
}

export async function resetPage(main) {
  const out = notice();
  const password = h("input", { type: "password", autocomplete: "new-password", required: true, minlength: 10 });
  const submit = h("button", { type: "submit" }, "Set password");
  render(main, h("h1", {}, "Choose a new password"), h("form", { class: "card narrow", onsubmit: (e) => {
    e.preventDefault();
    busy(submit, out, async () => {
      await api("/auth/reset-password", { method: "POST", json: { token: tokenParam(), password: password.value } });
      out.show("Your password is changed and every session was ended. Sign in with the new password.");
      submit.hidden = true;
    });
  } }, field("New password", password), submit, out), h("p", {}, link("/login", "Sign in")));
}

export async function magicLinkPage(main, _params, session) {
  const out = notice();
  render(main, h("h1", {}, "Signing in"), out);
  try {
    const auth = await api("/auth/magic-link/verify", { method: "POST", json: { token: tokenParam() } });
    if (auth.status === "two_factor_required") return twoFactorStep(main, auth, session);
    await signedIn(auth, session);
  } catch (err) {
    out.fail(err);
    main.append(h("p", {}, link("/login", "Ask for a new link")));
  }
}

export async function verifyEmailPage(main) {
  const out = notice();
  render(main, h("h1", {}, "Verify your email"), out);
  try {
    const user = await api("/auth/verify-email", { method: "POST", json: { token: tokenParam() } });
    out.show(`${user.email} is verified. Thank you.`);
  } catch (err) {
    out.fail(err);
  }
  main.append(h("p", {}, link("/", "Continue")));
}
