// report.mjs opens a umbench report (one self-contained HTML file) from
// disk in Debian's chromium through playwright-core and checks it: no
// console error or page error, no request that leaves the file (every
// figure is an SVG data: URI, or PNG where SVG failed), every image
// decoded (naturalWidth > 0), every link of the table of contents leading
// to an element of the page, a methods paragraph, the claims table, and
// the SIMULATED banner at the top exactly when SIMULATED=1. It saves a
// full-page screenshot. Called by .ci/report.sh; arguments come from the
// environment:
//   REPORT    path of the HTML file
//   OUT       folder for the screenshot (report.png)
//   SIMULATED 1 when the report is of simulated data
//   CHROMIUM  browser executable (default /usr/bin/chromium)
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const env = (k, d) => process.env[k] ?? d;
const report = resolve(env('REPORT')), out = env('OUT'), exe = env('CHROMIUM', '/usr/bin/chromium');
const env_sim = env('SIMULATED', '0');
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: exe,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const problems = [];
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith('file:') && !u.startsWith('data:')) problems.push(`request leaves the file: ${u}`);
  });
  await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
  const imgs = await page.evaluate(async () => {
    const all = Array.from(document.images);
    await Promise.all(all.map((i) => (i.complete ? null : new Promise((ok) => { i.onload = i.onerror = ok; }))));
    return all.map((i) => ({ alt: i.alt, w: i.naturalWidth, h: i.naturalHeight,
      data: i.src.startsWith('data:image/svg+xml;base64,') || i.src.startsWith('data:image/png;base64,') }));
  });
  if (imgs.length === 0) problems.push('no image in the report');
  for (const i of imgs) {
    if (!(i.w > 0 && i.h > 0)) problems.push(`image not decoded: ${i.alt}`);
    if (!i.data) problems.push(`image not an SVG or PNG data URI: ${i.alt}`);
  }
  const broken = await page.evaluate(() => Array.from(document.querySelectorAll('nav a[href^="#"]'))
    .map((a) => a.getAttribute('href').slice(1)).filter((id) => !document.getElementById(id)));
  if (broken.length) problems.push(`table of contents links to nothing: ${broken.join(', ')}`);
  const methods = await page.evaluate(() => document.querySelector('#methods + p')?.textContent ?? '');
  if (!/trial/.test(methods) && !/published/.test(methods)) problems.push(`no methods paragraph: "${methods.slice(0, 80)}"`);
  const banner = await page.evaluate(() => document.body.firstElementChild?.classList.contains('simulated') ?? false);
  if (banner !== (env_sim === '1')) problems.push(`SIMULATED banner ${banner ? 'on measured data' : 'missing on simulated data'}`);
  const claims = await page.locator('#claims ~ table.claims tr').count();
  if (claims < 31) problems.push(`claims table has ${claims - 1} rows, want at least 30`);
  const title = await page.title();
  await page.screenshot({ path: join(out, 'report.png'), fullPage: true });
  console.log(`report: "${title}": ${imgs.length} images decoded (${imgs.map((i) => `${i.w}x${i.h}`).join(', ')}), ${claims - 1} claims`);
} catch (e) {
  problems.push(`check failed: ${e.message}`);
} finally {
  await browser.close();
}
for (const p of problems) console.log(`report: ${p}`);
process.exit(problems.length ? 1 : 0);
