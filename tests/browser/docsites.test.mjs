// Documentation sites with figures (issue 46): the MkDocs and Sphinx examples of
// web/package/examples/ are built as their authors would build them (Debian's mkdocs and
// sphinx-build, warnings as errors), with the staged package (build/dist/md5stage-element) where
// each example's README says to put it, then served; in Chromium every figure of the page draws
// real pixels (its scene, then new pictures as it plays), with no error event and one wasm fetch.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDirectory } from './lib/harness.mjs';
import { guarded, trackedPage } from './share.test.mjs';
import { assertDrawn, assertDrawsNow, recordErrors, scrollToFigure, upperPicture } from './element.test.mjs';

const FIGURES = ['turns', 'maze', 'walker'];

// Whether `command` runs here (it is installed by ./build_wasm.sh setup).
function installed(command) {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return false;
  }
}

// Copies the example into a temporary folder with the package at `packageAt` (relative to the
// example), builds it with `build(folder, out)`, and returns the built site's folder.
function buildSite(ctx, example, packageAt, build) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `md5stage-${example}-`));
  const source = path.join(folder, 'source');
  fs.cpSync(path.join(ctx.sourceDir, 'web', 'package', 'examples', example), source, { recursive: true });
  fs.cpSync(path.join(ctx.site, '..', 'dist', 'md5stage-element'), path.join(source, packageAt), { recursive: true });
  const out = path.join(folder, 'site');
  build(source, out);
  return { folder, out };
}

async function checkSite(ctx, site, pagePath, screenshot) {
  const served = await serveDirectory(site);
  try {
    const page = await trackedPage(ctx, { width: 1000, height: 800 });
    await recordErrors(page);
    const wasm = [];
    page.on('request', (request) => { if (request.url().endsWith('.wasm')) wasm.push(request.url()); });
    await page.goto(`${served.url}${pagePath}`);
    assert.deepEqual(await page.$$eval('md5-stage', (elements) => elements.map((e) => e.id)), FIGURES);
    for (const id of FIGURES) {
      await scrollToFigure(page, id);
      const first = await upperPicture(page, `#${id}`);
      assertDrawn(first, `${screenshot} #${id}`);
      await assertDrawsNow(page, id, first, 'playing');
    }
    assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
    assert.equal(wasm.length, 1, JSON.stringify(wasm));
    await page.locator('#turns').scrollIntoViewIfNeeded();
    await page.screenshot({ path: ctx.screenshotPath(screenshot) });
  } finally {
    served.server.close();
  }
}

function staged(ctx) {
  return fs.existsSync(path.join(ctx.site, '..', 'dist', 'md5stage-element', 'md5stage-element.js'));
}

export const tests = [
  {
    name: 'MkDocs: the example site builds (mkdocs build --strict) with the staged package; its three figures draw and play',
    timeoutMs: 180000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'build/dist/md5stage-element is not staged' };
      if (!installed('mkdocs')) return { skipped: 'mkdocs is not installed (./build_wasm.sh setup)' };
      const { folder, out } = buildSite(ctx, 'mkdocs', 'docs/md5stage', (source, site) => {
        execFileSync('mkdocs', ['build', '--strict', '--quiet', '-f', path.join(source, 'mkdocs.yml'), '-d', site],
                     { cwd: source, stdio: ['ignore', 'pipe', 'pipe'] });
      });
      try {
        assert.ok(fs.existsSync(path.join(out, 'md5stage', 'md5stage-figures.wasm')), 'the package was not copied into the site');
        await checkSite(ctx, out, 'index.html', 'docsite-mkdocs');
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    }),
  },
  {
    name: 'Sphinx: the example site builds (sphinx-build -W) with the staged package; its three figures draw and play',
    timeoutMs: 180000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'build/dist/md5stage-element is not staged' };
      if (!installed('sphinx-build')) return { skipped: 'sphinx-build is not installed (./build_wasm.sh setup)' };
      const { folder, out } = buildSite(ctx, 'sphinx', '_static/md5stage', (source, site) => {
        execFileSync('sphinx-build', ['-b', 'html', '-W', '-q', source, site], { cwd: source, stdio: ['ignore', 'pipe', 'pipe'] });
      });
      try {
        assert.ok(fs.existsSync(path.join(out, '_static', 'md5stage', 'md5stage-figures.wasm')), 'the package was not copied into the site');
        await checkSite(ctx, out, 'index.html', 'docsite-sphinx');
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    }),
  },
];
