// End-to-end run of the web app in a real browser (Debian's Chromium driven by playwright-core)
// against `npm run dev` on a loopback port: sign-in page with an identity-provider button → sign up
// → upload the sample image → watch progress to completion → edit a region → re-render (free) with
// live progress and a changed page image → export and download → a Hebrew page's text shown right
// to left in the editor → password-protected share → open
// the viewer in a fresh browser context → sign in with the identity provider in another browser →
// sessions list (method, device, this device, revoke) → add and edit a webhook endpoint. Every page
// on the way, signed out and signed in, is checked with axe-core (WCAG 2.1 A/AA and best practices):
// any violation fails the run. Screenshots of the main pages go to test/e2e/out/.
//   npm run test:e2e          (E2E_PORT, default 8791; CHROMIUM, default /usr/bin/chromium)
//
// The dev server gets one identity provider, `localidp` (a real oidc-provider on loopback, see
// test/helpers/oidc-provider.mjs), and PUBLIC_BASE_URL on E2E_PORT, through wrangler's
// CLOUDFLARE_INCLUDE_PROCESS_ENV (process variables become bindings), so it runs with a small,
// known environment.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { languagePageSvg, renderPng, TEXTS } from "../bench/ocr-render.mjs";
import { startOidcProvider } from "../helpers/oidc-provider.mjs";
import { expectAccessible } from "./axe-check.mjs";

const CLIENT_ID = "lingoscan-e2e";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const out = path.join(root, "test/e2e/out");
const port = Number(process.env.E2E_PORT ?? 8791);
const base = `http://127.0.0.1:${port}`;
const work = mkdtempSync(path.join(tmpdir(), "lingoscan-e2e-"));
// Screenshots of this run only.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

/** Waits until every page image has loaded (a broken signed URL fails here, not in a screenshot). */
function imagesLoaded(page) {
  return page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll(".frame img")];
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  });
}

function step(name) {
  console.log(`e2e: ${name}`);
}

