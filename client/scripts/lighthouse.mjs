// Lighthouse (pinned in package.json: 12.2.3, the last for Node 20) on the lobby and the
// table, driving Debian's Chromium with mobile emulation: prints each page's accessibility
// and performance scores. Not part of any default test (CI need not run it).
//
//   node scripts/lighthouse.mjs http://127.0.0.1:8000   (a running `paiju serve`)
//
// It registers a player, opens the lobby, then sits alone at a Mazhan table and audits the
// page during the hand (the same session: the cookie is Chromium's own).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const base = process.argv[2] ?? "http://127.0.0.1:8000";
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const port = 9333;

const profile = mkdtempSync(join(tmpdir(), "paiju-lh-"));
const proc = spawn(
  chromium,
  [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    "about:blank",
  ],
  { stdio: "ignore" },
);

async function connect() {
  for (let i = 0; i < 100; i += 1) {
    try {
      return await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error("Chromium did not answer");
}

const flags = {
  port,
  output: "json",
  logLevel: "error",
  onlyCategories: ["accessibility", "performance"],
  formFactor: "mobile",
  screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75 },
  // the page and its own state (the session cookie) are the audit's: no storage reset
  disableStorageReset: true,
};

async function audit(page, name) {
  const result = await lighthouse(page.url(), flags, undefined, page);
  const c = result.lhr.categories;
  const line = {
    page: name,
    accessibility: Math.round(c.accessibility.score * 100),
    performance: Math.round(c.performance.score * 100),
  };
  const failing = Object.values(result.lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
    .map((a) => ({
      id: a.id,
      nodes: (a.details?.items ?? []).slice(0, 4).map((i) => i.node?.snippet?.slice(0, 90)),
    }));
  const metrics = Object.fromEntries(
    [
      "first-contentful-paint",
      "largest-contentful-paint",
      "total-blocking-time",
      "cumulative-layout-shift",
      "speed-index",
    ].map((id) => [id, result.lhr.audits[id]?.displayValue]),
  );
  const hints = Object.values(result.lhr.audits)
    .filter((a) => a.details?.type === "opportunity" && (a.numericValue ?? 0) > 100)
    .map((a) => `${a.id} ${Math.round(a.numericValue)}ms`);
  const shifts = (result.lhr.audits["layout-shifts"]?.details?.items ?? [])
    .slice(0, 3)
    .map((i) => `${i.node?.snippet?.slice(0, 80)} ${i.score?.toFixed?.(3)}`);
  console.log(JSON.stringify({ ...line, failing, metrics, hints, shifts }));
  return line;
}

const browser = await connect();
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 412, height: 823, isMobile: true, hasTouch: true });
  await page.goto(`${base}/`);
  await page.waitForSelector("#name");
  const name = `lh${Date.now() % 1e8}`;
  await page.type("#name", name);
  await page.type("#password", "secret-pw-1");
  await page.click("#do-register");
  await page.waitForSelector("[data-room-card]");
  await audit(page, "lobby");
  // the table: Lighthouse reloads the page; the session brings it back to the table
  await page.goto(`${base}/#/lobby`);
  await page.waitForSelector("button[data-alone=mazhan]");
  await page.click("button[data-alone=mazhan]");
  await page.waitForSelector("#ready");
  // the click may land as the bar is drawn again: press until the hand is dealt
  for (let i = 0; i < 20 && !(await page.$(".hand [data-tile]")); i += 1) {
    if (await page.$("#ready:not([disabled])")) await page.click("#ready");
    await new Promise((r) => setTimeout(r, 500));
  }
  try {
    await page.waitForSelector(".hand [data-tile]", { timeout: 30_000 });
  } catch (err) {
    await page.screenshot({ path: join(tmpdir(), "paiju-lh-table.png") });
    throw err;
  }
  await audit(page, "table");
} finally {
  await browser.disconnect();
  proc.kill();
}
