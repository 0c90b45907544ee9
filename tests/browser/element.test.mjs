// <md5-stage> (web/md5stage-element.js), acting as a reader does: the tutorial page's figures draw
// when scrolled to and again when scrolled back, on one module, one wasm fetch and one WebGL
// context; a forced context loss brings every figure back; nothing is fetched before a figure
// nears the viewport; a focused figure takes arrow keys and Space; reduced motion starts figures
// paused; attribute changes reopen or re-apply, and a bad value is an error event naming it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDirectory } from './lib/harness.mjs';
import { decodePng, distinctColours, countDifferentPixels } from './lib/png.mjs';
import { guarded, trackedPage } from './share.test.mjs';

const CLEAR = [33, 36, 43];  // the figures' clear colour (src/app/figures_main.cpp), as 8-bit sRGB

export function staged(ctx) {
  return ['md5stage-element.js', 'md5stage-figures.js', 'md5stage-figures.wasm', 'docs-example.html']
    .every((file) => fs.existsSync(path.join(ctx.site, file)));
}

// A picture of the figure's canvas without its lowest 32 pixels (where ui=timeline draws).
export async function upperPicture(page, selector) {
  const box = await page.locator(selector).boundingBox();
  const clip = { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.max(1, Math.round(box.height) - 32) };
  const png = decodePng(await page.screenshot({ clip }));
  return png;
}

// Share of pixels that are not the clear colour: a figure that drew its grid and model is far from 0.
export function drawnShare(png) {
  let drawn = 0;
  for (let i = 0; i < png.width * png.height; ++i) {
    const r = png.data[i * 4], g = png.data[i * 4 + 1], b = png.data[i * 4 + 2];
    if (Math.abs(r - CLEAR[0]) > 6 || Math.abs(g - CLEAR[1]) > 6 || Math.abs(b - CLEAR[2]) > 6) ++drawn;
  }
  return drawn / (png.width * png.height);
}

export function assertDrawn(png, what) {
  const share = drawnShare(png);
  assert.ok(share > 0.05 && distinctColours(png) > 8, `${what}: ${(share * 100).toFixed(1)}% drawn, ${distinctColours(png)} colours`);
}

export async function until(page, predicate, arg, timeout = 60000) {
  return page.waitForFunction(predicate, arg, { timeout, polling: 50 });
}

// Takes pictures of the figure until one differs from `before` in more than `pixels` pixels (a
// paused figure draws when acted on, and the compositor shows it a frame or more later: waited
// for, not given a fixed number of milliseconds); fails with `what` if none does within 60 s.
async function untilPictureChanges(page, selector, before, pixels, what) {
  const deadline = Date.now() + 60000;
  let changed = 0;
  do {
    changed = countDifferentPixels(before, await upperPicture(page, selector));
    if (changed > pixels) return;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  } while (Date.now() < deadline);
  assert.fail(`${what}: ${changed} pixels changed in 60 s, expected more than ${pixels}`);
}

// The page's wasm and figures-script requests, and the console's WebGL warnings.
function watch(page) {
  const log = { wasm: [], scripts: [], warnings: [] };
  page.on('request', (request) => {
    const url = request.url();
    if (url.endsWith('.wasm')) log.wasm.push(url);
    if (url.endsWith('md5stage-figures.js')) log.scripts.push(url);
  });
  page.on('console', (message) => {
    if (/WebGL|context/i.test(message.text())) log.warnings.push(message.text());
  });
  return log;
}

// Records every figure's error events in window.figureErrors.
export async function recordErrors(page) {
  await page.addInitScript(() => {
    window.figureErrors = [];
    document.addEventListener('error', (event) => {
      if (event.target && event.target.localName === 'md5-stage') {
        window.figureErrors.push(Object.assign({ id: event.target.id }, event.detail));
      }
    }, true);
  });
}

async function figureIds(page) {
  return page.$$eval('md5-stage', (elements) => elements.map((e) => e.id));
}