async function waitForServer(dev) {
  // The first start bundles both Workers and seeds the models: minutes on a busy machine.
  const deadline = Date.now() + 480_000;
  while (Date.now() < deadline) {
    if (dev.exitCode !== null) throw new Error(`the dev server exited with ${dev.exitCode}`);
    try {
      // ready, not live: the engine Worker (OCR models) must answer too before uploads work.
      if ((await fetch(`${base}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${base} was not ready (/health/ready) within 8 minutes`);
}

/** Ends `npm run dev` and everything it started (its process group); wrangler ignores SIGINT here. */
async function stopDev(dev) {
  if (dev.exitCode !== null) return;
  const exited = new Promise((r) => dev.once("exit", r));
  try {
    process.kill(-dev.pid, "SIGTERM");
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  try {
    process.kill(-dev.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** SHA-256 (hex) of the bytes at a same-origin URL, read in the page (the signed URL needs no cookie). */
function digestOf(page, url) {
  return page.evaluate(async (u) => {
    const res = await fetch(u);
    if (!res.ok) throw new Error(`${u} answered ${res.status}`);
    const hash = await crypto.subtle.digest("SHA-256", await res.arrayBuffer());
    return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }, url);
}

/**
 * Records layout shifts (Layout Instability API) and every distinct progress text and bar value
 * of the re-render line from now on.
 */
function watchRerender(page) {
  return page.evaluate(() => {
    window.e2eShifts = [];
    window.e2eProgress = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.e2eShifts.push({
          value: e.value,
          recentInput: e.hadRecentInput,
          nodes: e.sources.map(
            (s) =>
              `${s.node?.className || s.node?.nodeName || "?"} "${(s.node?.textContent || "").slice(0, 30)}" ${JSON.stringify(s.previousRect)} → ${JSON.stringify(s.currentRect)}`,
          ),
        });
    }).observe({ type: "layout-shift" });
    const line = document.querySelector(".rerender");
    new MutationObserver(() => {
      const entry = `${line.dataset.state} ${line.querySelector("progress").value}% ${line.querySelector(".rerender-text").textContent}`;
      if (window.e2eProgress.at(-1) !== entry) window.e2eProgress.push(entry);
    }).observe(line, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

async function main() {
  const sample = path.join(work, "sample.png");
  const s = spawnSync(process.execPath, [path.join(root, "scripts/sample-image.mjs"), sample], { cwd: root, encoding: "utf8" });
  if (s.status !== 0) throw new Error(`sample-image failed: ${s.stderr}`);
  // A Hebrew page (Article 1 of the UDHR in Noto Sans Hebrew) for the right-to-left check.
  const hebrewPage = path.join(work, "hebrew.png");
  writeFileSync(hebrewPage, renderPng(languagePageSvg("heb", TEXTS.heb, { dpi: 200 }).svg));

  // A server already on the port would answer instead of the one started here.
  if (
    await fetch(`${base}/health/live`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`${base} is already in use; set E2E_PORT`);
  const email = `e2e-${Date.now()}@example.com`;
  const idpSecret = `e2e-secret-${crypto.randomUUID()}`;
  const idp = await startOidcProvider({
    clientId: CLIENT_ID,
    secret: idpSecret,
    redirectUri: `${base}/api/v1/auth/oauth/localidp/callback`,
    cookieKey: `e2e-cookie-key-${crypto.randomUUID()}`,
    accountOf: () => `acct-${email}`,
    claimsOf: () => ({ email, email_verified: true }),
  });
  step(`identity provider at ${idp.issuer}; starting npm run dev (scripts/dev.mjs) on ${base}`);
  // Every variable here becomes a binding of both Workers, so the list is short: what Node,
  // wrangler and Apertium need (a UTF-8 locale), the port, and the settings under test.
  const devEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: process.env.LANG?.match(/utf-?8/i) ? process.env.LANG : "C.UTF-8",
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    PORT: String(port),
    // The models of the pages it reads (the default set is fetched by the first `npm run dev`).
    OCR_MODELS: "eng,heb",
    CLOUDFLARE_INCLUDE_PROCESS_ENV: "true",
    PUBLIC_BASE_URL: base,
    OAUTH_PROVIDERS: JSON.stringify({ localidp: { issuer: idp.issuer, client_id: CLIENT_ID, scope: "openid email", name: "Local ID" } }),
    OAUTH_CLIENT_SECRET_LOCALIDP: idpSecret,
  };
  // `npm run dev` is `node scripts/dev.mjs`; started directly, npm's own variables stay out of the bindings.
  const dev = spawn(process.execPath, [path.join(root, "scripts/dev.mjs")], {
    cwd: root,
    env: devEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let devLog = "";
  dev.stdout.on("data", (d) => (devLog += d));
  dev.stderr.on("data", (d) => (devLog += d));
  const browser = { current: null };
  try {
    await waitForServer(dev);
    const languages = await (await fetch(`${base}/api/v1/languages`)).json();
    const canTranslate = languages.translation_pairs.some((p) => p.source === "en");
    const config = await (await fetch(`${base}/api/v1/config`)).json();
    if (
      JSON.stringify(config.oauth_providers) !==
      JSON.stringify([{ id: "localidp", name: "Local ID", start_url: "/api/v1/auth/oauth/localidp/start" }])
    ) {
      throw new Error(`GET /config does not list the configured identity provider: ${JSON.stringify(config.oauth_providers)}`);
    }

    // playwright-core gives Chromium a fresh temporary profile (--user-data-dir) itself.
    browser.current = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    });
    const ctx = await browser.current.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await ctx.newPage();
    const consoleErrors = [];
    // Refused requests the app expects (401 from /auth/me when signed out) are logged by the browser
    // as "Failed to load resource"; anything else on the console is a defect.
    page.on(
      "console",
      (m) =>
        m.type() === "error" &&
        !m.text().startsWith("Failed to load resource") &&
        consoleErrors.push(`${m.text()} at ${JSON.stringify(m.location())}`),
    );
    page.on("pageerror", (e) => consoleErrors.push(`uncaught: ${e.stack || e.message}`));
    /** The pages axe found no violation on. */
    const accessible = [];
    const axe = (p, where) => expectAccessible(p, where, accessible);

    step("sign-in page with the identity-provider button");
    await page.goto(`${base}/login`);
    await page.getByRole("button", { name: "Sign in with Local ID" }).waitFor();
    await page.screenshot({ path: path.join(out, "0-sign-in.png"), fullPage: true });
    await axe(page, "sign-in");
    await page.goto(`${base}/forgot-password`);
    await page.getByRole("heading", { name: "Forgot password" }).waitFor();
    await axe(page, "forgot password");

    step("sign up");
    await page.goto(`${base}/register`);
    await page.getByLabel("Email").waitFor();
    await axe(page, "register");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("lantern-quartz-harbor-97");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`${base}/new`);
    await page.getByRole("heading", { name: "New job" }).waitFor();
    await axe(page, "new job");

    step(`upload the sample image (${canTranslate ? "translate" : "ocr"})`);
    await page.locator('input[type="file"]').setInputFiles(sample);
    if (canTranslate) await page.getByLabel("Tool").selectOption("translate");
    await page.screenshot({ path: path.join(out, "1-new-job.png"), fullPage: true });
    await axe(page, "new job, a file chosen");
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/\/jobs\/job_/).catch(async (err) => {
      throw new Error(`the job did not start: ${await page.locator("main").innerText()}`, { cause: err });
    });

    step("watch progress");
    await page
      .locator('.status[data-state="completed"]')
      .waitFor({ timeout: 420_000 })
      .catch(async (err) => {
        await page.screenshot({ path: path.join(out, "2-job-failed.png"), fullPage: true });
        throw new Error(
          `job did not complete: ${await page.locator(".status").textContent()} / ${await page.locator("main").innerText()}`,
          { cause: err },
        );
      });
    const log = await page.locator(".log li").allTextContents();
    if (!log.length) throw new Error("no progress event was shown");
    await page.screenshot({ path: path.join(out, "2-job-completed.png"), fullPage: true });
    await axe(page, "job progress, completed");

    step("open the editor and edit a region");
    await page.getByRole("link", { name: "Open in the editor" }).click();
    await page.waitForURL(/\/projects\/prj_/);
    await page.locator(".frame img").waitFor();
    await page.locator(".frame .box").first().waitFor();
    await imagesLoaded(page);
    await page.locator("section.card li button.link").first().waitFor();
    const boxes = await page.locator(".frame .box:not(.table-box)").count();
    if (boxes < 1) throw new Error("no region box on the page image");
    await page.screenshot({ path: path.join(out, "3-editor.png"), fullPage: true });
    await axe(page, "editor");
    await page.locator(".frame .box").first().click();
    const edited = canTranslate ? "Edición de prueba" : "The quick brown fox (checked)";
    await page.getByLabel(canTranslate ? /^Translation/ : "Source text").fill(edited);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    await page.screenshot({ path: path.join(out, "4-editor-region.png"), fullPage: true });
    await axe(page, "editor, a region open");

    if (canTranslate) {
      step("re-render (free) with live progress");
      const projectId = new URL(page.url()).pathname.split("/").pop();
      const before = await page.evaluate(
        async (id) => (await (await fetch(`/api/v1/projects/${id}`)).json()).pages[0].render_url,
        projectId,
      );
      if (!before) throw new Error("the translated project has no rendered page before the re-render");
      const beforeDigest = await digestOf(page, before);
      await watchRerender(page);
      const started = Date.now();
      await page.getByRole("button", { name: "Re-render (free)" }).click();
      // A one-page re-render takes about a second here: its progress is checked from the record.
      await page.locator('.rerender[data-state="done"], .rerender[data-state="failed"]').waitFor({ timeout: 300_000 });
      const outcome = await page.locator(".rerender").getAttribute("data-state");
      if (outcome !== "done") throw new Error(`the re-render failed: ${await page.locator(".rerender-text").textContent()}`);
      await imagesLoaded(page);
      const shown = await page.locator(".frame img").getAttribute("alt");
      if (!shown.includes("(rendered)")) throw new Error(`after the re-render the editor shows ${shown}, not the rendered page`);
      const afterDigest = await digestOf(page, await page.locator(".frame img").getAttribute("src"));
      if (afterDigest === beforeDigest)
        throw new Error("the rendered page image did not change after editing a translation and re-rendering");
      const { shifts, progress } = await page.evaluate(() => ({ shifts: window.e2eShifts, progress: window.e2eProgress }));
      const cls = shifts.filter((x) => !x.recentInput).reduce((sum, x) => sum + x.value, 0);
      console.log(
        `e2e: re-render took ${((Date.now() - started) / 1000).toFixed(1)} s; ${progress.length} progress updates; layout shift ${cls.toFixed(4)} (${shifts.length} shift entries in all, input-caused included)`,
      );
      for (const p of progress) console.log(`e2e:   ${p}`);
      if (!progress.some((p) => /^running \d+% \S/.test(p))) throw new Error(`no live progress was shown: ${JSON.stringify(progress)}`);
      if (cls > 0) throw new Error(`the page moved while the re-render progressed: ${JSON.stringify(shifts)}`);
      await page.screenshot({ path: path.join(out, "5-editor-rerendered.png"), fullPage: true });
      await axe(page, "editor, re-rendered");
    }

    step("export and download");
    await page.getByLabel("Format").selectOption("txt");
    // The job's own exports are listed too; the new one is the newest .txt (lists are newest first).
    const txtButtons = page.locator("section.card li button.link", { hasText: ".txt" });
    const before = await txtButtons.count();
    await page.getByRole("button", { name: "Create export" }).click();
    await page.waitForFunction(
      (n) => [...document.querySelectorAll("section.card li button.link")].filter((b) => b.textContent.includes(".txt")).length > n,
      before,
    );
    const dlButton = txtButtons.first();
    const [download] = await Promise.all([page.waitForEvent("download"), dlButton.click()]);
    const saved = path.join(work, download.suggestedFilename());
    await download.saveAs(saved);
    const text = readFileSync(saved, "utf8");
    if (!text.includes(canTranslate ? edited : "The quick brown fox"))
      throw new Error(`the export lacks the edited text: ${text.slice(0, 300)}`);

    step("a Hebrew page in the editor: its text shows right to left");
    {
      // A second tab of the same session, so the first stays on the project it shares below.
      const rtl = await ctx.newPage();
      rtl.on("pageerror", (e) => consoleErrors.push(`uncaught (Hebrew page): ${e.stack || e.message}`));
      await rtl.goto(`${base}/new`);
      await rtl.locator('input[type="file"]').setInputFiles(hebrewPage);
      await rtl.getByLabel("Tool").selectOption("ocr");
      await rtl.getByLabel("Language of the text").selectOption("he");
      await rtl.getByRole("button", { name: "Start" }).click();
      await rtl.waitForURL(/\/jobs\/job_/);
      await rtl.locator('.status[data-state="completed"]').waitFor({ timeout: 420_000 });
      await rtl.getByRole("link", { name: "Open in the editor" }).click();
      await rtl.waitForURL(/\/projects\/prj_/);
      // The region list (shown while no region is open), then the open region's text.
      const listed = await rtl
        .locator("ol.regions li button.link")
        .first()
        .evaluate((el) => ({ direction: getComputedStyle(el).direction, text: el.textContent }));
      await rtl.locator(".frame .box").first().click();
      const source = rtl.getByLabel("Source text");
      const shown = await source.evaluate((el) => ({
        dir: el.getAttribute("dir"),
        direction: getComputedStyle(el).direction,
        text: el.value,
      }));
      await rtl.screenshot({ path: path.join(out, "5b-editor-hebrew.png"), fullPage: true });
      await axe(rtl, "editor, a Hebrew region open");
      if (!/\p{Script=Hebrew}{3}/u.test(shown.text)) throw new Error(`the Hebrew region reads ${JSON.stringify(shown.text)}`);
      if (shown.dir !== "rtl" || shown.direction !== "rtl" || listed.direction !== "rtl")
        throw new Error(`the Hebrew region is not shown right to left: editor ${JSON.stringify(shown)}, list ${JSON.stringify(listed)}`);
      await rtl.close();
    }

    step("create a password-protected share");
    await page.getByLabel("Password (optional)").fill("open-sesame");
    await page.getByRole("button", { name: "Create link" }).click();
    const shareUrl = await page.locator("input.share-url").inputValue();
    if (!shareUrl.startsWith(`${base}/s/`)) throw new Error(`unexpected share URL ${shareUrl}`);

    step("open the share in a fresh context");
    const viewerCtx = await browser.current.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const viewer = await viewerCtx.newPage();
    await viewer.goto(shareUrl);
    await viewer.getByRole("heading", { name: "Protected document" }).waitFor();
    await axe(viewer, "share viewer, password form (phone)");
    await viewer.getByLabel("Password").fill("wrong-password");
    await viewer.getByRole("button", { name: "Open" }).click();
    await viewer.getByText("The password is wrong.").waitFor();
    await viewer.getByLabel("Password").fill("open-sesame");
    await viewer.getByRole("button", { name: "Open" }).click();
    await imagesLoaded(viewer);
    const regionText = await viewer.locator(".viewer-page .regions").first().innerText();
    if (!regionText.includes(edited)) throw new Error(`the viewer does not show the edited text: ${regionText}`);
    await viewer.screenshot({ path: path.join(out, "6-share-viewer-phone.png"), fullPage: true });
    await axe(viewer, "share viewer, document open (phone)");

    step("sign in with the identity provider in another browser");
    const idpCtx = await browser.current.newContext({ viewport: { width: 1280, height: 900 } });
    const idpPage = await idpCtx.newPage();
    idpPage.on("pageerror", (e) => consoleErrors.push(`uncaught (second browser): ${e.stack || e.message}`));
    await idpPage.goto(`${base}/login`);
    await idpPage.getByRole("button", { name: "Sign in with Local ID" }).click();
    await idpPage.waitForURL(`${base}/new`, { timeout: 30_000 }).catch(async (err) => {
      throw new Error(
        `the identity-provider sign-in did not come back signed in: ${idpPage.url()} ${await idpPage.locator("body").innerText()}`,
        { cause: err },
      );
    });
    await idpPage.getByRole("heading", { name: "New job" }).waitFor();

    step("projects list");
    await page.goto(`${base}/projects`);
    await page.locator("main table tbody tr").first().waitFor();
    await axe(page, "projects");

    step("account page and sessions");
    await page.goto(`${base}/account`);
    await page.getByText(/credits available/).waitFor();
    const sessionRows = page.locator("#sessions tbody tr");
    await page.waitForFunction(() => document.querySelectorAll("#sessions tbody tr").length === 2);
    const rows = await sessionRows.allInnerTexts();
    const mine = rows.find((r) => r.includes("This device"));
    const other = rows.find((r) => !r.includes("This device"));
    if (!mine?.includes("Account creation") || !/Chrome/.test(mine))
      throw new Error(`this device's session is not shown as expected: ${JSON.stringify(rows)}`);
    if (!other?.includes("Identity provider"))
      throw new Error(`the identity-provider session is not shown as expected: ${JSON.stringify(rows)}`);
    await page.screenshot({ path: path.join(out, "7-account.png"), fullPage: true });
    await axe(page, "account");
    await page.locator("#sessions").screenshot({ path: path.join(out, "8-sessions.png") });
    await sessionRows.filter({ hasText: "Identity provider" }).getByRole("button", { name: "Revoke" }).click();
    await page.waitForFunction(() => document.querySelectorAll("#sessions tbody tr").length === 1);
    const revoked = await idpPage.evaluate(async () => (await fetch("/api/v1/auth/me")).status);
    if (revoked !== 401) throw new Error(`the revoked session still answers ${revoked} on /auth/me`);
    await idpCtx.close();

    step("add and edit a webhook endpoint");
    const hooks = page.locator("#webhooks");
    await hooks.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/e2e-hook");
    await hooks.getByLabel("Description (optional)").fill("e2e receiver");
    await hooks.getByRole("button", { name: "Add endpoint" }).click();
    await hooks.getByText(/Signing secret of .* shown only now/).waitFor();
    await hooks.locator("tbody tr", { hasText: "e2e receiver" }).getByRole("button", { name: "Edit" }).click();
    const edit = hooks.locator("form.webhook-edit");
    await edit.getByLabel("Description (optional)").fill("e2e receiver, completed jobs only");
    await edit.getByLabel("All events").uncheck();
    await edit.getByLabel("job.completed", { exact: true }).check();
    await edit.getByLabel(/Active \(deliver events/).uncheck();
    await hooks.screenshot({ path: path.join(out, "9-webhook-edit.png") });
    await axe(page, "account, a webhook endpoint being edited");
    await edit.getByRole("button", { name: "Save endpoint" }).click();
    const row = hooks.locator("tbody tr", { hasText: "completed jobs only" });
    await row.waitFor();
    const [, description, events, state] = await row.locator("td").allInnerTexts();
    if (description !== "e2e receiver, completed jobs only" || events !== "job.completed" || !state.startsWith("Off since"))
      throw new Error(`the edited endpoint reads: ${await row.innerText()}`);
    await hooks.screenshot({ path: path.join(out, "10-webhooks.png") });

    if (consoleErrors.length) throw new Error(`browser console errors:\n${JSON.stringify(consoleErrors, null, 2)}`);
    console.log(`e2e: axe found no violation on ${accessible.length} pages: ${accessible.join("; ")}`);
    console.log(`e2e: passed; screenshots in ${path.relative(root, out)}/`);
  } catch (err) {
    console.error(devLog.split("\n").slice(-40).join("\n"));
    throw err;
  } finally {
    await browser.current?.close();
    writeFileSync(path.join(out, "dev.log"), devLog);
    await stopDev(dev);
    await idp.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`e2e: FAILED: ${err.stack || err}`);
    process.exit(1);
  },
);
