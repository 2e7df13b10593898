// Sign-in pages: password (with the two-factor step), magic link, registration, password reset,
// and the landing pages the emailed links open (/magic-link, /verify-email, /reset-password).
import { api, appConfig, setCsrf } from "./api.js";
import { h, render, field, notice, busy, onSubmit, cardForm, link, go } from "./dom.js";

/** What an identity-provider sign-in that came back refused says; the URL carries only a code, never text to show. */
const OAUTH_ERRORS = {
  state: "The sign-in took too long or was started in another browser. Start again.",
  code: "The identity provider's answer could not be verified. Try again.",
  id_token: "The identity provider's answer could not be verified. Try again.",
  email: "The identity provider did not confirm your email address. Sign in with your password or an email link.",
  provider_unavailable: "The identity provider cannot be reached right now. Try again later, or sign in another way.",
  access_denied: "The sign-in was cancelled at the identity provider.",
  internal_error: "Something went wrong on our side while signing you in. Try again in a moment, or sign in another way.",
};

function oauthErrorText(code) {
  const known = Object.hasOwn(OAUTH_ERRORS, code) ? OAUTH_ERRORS[code] : null;
  if (known) return known;
  const shown = /^[a-z_]{1,64}$/.test(code) ? ` (${code})` : "";
  return `Signing in with the identity provider did not work${shown}. Try again, or sign in another way.`;
}

/** Where to go after an identity-provider sign-in, which leaves the app and comes back to /login. */
const NEXT_KEY = "lingoscan.next";

function safePath(p) {
  return p && p.startsWith("/") && !p.startsWith("//") ? p : null;
}

function nextPath() {
  const stored = sessionStorage.getItem(NEXT_KEY);
  sessionStorage.removeItem(NEXT_KEY);
  return safePath(new URLSearchParams(location.search).get("next")) || safePath(stored) || "/new";
}

/**
 * One button per identity provider this deployment configures (GET /config); none when none is.
 * The start route keeps the flow's state on the server and sets a cookie binding it to this browser;
 * the provider sends the browser back to the API's callback, which forwards it to /login.
 */
async function providerButtons(out, verb) {
  const providers = (await appConfig().catch(() => null))?.oauth_providers || [];
  if (!providers.length) return null;
  return h(
    "div",
    { class: "card providers" },
    h("h2", {}, "With another account"),
    h(
      "div",
      { class: "actions" },
      providers.map((p) =>
        h(
          "button",
          {
            type: "button",
            class: "secondary provider",
            "data-provider": p.id,
            onclick: (e) =>
              busy(e.target, out, async () => {
                const next = safePath(new URLSearchParams(location.search).get("next"));
                if (next) sessionStorage.setItem(NEXT_KEY, next);
                const start = await api(p.start_url.replace(/^\/api\/v1/, ""));
                location.assign(start.authorization_url);
              }),
          },
          `${verb} with ${p.name}`,
        ),
      ),
    ),
  );
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
  // Back from an identity provider: the API's callback set the session (or a pending one).
  const q = new URLSearchParams(location.search);
  const outcome = q.get("oauth");
  const oauthError = q.get("oauth_error");
  if (outcome || oauthError) history.replaceState(null, "", "/login");
  if (outcome === "two_factor_required") return twoFactorStep(main, null, session);
  if (outcome === "authenticated") {
    setCsrf(null);
    if (await session.refresh()) return go(nextPath());
  }
  const providerOut = notice();
  if (oauthError) providerOut.show(oauthErrorText(oauthError), "error");
  const out = notice();
  const email = h("input", { type: "email", name: "email", autocomplete: "email", required: true });
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const submit = h("button", { type: "submit" }, "Sign in");
  const form = h(
    "form",
    {
      class: "card",
      onsubmit: onSubmit(submit, out, async () => {
        const auth = await api("/auth/login", { method: "POST", json: { email: email.value, password: password.value } });
        if (auth.status === "two_factor_required") return twoFactorStep(main, auth, session);
        await signedIn(auth, session);
      }),
    },
    h("h2", {}, "With your password"),
    field("Email", email),
    field("Password", password),
    submit,
    out,
  );

  const mlOut = notice();
  const mlEmail = h("input", { type: "email", autocomplete: "email", required: true });
  const mlSubmit = h("button", { type: "submit", class: "secondary" }, "Email me a sign-in link");
  const magic = h(
    "form",
    {
      class: "card",
      onsubmit: onSubmit(mlSubmit, mlOut, async () => {
        await api("/auth/magic-link", { method: "POST", json: { email: mlEmail.value } });
        mlOut.show("If that address can sign in, a link is on its way. It works for 15 minutes.");
      }),
    },
    h("h2", {}, "Without a password"),
    field("Email", mlEmail),
    mlSubmit,
    mlOut,
  );

  render(
    main,
    h("h1", {}, "Sign in"),
    providerOut,
    h("div", { class: "grid2" }, form, magic),
    await providerButtons(providerOut, "Sign in"),
    h("p", {}, link("/register", "Create an account"), " · ", link("/forgot-password", "Forgot your password?")),
  );
  email.focus();
}

