// Runs every tests/browser/*.test.mjs against the staged site and writes results.json
// ({passed, failed, skipped, tests}) for build_wasm.sh's summary line. A test that returns
// {skipped: reason} is counted as skipped, never as passed; under CI=true (where ../shared and the
// staged assets must be there) a skip is a failure.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser, serveDirectory } from './lib/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const site = path.resolve(option('--site', path.join(here, '../../build/site')));
const out = path.resolve(option('--out', path.join(here, '../../build/browser')));
const filter = option('--filter', '');
const inCi = process.env.CI === 'true';
fs.mkdirSync(out, { recursive: true });

const files = fs.readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort();
const sharedDir = path.resolve(here, '../../../shared');
const { server, url } = await serveDirectory(site, fs.existsSync(sharedDir) ? { '/shared/': sharedDir } : {});
const browser = await launchBrowser();
const results = [];
const context = {
  browser, baseUrl: url, site, outDir: out, sharedDir, hasShared: fs.existsSync(sharedDir),
  sourceDir: path.resolve(here, '../..'),
  screenshotPath: (name) => path.join(out, `${name}.png`),
};

for (const file of files) {
  const module = await import(pathToFileURL(path.join(here, file)).href);
  for (const test of module.tests) {
    const name = `${file.replace('.test.mjs', '')}: ${test.name}`;
    if (filter && !name.includes(filter)) continue;
    const started = Date.now();
    // 120 s unless the test asks for longer (the soak test's length is an option).
    const limit = test.timeoutMs || 120000;
    let timer;
    try {
      const outcome = await Promise.race([
        test.run(context),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${limit / 1000} s`)), limit);
        }),
      ]);
      clearTimeout(timer);
      const skipped = outcome && outcome.skipped;
      const ms = Date.now() - started;
      if (skipped && inCi) {
        const error = `skipped under CI=true, where nothing may be skipped: ${skipped}`;
        results.push({ name, status: 'failed', error, ms });
        console.log(`FAIL ${name}\n  ${error}`);
      } else if (skipped) {
        results.push({ name, status: 'skipped', reason: String(skipped), ms });
        console.log(`SKIP ${name} (${skipped}) (${ms} ms)`);
      } else {
        results.push({ name, status: 'passed', ms });
        console.log(`PASS ${name} (${ms} ms)`);
      }
    } catch (error) {
      clearTimeout(timer);
      results.push({ name, status: 'failed', error: String(error && error.stack || error), ms: Date.now() - started });
      console.log(`FAIL ${name}\n  ${String(error && error.stack || error).split('\n').join('\n  ')}`);
    }
  }
}

await browser.close();
server.close();
const count = (status) => results.filter((r) => r.status === status).length;
const passed = count('passed');
const failed = count('failed');
const skipped = count('skipped');
fs.writeFileSync(path.join(out, 'results.json'),
  JSON.stringify({ passed, failed, skipped, tests: results }, null, 2));
console.log(`browser: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
