// End-to-end run of the web app in a real browser (Debian's Chromium driven by playwright-core)
// against `npm run dev` on a loopback port: sign up → upload the sample image → watch progress to
// completion → edit a region → export and download → password-protected share → open the viewer
// in a fresh browser context. Screenshots of the main pages go to test/e2e/out/.
//   npm run test:e2e          (E2E_PORT, default 8791; CHROMIUM, default /usr/bin/chromium)
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

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
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (dev.exitCode !== null) throw new Error(`npm run dev exited with ${dev.exitCode}`);
    try {
      // ready, not live: the engine Worker (OCR models) must answer too before uploads work.
      if ((await fetch(`${base}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${base} was not ready (/health/ready) within 4 minutes`);
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

async function main() {
  const sample = path.join(work, "sample.png");
  const s = spawnSync(process.execPath, [path.join(root, "scripts/sample-image.mjs"), sample], { cwd: root, encoding: "utf8" });
  if (s.status !== 0) throw new Error(`sample-image failed: ${s.stderr}`);

  // A server already on the port would answer instead of the one started here.
  if (await fetch(`${base}/health/live`).then(() => true, () => false)) throw new Error(`${base} is already in use; set E2E_PORT`);
  step(`starting npm run dev on ${base}`);
  const dev = spawn("npm", ["run", "dev"], { cwd: root, env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let devLog = "";
  dev.stdout.on("data", (d) => (devLog += d));
  dev.stderr.on("data", (d) => (devLog += d));
  const browser = { current: null };
  try {
    await waitForServer(dev);
    const languages = await (await fetch(`${base}/api/v1/languages`)).json();
    const canTranslate = languages.translation_pairs.some((p) => p.source === "en");

    // playwright-core gives Chromium a fresh temporary profile (--user-data-dir) itself.
    browser.current = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    const ctx = await browser.current.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await ctx.newPage();
    const consoleErrors = [];
    // Refused requests the app expects (401 from /auth/me when signed out) are logged by the browser
    // as "Failed to load resource"; anything else on the console is a defect.
    page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && consoleErrors.push(`${m.text()} at ${JSON.stringify(m.location())}`));
    page.on("pageerror", (e) => consoleErrors.push(`uncaught: ${e.stack || e.message}`));

    step("sign up");
    await page.goto(`${base}/register`);
    await page.getByLabel("Email").fill(`e2e-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("lantern-quartz-harbor-97");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`${base}/new`);
    await page.getByRole("heading", { name: "New job" }).waitFor();

    step(`upload the sample image (${canTranslate ? "translate" : "ocr"})`);
    await page.locator('input[type="file"]').setInputFiles(sample);
    if (canTranslate) await page.getByLabel("Tool").selectOption("translate");
    await page.screenshot({ path: path.join(out, "1-new-job.png"), fullPage: true });
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/\/jobs\/job_/).catch(async (err) => {
      throw new Error(`the job did not start: ${await page.locator("main").innerText()}`, { cause: err });
    });

    step("watch progress");
    await page.locator('.status[data-state="completed"]').waitFor({ timeout: 420_000 }).catch(async (err) => {
      await page.screenshot({ path: path.join(out, "2-job-failed.png"), fullPage: true });
      throw new Error(`job did not complete: ${await page.locator(".status").textContent()} / ${await page.locator("main").innerText()}`, { cause: err });
    });
    const log = await page.locator(".log li").allTextContents();
    if (!log.length) throw new Error("no progress event was shown");
    await page.screenshot({ path: path.join(out, "2-job-completed.png"), fullPage: true });

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
    await page.locator(".frame .box").first().click();
    const edited = canTranslate ? "Edición de prueba" : "The quick brown fox (checked)";
    await page.getByLabel(canTranslate ? /^Translation/ : "Source text").fill(edited);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    await page.screenshot({ path: path.join(out, "4-editor-region.png"), fullPage: true });

    step("export and download");
    await page.getByLabel("Format").selectOption("txt");
    // The job's own exports are listed too; the new one is the newest .txt (lists are newest first).
    const txtButtons = page.locator("section.card li button.link", { hasText: ".txt" });
    const before = await txtButtons.count();
    await page.getByRole("button", { name: "Create export" }).click();
    await page.waitForFunction((n) => [...document.querySelectorAll("section.card li button.link")].filter((b) => b.textContent.includes(".txt")).length > n, before);
    const dlButton = txtButtons.first();
    const [download] = await Promise.all([page.waitForEvent("download"), dlButton.click()]);
    const saved = path.join(work, download.suggestedFilename());
    await download.saveAs(saved);
    const text = readFileSync(saved, "utf8");
    if (!text.includes(canTranslate ? edited : "The quick brown fox")) throw new Error(`the export lacks the edited text: ${text.slice(0, 300)}`);

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
    await viewer.getByLabel("Password").fill("wrong-password");
    await viewer.getByRole("button", { name: "Open" }).click();
    await viewer.getByText("The password is wrong.").waitFor();
    await viewer.getByLabel("Password").fill("open-sesame");
    await viewer.getByRole("button", { name: "Open" }).click();
    await imagesLoaded(viewer);
    const regionText = await viewer.locator(".viewer-page .regions").first().innerText();
    if (!regionText.includes(edited)) throw new Error(`the viewer does not show the edited text: ${regionText}`);
    await viewer.screenshot({ path: path.join(out, "5-share-viewer-phone.png"), fullPage: true });

    step("account page");
    await page.goto(`${base}/account`);
    await page.getByText(/credits available/).waitFor();
    await page.screenshot({ path: path.join(out, "6-account.png"), fullPage: true });

    if (consoleErrors.length) throw new Error(`browser console errors:\n${JSON.stringify(consoleErrors, null, 2)}`);
    console.log(`e2e: passed; screenshots in ${path.relative(root, out)}/`);
  } catch (err) {
    console.error(devLog.split("\n").slice(-40).join("\n"));
    throw err;
  } finally {
    await browser.current?.close();
    writeFileSync(path.join(out, "dev.log"), devLog);
    await stopDev(dev);
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