// Scrolls as a reader does, with the mouse wheel over the page's right margin (outside every
// figure: a figure with camera-controls takes the wheel for zooming), until the figure is in view.
async function wheelTo(page, id) {
  const viewport = page.viewportSize();
  await page.mouse.move(viewport.width - 8, viewport.height / 2);
  for (let step = 0; step < 60; ++step) {
    const box = await page.locator(`#${id}`).boundingBox();
    if (box.y >= 0 && box.y + box.height <= viewport.height) return;
    const delta = Math.max(-600, Math.min(600, box.y - (viewport.height - box.height) / 2));
    await page.mouse.wheel(0, delta);
    // The page may scroll smoothly: wait until it has come to rest before measuring again.
    let last = -1;
    for (let settle = 0; settle < 40; ++settle) {
      await page.waitForTimeout(60);
      const y = await page.evaluate(() => window.scrollY);
      if (y === last) break;
      last = y;
    }
  }
  throw new Error(`${id} did not come into view by the wheel`);
}

// Scrolls the figure into view and waits until it has drawn pictures of its opened scene.
// `wheel`: with the mouse wheel (the lazy page); else scrolled there at once (the tutorial's
// many figures, where a figure that plays slowly under software WebGL would be caught mid-scroll).
export async function scrollToFigure(page, id, { wheel = false } = {}) {
  if (wheel) await wheelTo(page, id);
  else await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  // A paused figure draws once and then only when acted on: its first picture is what counts.
  await until(page, (target) => document.getElementById(target).firstPictureTime !== null, id).catch(async (error) => {
    const seen = await page.evaluate((target) => {
      const element = document.getElementById(target);
      const box = element.getBoundingClientRect();
      return { loaded: element.loaded, frames: element.frames, top: box.top, bottom: box.bottom, scrollY: window.scrollY };
    }, id);
    throw new Error(`${id} did not draw when scrolled to: ${JSON.stringify(seen)} (${error.message})`);
  });
}

// Whether the figure draws now: it copies new pictures, and they differ from `earlier` (a picture
// of it while it played, at another time). Twenty pictures, not two: a hidden figure resumes
// where it stopped, and a far-off walker moves less than a pixel in two frames.
export async function assertDrawsNow(page, id, earlier, what) {
  const before = await page.evaluate((target) => document.getElementById(target).frames, id);
  await until(page, ([target, count]) => document.getElementById(target).frames > count + 20, [id, before]);
  const now = await upperPicture(page, `#${id}`);
  assertDrawn(now, `${id} ${what}`);
  assert.ok(countDifferentPixels(earlier, now, 12) > 20, `${id} ${what}: the same picture as before`);
  return now;
}