function twoFactorStep(main, _auth, session) {
  const out = notice();
  const code = h("input", { inputmode: "numeric", autocomplete: "one-time-code", required: true, minlength: 6, maxlength: 32 });
  const submit = h("button", { type: "submit" }, "Verify");
  render(
    main,
    h("h1", {}, "Two-factor code"),
    h(
      "form",
      {
        class: "card",
        onsubmit: onSubmit(submit, out, async () => {
          const auth = await api("/auth/2fa/verify", { method: "POST", json: { code: code.value.trim() } });
          await signedIn(auth, session);
        }),
      },
      h("p", {}, "Enter the 6-digit code from your authenticator app, or one of your recovery codes."),
      field("Code", code),
      submit,
      out,
    ),
  );
  code.focus();
}

export async function registerPage(main, _params, session) {
  const out = notice();
  const providerOut = notice();
  const name = h("input", { autocomplete: "name", maxlength: 100 });
  const email = h("input", { type: "email", autocomplete: "email", required: true });
  const password = h("input", { type: "password", autocomplete: "new-password", required: true, minlength: 10 });
  const submit = h("button", { type: "submit" }, "Create account");
  render(
    main,
    h("h1", {}, "Create an account"),
    cardForm(
      submit,
      out,
      async () => {
        const auth = await api("/auth/register", {
          method: "POST",
          json: { email: email.value, password: password.value, ...(name.value.trim() ? { name: name.value.trim() } : {}) },
        });
        await signedIn(auth, session);
      },
      field("Name (optional)", name),
      field("Email", email),
      field("Password", password, "At least 10 characters."),
    ),
    providerOut,
    await providerButtons(providerOut, "Sign up"),
    h("p", {}, "Already have an account? ", link("/login", "Sign in")),
  );
  email.focus();
}

export async function forgotPage(main) {
  const out = notice();
  const email = h("input", { type: "email", autocomplete: "email", required: true });
  const submit = h("button", { type: "submit" }, "Send reset link");
  render(
    main,
    h("h1", {}, "Forgot password"),
    cardForm(
      submit,
      out,
      async () => {
        await api("/auth/forgot-password", { method: "POST", json: { email: email.value } });
        out.show("If an account uses that address, a reset link is on its way. It works for one hour.");
      },
      field("Email", email),
    ),
    h("p", {}, link("/login", "Back to sign in")),
  );
}

export async function resetPage(main) {
  const out = notice();
  const password = h("input", { type: "password", autocomplete: "new-password", required: true, minlength: 10 });
  const submit = h("button", { type: "submit" }, "Set password");
  render(
    main,
    h("h1", {}, "Choose a new password"),
    cardForm(
      submit,
      out,
      async () => {
        await api("/auth/reset-password", { method: "POST", json: { token: tokenParam(), password: password.value } });
        out.show("Your password is changed and every session was ended. Sign in with the new password.");
        submit.hidden = true;
      },
      field("New password", password),
    ),
    h("p", {}, link("/login", "Sign in")),
  );
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
