// run.mjs opens a notebook in JupyterLab with Debian's chromium through
// playwright-core, runs all its cells, waits for a rendered figure (an img in
// an output area) and saves screenshots. Called by .ci/browser.sh, which
// starts JupyterLab; arguments come from the environment:
//   LAB_URL   base URL of JupyterLab, e.g. http://127.0.0.1:8899
//   LAB_TOKEN its token
//   NOTEBOOK  path of the notebook below the server root
//   OUT       folder for the screenshots
//   CHROMIUM  browser executable (default /usr/bin/chromium)
//   EXPECT_TEXT  optional: text the notebook's outputs must show
//             (.ci/container.sh: "Data mode: bundled")
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const env = (k, d) => process.env[k] ?? d;
const base = env('LAB_URL'), token = env('LAB_TOKEN'), notebook = env('NOTEBOOK');
const out = env('OUT'), exe = env('CHROMIUM', '/usr/bin/chromium');
const timeout = Number(env('TIMEOUT_MS', '300000'));
mkdirSync(out, { recursive: true });

const t0 = Date.now();
const step = (msg) => console.log(`browser: ${((Date.now() - t0) / 1000).toFixed(1)} s  ${msg}`);

const browser = await chromium.launch({
  executablePath: exe,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(timeout);
  page.on('pageerror', (e) => console.log(`browser: page error: ${e.message}`));
  await page.goto(`${base}/lab/tree/${notebook}?token=${token}&reset`);
  step('page loaded');
  // JupyterLab runs with expose_app_in_browser, so window.jupyterapp is its
  // application: wait for the notebook panel and its kernel.
  await page.waitForFunction(() => {
    const w = window.jupyterapp?.shell?.currentWidget;
    return w && w.sessionContext && w.content && w.content.widgets.length > 0;
  });
  await page.evaluate(async () => { await window.jupyterapp.shell.currentWidget.sessionContext.ready; });
  const kernel = await page.evaluate(() => window.jupyterapp.shell.currentWidget.sessionContext.kernelDisplayName);
  step(`notebook open, kernel "${kernel}" ready`);
  const ok = await page.evaluate(async () => {
    const app = window.jupyterapp;
    await app.commands.execute('notebook:clear-all-cell-outputs');
    return await app.commands.execute('notebook:run-all-cells');
  });
  step(`run all cells finished (success: ${ok})`);
  // Wait for the kernel to go idle and every code cell to have run.
  await page.waitForFunction(() => {
    const w = window.jupyterapp.shell.currentWidget;
    const status = w.sessionContext.session?.kernel?.status;
    const cells = w.content.widgets.filter((c) => c.model.type === 'code');
    return status === 'idle' && cells.every((c) => c.model.executionCount !== null);
  });
  const errors = await page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], .jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]').count();
  const img = page.locator('.jp-OutputArea-output img').first();
  await img.waitFor({ state: 'visible' });
  await img.scrollIntoViewIfNeeded();
  const size = await img.evaluate((e) => [e.naturalWidth, e.naturalHeight]);
  const imgs = await page.locator('.jp-OutputArea-output img').count();
  const tables = await page.locator('.jp-OutputArea-output table').count();
  step(`${imgs} images (first ${size[0]}x${size[1]} px), ${tables} tables, ${errors} error outputs`);
  // JupyterLab asks whether to fetch its news; answer no, so the toast
  // does not cover the page screenshot.
  const no = page.getByRole('button', { name: 'No' });
  if (await no.count()) await no.first().click().catch(() => {});
  await img.screenshot({ path: join(out, 'figure.png') });
  await page.screenshot({ path: join(out, 'page.png') });
  step(`screenshots: ${join(out, 'figure.png')}, ${join(out, 'page.png')}`);
  const expect = env('EXPECT_TEXT', '');
  if (expect) {
    const text = await page.locator('.jp-OutputArea-output').allInnerTexts();
    const found = text.some((t) => t.includes(expect));
    step(`outputs ${found ? 'show' : 'do NOT show'} "${expect}"`);
    if (!found) failed = true;
  }
  if (!ok || errors > 0 || imgs === 0 || size[0] === 0) {
    failed = true;
    console.log('browser: FAIL: the notebook did not run cleanly or rendered no figure');
  }
} catch (e) {
  failed = true;
  console.log(`browser: FAIL: ${e.message}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