export const tests = [
  {
    name: 'tutorial page: every figure draws when scrolled to and again when scrolled back, one wasm fetch, no context lost; a forced loss brings every figure back',
    timeoutMs: 240000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 1000, height: 560 });
      const log = watch(page);
      await recordErrors(page);
      await page.goto(`${ctx.baseUrl}docs-example.html`);
      const ids = await figureIds(page);
      assert.ok(ids.length >= 12, `${ids.length} figures`);
      // Each figure's snippet is its own markup.
      const snippets = await page.$$eval('figure pre code', (codes) => codes.map((c) => c.textContent));
      assert.equal(snippets.length, ids.length);
      for (const snippet of snippets) assert.match(snippet, /^<md5-stage scene="[a-z_]+"[^<]*><\/md5-stage>$/);

      const pictures = new Map();
      for (const id of ids) {
        await scrollToFigure(page, id);
        pictures.set(id, await upperPicture(page, `#${id}`));
        assertDrawn(pictures.get(id), `${id} scrolled to`);
      }
      await page.screenshot({ path: ctx.screenshotPath('element-tutorial-bottom') });
      for (const id of [...ids].reverse()) {
        await page.locator(`#${id}`).scrollIntoViewIfNeeded();
        pictures.set(id, await assertDrawsNow(page, id, pictures.get(id), 'scrolled back'));
      }
      // Pinter's Figures 5 and 6 open live: the construction with the left side unreachable, and
      // the Dubins words with LSR shortest.
      const pinter = await page.evaluate(() => ['fig-pinter5', 'fig-pinter6'].map((id) => document.getElementById(id).state().construction));
      assert.ok(pinter[0] && pinter[0].sides[0].reachable === false && pinter[0].sides[1].chosen, JSON.stringify(pinter[0]));
      assert.ok(pinter[0].labels.some((l) => l.text === 'unreachable (h < r)' && l.pixel !== null));
      assert.ok(pinter[1] && pinter[1].dubins.find((w) => w.shortest)?.type === 'LSR', JSON.stringify(pinter[1] && pinter[1].dubins));
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: ctx.screenshotPath('element-tutorial-top') });
      assert.equal(log.wasm.length, 1, `wasm fetches: ${log.wasm.join(', ')}`);
      assert.match(log.wasm[0], /md5stage-figures\.wasm$/);
      assert.equal(log.scripts.length, 1);
      assert.deepEqual(log.warnings.filter((w) => /Too many active WebGL contexts|context lost/i.test(w)), []);
      assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
      // One WebGL context: the module's canvas is the only one asked for WebGL.
      assert.equal(await page.evaluate(() => document.querySelectorAll('canvas').length), 1);
      // Under SwiftShader (a CPU rasterizer) the context was made again without multisampling,
      // on that one canvas; the first one is gone from the page.
      const gl = await page.evaluate(() => {
        const context = window.md5stageFigures.canvas.getContext('webgl2');
        const info = context.getExtension('WEBGL_debug_renderer_info');
        return { renderer: String(context.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : context.RENDERER)),
                 antialias: context.getContextAttributes().antialias, inPage: document.body.contains(window.md5stageFigures.canvas) };
      });
      assert.match(gl.renderer, /SwiftShader/i, 'the browser tests run on SwiftShader');
      assert.deepEqual([gl.antialias, gl.inPage], [false, true], JSON.stringify(gl));

      // Context loss, forced: every started figure hears it, and all come back on restore.
      const started = await page.$$eval('md5-stage', (elements) => elements.filter((e) => e.loaded).map((e) => e.id));
      assert.equal(started.length, ids.length);
      await page.evaluate(() => {
        const gl = window.md5stageFigures.canvas.getContext('webgl2');
        window.loseContext = gl.getExtension('WEBGL_lose_context');
        window.loseContext.loseContext();
      });
      await until(page, (count) => window.figureErrors.filter((e) => e.type === 'webglcontextlost').length === count, started.length);
      const lostAt = await page.evaluate((first) => document.getElementById(first).frames, ids[0]);
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate((first) => document.getElementById(first).frames, ids[0]), lostAt, 'drew while the context was lost');
      await page.evaluate(() => window.loseContext.restoreContext());
      for (const id of [ids[0], ids[Math.floor(ids.length / 2)], ids[ids.length - 1]]) {
        await page.locator(`#${id}`).scrollIntoViewIfNeeded();
        await assertDrawsNow(page, id, pictures.get(id), 'after the context came back');
      }
      await page.screenshot({ path: ctx.screenshotPath('element-tutorial-restored') });
      assert.deepEqual((await page.evaluate(() => window.figureErrors)).filter((e) => e.type !== 'webglcontextlost'), []);
    }),
  },
  {
    name: 'lazy figures: nothing fetched until one nears the viewport; keys on a focused figure; reduced motion; attribute changes and bad values',
    timeoutMs: 180000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 900, height: 700 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const log = watch(page);
      await recordErrors(page);
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <div style="height:2400px">A long introduction.</div>
        <md5-stage id="still" scene="turns" alt="Three walkers" style="width:480px;height:270px"></md5-stage>
        <md5-stage id="moving" scene="turns" autoplay poster="assets/models/walker/walker.png" style="width:320px;height:200px"></md5-stage>
        <md5-stage id="done" scene="turns" autoplay style="width:160px;height:90px"></md5-stage>
        <md5-stage id="model" src="assets/models/walker/walker.md5mesh" anims="assets/models/walker/idle.md5anim assets/models/walker/wave.md5anim"
                   materials="assets/models/walker/walker.mtr" animation="wave" camera="20,10,220,0,0,40" style="width:160px;height:90px"></md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}lazy-figures.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.addInitScript(() => {
        window.figureEvents = [];
        for (const type of ['load', 'progress', 'finished']) {
          document.addEventListener(type, (event) => {
            if (event.target && event.target.localName === 'md5-stage') window.figureEvents.push({ id: event.target.id, type, detail: event.detail });
          }, true);
        }
      });
      await page.goto(`${ctx.baseUrl}lazy-figures.html`);
      await page.waitForTimeout(1500);
      assert.deepEqual(log.wasm, [], 'wasm fetched before any figure neared the viewport');
      assert.deepEqual(log.scripts, []);
      // The poster shows until the figure draws.
      const poster = () => page.evaluate(() => {
        const img = document.getElementById('moving').shadowRoot.querySelector('img');
        return { hidden: img.hidden, src: img.src };
      });
      assert.deepEqual(await poster(), { hidden: false, src: `${ctx.baseUrl}assets/models/walker/walker.png` });
      await scrollToFigure(page, 'still', { wheel: true });
      await scrollToFigure(page, 'moving', { wheel: true });
      await scrollToFigure(page, 'done', { wheel: true });
      await scrollToFigure(page, 'model', { wheel: true });
      // src + anims + materials: the page's own URLs, resolved against the page; animation applies.
      const model = await page.evaluate(() => document.getElementById('model').call({ cmd: 'sceneJson' }));
      assert.ok(Array.isArray(model.models), JSON.stringify(model).slice(0, 300));
      assert.deepEqual(model.models[0].materials, ['_page/assets/models/walker/walker.mtr']);
      assert.equal(model.models[0].anims.length, 2);
      assert.equal(model.instances[0].animation, 'wave');
      assertDrawn(await upperPicture(page, '#model'), 'the src figure');
      assert.equal((await poster()).hidden, true);
      assert.equal(log.wasm.length, 1);
      assert.equal(await page.evaluate(async () => (await document.getElementById('still').ready).id), 'still');
      // progress up to 1, load, and `finished` for the figure sought to just before its scene's end.
      await page.evaluate(() => {
        const done = document.getElementById('done');
        done.seek(done.call({ cmd: 'clock' }).scene_end - 0.3);
      });
      await until(page, () => window.figureEvents.some((e) => e.id === 'done' && e.type === 'finished'));
      const events = await page.evaluate(() => window.figureEvents);
      for (const id of ['still', 'moving', 'done']) {
        assert.ok(events.some((e) => e.id === id && e.type === 'load'), `${id}: no load event`);
        const progress = events.filter((e) => e.id === id && e.type === 'progress').map((e) => e.detail.progress);
        assert.ok(progress.length >= 2 && progress[progress.length - 1] === 1 && progress.every((p, i) => i === 0 || p >= progress[i - 1]),
                  `${id}: progress ${JSON.stringify(progress)}`);
      }
      assert.ok(!events.some((e) => e.id !== 'done' && e.type === 'finished'), 'a playing figure finished');

      // Accessibility: focusable, alt as aria-label; reduced motion starts paused unless autoplay.
      assert.equal(await page.getAttribute('#still', 'aria-label'), 'Three walkers');
      assert.equal(await page.getAttribute('#still', 'tabindex'), '0');
      assert.equal(await page.evaluate(() => document.getElementById('still').paused), true);
      assert.equal(await page.evaluate(() => document.getElementById('moving').paused), false);

      // Keys: the paused figure's picture changes only through the camera.
      await wheelTo(page, 'still');
      // Focus as a reader does: Tab from the page reaches the first figure.
      await page.evaluate(() => document.activeElement && document.activeElement.blur());
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'still');
      const before = await upperPicture(page, '#still');
      const yaw = await page.evaluate(() => document.getElementById('still').state().camera.yaw);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await until(page, (y) => document.getElementById('still').state().camera.yaw !== y, yaw);
      await untilPictureChanges(page, '#still', before, 500, 'ArrowLeft did not change the picture');
      const distance = await page.evaluate(() => document.getElementById('still').state().camera.distance);
      await page.keyboard.press('-');
      await until(page, (d) => document.getElementById('still').state().camera.distance > d, distance);
      await page.keyboard.press('Space');
      await until(page, () => !document.getElementById('still').paused);
      await page.keyboard.press('Space');
      await until(page, () => document.getElementById('still').paused);
      // The other figure's camera did not move.
      assert.notEqual(await page.evaluate(() => document.getElementById('moving').state().camera.yaw),
                      await page.evaluate(() => document.getElementById('still').state().camera.yaw));

      // An attribute change reopens the scene; display attributes apply at once.
      await page.evaluate(() => {
        const still = document.getElementById('still');
        window.loads = 0;
        still.addEventListener('load', () => { ++window.loads; });
        still.setAttribute('scene', 'maze');
      });
      await until(page, () => window.loads === 1);
      const maze = await page.evaluate(() => document.getElementById('still').state());
      assert.equal(maze.instances.length, 3);
      assert.ok(maze.obstacles.length > 0, 'the maze has no obstacles');
      await page.evaluate(() => document.getElementById('still').setAttribute('skeleton', '1'));
      await until(page, () => document.getElementById('still').state().display.skeleton === true);

      // Bad values: an error naming the attribute; the figure keeps drawing what it had.
      await page.evaluate(() => {
        document.getElementById('still').setAttribute('t', 'soon');
        document.getElementById('still').setAttribute('scene', 'no such scene!');
      });
      await until(page, () => window.figureErrors.length >= 2);
      const errors = await page.evaluate(() => window.figureErrors);
      assert.ok(errors.some((e) => e.id === 'still' && e.attribute === 't' && /soon/.test(e.message)), JSON.stringify(errors));
      assert.ok(errors.some((e) => e.id === 'still' && e.attribute === 'scene'), JSON.stringify(errors));
      // A source the scene format refuses fails inside the opening call: still an error event.
      await page.evaluate(() => {
        const still = document.getElementById('still');
        still.setAttribute('src', `https://example.com/${'a'.repeat(3000)}.md5mesh`);  // over 2048
      });
      await until(page, () => window.figureErrors.some((e) => e.id === 'still' && e.attribute === 'src' && /#model: error/.test(e.message)), null, 10000)
        .catch(async (error) => { throw new Error(`${error.message}: ${JSON.stringify(await page.evaluate(() => window.figureErrors)).slice(0, 600)}`); });
      await page.evaluate(() => {
        const still = document.getElementById('still');
        still.removeAttribute('src');
        still.setAttribute('scene', 'nosuchdemo');
      });
      await until(page, () => window.figureErrors.some((e) => e.attribute === 'scene' && /nosuchdemo/.test(e.message)));
      assert.equal((await page.evaluate(() => document.getElementById('still').state())).instances.length, 3);
      const afterErrors = await upperPicture(page, '#still');
      assertDrawn(afterErrors, 'after bad values');
      await page.click('#still');  // a click focuses the figure (it has no camera-controls)
      assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'still');
      const yawAfterErrors = await page.evaluate(() => document.getElementById('still').state().camera.yaw);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await until(page, (y) => document.getElementById('still').state().camera.yaw !== y, yawAfterErrors);
      await untilPictureChanges(page, '#still', afterErrors, 500, 'keys stopped working after bad values');
      await page.screenshot({ path: ctx.screenshotPath('element-lazy-keys') });
    }),
  },
  {
    // Once a 5 MB attribute aborted the module (the command was copied onto the wasm stack) and
    // every figure of the page froze. The element now refuses values over 4 MiB before they reach
    // the module; element_hostile.test.mjs sends 5 and 50 MB commands into it through call().
    name: 'a 5 MB scene attribute is an error event on its figure; another figure keeps drawing and answering; the ui=timeline bar follows and drives its clock',
    timeoutMs: 180000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 1000, height: 400 });
      await recordErrors(page);
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <md5-stage id="big" scene="turns" loading="eager" style="width:480px;height:270px"></md5-stage>
        <md5-stage id="other" scene="turns" autoplay ui="timeline" loading="eager" style="width:480px;height:270px"></md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}two-figures.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}two-figures.html`);
      await scrollToFigure(page, 'big');
      await scrollToFigure(page, 'other');
      const before = await upperPicture(page, '#other');

      // The timeline bar: its slider ends where the scene ends, its button says what it does.
      const bar = () => page.evaluate(() => {
        const figure = document.getElementById('other');
        const root = figure.shadowRoot.querySelector('[part="timeline"]');
        return { hidden: root.hidden, max: Number(root.querySelector('input').max), value: Number(root.querySelector('input').value),
                 clock: root.querySelector('span').textContent, button: root.querySelector('button').getAttribute('aria-label'),
                 paused: figure.paused, time: figure.currentTime, sceneClock: figure.call({ cmd: 'clock' }) };
      });
      const shown = await bar();
      assert.equal(shown.hidden, false);
      assert.equal(shown.sceneClock.scene_repeats, false, JSON.stringify(shown.sceneClock));
      assert.ok(shown.sceneClock.scene_end > 1 && shown.max === shown.sceneClock.scene_end, JSON.stringify(shown));
      assert.deepEqual([shown.button, shown.paused], ['Pause', false]);

      const big = 'A'.repeat(5 << 20);  // a share-link payload in shape: it goes to the module
      const threw = await page.evaluate((text) => {
        try {
          document.getElementById('big').setAttribute('scene', text);
          return null;
        } catch (error) {
          return String(error);
        }
      }, big);
      assert.equal(threw, null);
      await until(page, () => window.figureErrors.some((e) => e.id === 'big'), null, 10000);
      const errors = await page.evaluate(() => window.figureErrors.map((e) => ({ id: e.id, attribute: e.attribute, message: e.message.slice(0, 300) })));
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0].attribute, 'scene');
      assert.match(errors[0].message, /at most \d+/, errors[0].message);

      // The module still runs: the other figure draws new pictures and both answer.
      await assertDrawsNow(page, 'other', before, 'after the 5 MB attribute');
      const states = await page.evaluate(() => ['big', 'other'].map((id) => document.getElementById(id).state()));
      assert.deepEqual(states.map((state) => state && state.instances.length), [3, 3], 'a figure lost its scene or stopped answering');
      await page.evaluate(() => document.getElementById('big').setAttribute('scene', 'maze'));
      await until(page, () => document.getElementById('big').state().obstacles.length > 0);

      // The bar drives the clock: its button pauses, its slider seeks, and it shows both.
      await page.click('#other [part="timeline"] button');
      await until(page, () => document.getElementById('other').paused);
      await page.$eval('#other', (figure) => {
        const range = figure.shadowRoot.querySelector('[part="timeline"] input');
        range.value = '1.5';
        range.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await until(page, () => document.getElementById('other').shadowRoot.querySelector('[part="timeline"] span').textContent === '1.5 s');
      const after = await bar();
      assert.deepEqual([after.button, after.paused, after.time, after.value], ['Play', true, 1.5, 1.5], JSON.stringify(after));
      assert.deepEqual((await page.evaluate(() => window.figureErrors)).length, 1);
      await page.screenshot({ path: ctx.screenshotPath('element-5mb-attribute') });
    }),
  },
  {
    name: 'package: npm pack makes a tarball that a docs site installs and serves; its figure draws',
    run: guarded(async (ctx) => {
      const dist = path.join(ctx.site, '..', 'dist', 'md5stage-element');
      if (!fs.existsSync(path.join(dist, 'package.json'))) return { skipped: 'build/dist/md5stage-element is not staged' };
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'md5stage-docs-'));
      let served = null;
      try {
        const packed = JSON.parse(execFileSync('npm', ['pack', dist, '--json', '--pack-destination', folder],
                                               { cwd: folder, encoding: 'utf8' }));
        const tarball = packed[0].filename;
        const files = packed[0].files.map((f) => f.path);
        for (const file of ['md5stage-element.js', 'md5stage-figures.js', 'md5stage-figures.wasm', 'README.md', 'assets/scenes/turns.json']) {
          assert.ok(files.includes(file), `${file} is not in ${tarball}`);
        }
        fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'docs-site', private: true }));
        execFileSync('npm', ['install', `./${path.basename(tarball)}`, '--offline', '--no-audit', '--no-fund', '--loglevel=error'],
                     { cwd: folder, encoding: 'utf8' });
        fs.writeFileSync(path.join(folder, 'index.html'), `<!doctype html><html><head><link rel="icon" href="data:,"></head><body>
          <md5-stage id="installed" scene="turns" style="width:480px;height:270px"></md5-stage>
          <script src="node_modules/md5stage-element/md5stage-element.js"></script></body></html>`);
        served = await serveDirectory(folder);
        const page = await trackedPage(ctx, { width: 600, height: 400 });
        await recordErrors(page);
        await page.goto(`${served.url}index.html`);
        await scrollToFigure(page, 'installed');
        assertDrawn(await upperPicture(page, '#installed'), 'the installed package\'s figure');
        assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
        await page.screenshot({ path: ctx.screenshotPath('element-package') });
      } finally {
        if (served) served.server.close();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    }),
  },
];
