// The viewer in headless Chromium (Debian's, software WebGL): time from navigation to the first
// rendered frame of the default scene, then the crowd demo at several sizes: the median of 300
// engine updates (md5stage updateSteps) and the median render-submit time of the frames rendered
// within a time budget (the viewer's own stats; software WebGL renders thousands slowly).
//
//   node bench/browser.mjs --site build/site --out build/bench/browser.json [--frames 300]
//                          [--shading 1000] [--shading-canvas 640x360] [--shading-pairs 6]
//                          [--shading-frames 4] [--figures 1]
//
// --figures 1 (default): pages of <md5-stage> figures against iframe embeds (bench/figures.mjs).
//
// --shading N (0: none): the frame time with normal and specular mapping on against off at N
// characters, in interleaved blocks on a larger canvas (the maps cost per pixel), as a ratio.
//
// --avoidance N (0: none): the crowd demo with the scene's `avoidance` on (issue 45: characters
// giving way, stepped at 60 Hz by the crowd playback) at N characters: the page's engine update,
// at most 15 ms at 5,000.
//
// Sizes are set with md5stage.setCrowdSize when the viewer has it; an older viewer gets the crowd
// demo's scene with its instances repeated (each copy starting later on its route) instead.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, newPage, serveDirectory } from '../tests/browser/lib/harness.mjs';
import { benchFigures } from './figures.mjs';
import { benchModelViewer, prepareModelViewerFolder } from './model_viewer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const site = path.resolve(option('--site', path.join(here, '../build/site')));
const out = path.resolve(option('--out', path.join(here, '../build/bench/browser.json')));
const frames = Number(option('--frames', 300));
// Software WebGL draws thousands of characters slowly: each size gets at most this long, and the
// note says how many frames it got.
const budgetSeconds = Number(option('--seconds', 60));
const sizes = option('--sizes', '100,1000,5000').split(',').map(Number);
const shadingSize = Number(option('--shading', 1000));
const avoidanceSize = Number(option('--avoidance', 5000));
const [shadingWidth, shadingHeight] = option('--shading-canvas', '640x360').split('x').map(Number);
const shadingPairs = Number(option('--shading-pairs', 6));
const shadingFrames = Number(option('--shading-frames', 4));  // frame intervals per block
// --figures 1: the <md5-stage> rows (bench/figures.mjs) when the figures module is staged.
const figures = Number(option('--figures', 1));
// --model-viewer PATH_TO_MD5STAGE_CLI: the figures side by side with <model-viewer> 4.4 on the
// walker the CLI exports (bench/model_viewer.mjs; bench/model-viewer's pinned package installed).
const modelViewerCli = option('--model-viewer', '');

const started = Date.now();
const progress = (text) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
};

// Records when window.md5stage.ready resolves, in ms since navigation start.
function recordReady() {
  let api;
  Object.defineProperty(window, 'md5stage', {
    configurable: true,
    get: () => api,
    set: (value) => {
      api = value;
      if (value && value.ready) {
        value.ready.then(() => { window.__md5stageReadyMs = performance.now(); }, () => {});
      }
    },
  });
}

// Collects the stats of `count` distinct rendered frames inside the page (md5stage.stats() when
// there, a cheap poll; else the stats of the full state).
function collectFrames({ count, budgetMs }) {
  return new Promise((resolve) => {
    const read = window.md5stage.stats
      ? () => window.md5stage.stats()
      : () => { const state = window.md5stage.call({ cmd: 'state' }); return Object.assign({ frame: state.frame }, state.stats); };
    const samples = [];
    const start = performance.now();
    let last = -1;
    const tick = () => {
      const stats = read();
      if (stats.frame !== last) {
        last = stats.frame;
        samples.push(stats);
      }
      if (samples.length >= count || performance.now() - start > budgetMs) resolve(samples);
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

// The crowd demo with its instances repeated up to `size` (the scene format allows 4096).
function crowdScene(base, size) {
  const scene = JSON.parse(JSON.stringify(base));
  const instances = [];
  for (let i = 0; i < size; i++) {
    const copy = Object.assign({}, base.instances[i % base.instances.length]);
    copy.start_delay = (copy.start_delay || 0) + 0.7 * Math.floor(i / base.instances.length);
    instances.push(copy);
  }
  scene.instances = instances;
  return scene;
}

const rows = [];
const { server, url } = await serveDirectory(site);
const browser = await launchBrowser();
try {
  // Start-up: a fresh page, the default scene.
  {
    const page = await newPage(browser);
    await page.addInitScript(recordReady);
    await page.goto(url);
    await page.waitForFunction(() => window.__md5stageReadyMs !== undefined, null, { timeout: 120000 });
    const ms = await page.evaluate(() => window.__md5stageReadyMs);
    progress(`first frame after ${ms.toFixed(0)} ms`);
    rows.push({ name: 'first frame of the default scene', value: ms, unit: 'ms',
                note: 'navigation start to md5stage.ready' });
    await page.context().close();
  }

  const base = JSON.parse(fs.readFileSync(path.join(site, 'assets/scenes/crowd.json'), 'utf8'));
  // A small canvas: software WebGL spends its time per pixel and per skinned vertex, and the
  // numbers measured here (update, submit) are CPU time in the page either way. At 640x360 the
  // rasterizer fell so far behind that submitting waited for it (11.6 ms at 1,000 characters
  // against 0.6 ms at 64x36) and only 4 frames came in 20 s; 160x90 measures the submission.
  const page = await newPage(browser, { width: 160, height: 90 });
  await page.goto(url + '#demo=crowd');
  await page.waitForFunction(() => window.md5stage !== undefined);
  await page.evaluate(() => window.md5stage.ready);
  await page.evaluate(() => window.md5stage.opened);
  progress('crowd demo open');
  const hasCrowdSize = await page.evaluate(() => typeof window.md5stage.setCrowdSize === 'function');
  const maxInstances = hasCrowdSize ? 5000 : 4096;
  for (const wanted of sizes) {
    const size = Math.min(wanted, maxInstances);
    const label = `crowd ${wanted}`;
    let note = '';
    if (size !== wanted) note += `; the viewer allows ${maxInstances} characters, measured ${size}`;
    if (hasCrowdSize) {
      const result = await page.evaluate((n) => window.md5stage.setCrowdSize(n), size);
      if (!result.ok) {
        rows.push({ name: `${label} update`, value: null, unit: 'ms', note: `setCrowdSize failed: ${result.error}` });
        continue;
      }
    } else {
      note += '; no setCrowdSize in this viewer: the crowd scene with its instances repeated';
      const result = await page.evaluate((scene) => window.md5stage.loadScene(scene), crowdScene(base, size));
      if (!result.ok) {
        rows.push({ name: `${label} update`, value: null, unit: 'ms', note: `loadScene failed: ${result.error}` });
        continue;
      }
    }
    progress(`${size} characters set`);
    // Let the scene settle (new characters' first frames), then measure.
    await page.evaluate((n) => new Promise((r) => { let k = 0; const f = () => (++k >= n ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }), 2);
    // Update: the engine's frame update run `frames` times in a row (updateSteps), when the viewer
    // has it; submit and draw calls: the frames software WebGL renders within the budget.
    const steps = await page.evaluate((n) => window.md5stage.call({ cmd: 'updateSteps', count: n }), frames);
    const samples = await page.evaluate(collectFrames, { count: frames, budgetMs: budgetSeconds * 1000 });
    progress(`${samples.length} frames measured`);
    const last = samples[samples.length - 1];
    note = `median of ${samples.length} frames${samples.length < frames ? ` (${budgetSeconds} s budget)` : ''}, ` +
           `${last.characters !== undefined ? `${last.characters} characters, ` : ''}${last.instances} drawn` + note;
    // The issue's target for 1,000 characters in wasm applies to the viewer's whole update.
    const updateNote = steps.ok
      ? `median of ${steps.update_ms.length} consecutive engine updates (mean ` +
        `${(steps.update_ms.reduce((a, b) => a + b, 0) / steps.update_ms.length).toFixed(3)} ms; ` +
        `the page's clock ticks in 0.1 ms), ${steps.characters} characters`
      : note;
    rows.push({ name: `${label} update`,
                value: steps.ok ? median(steps.update_ms) : median(samples.map((s) => s.update_ms)),
                unit: 'ms/frame', note: updateNote, target: wanted === 1000 ? ['<=', 4] : null });
    rows.push({ name: `${label} render submit`, value: median(samples.map((s) => s.render_ms)), unit: 'ms/frame', note });
    rows.push({ name: `${label} draw calls`, value: median(samples.map((s) => s.draw_calls)), unit: 'calls' });
  }
  await page.context().close();

  if (avoidanceSize > 0) {
    // The same demo giving way: its scene with `avoidance` on, then the size set (the crowd is
    // built anew at that size on the next update), a few frames to settle, then the engine's
    // update `frames` times: each update one 60 Hz step of the giving-way simulation (and a
    // snapshot once a second) besides the animation.
    const giving = await newPage(browser, { width: 160, height: 90 });
    await giving.goto(url + '#demo=crowd');
    await giving.waitForFunction(() => window.md5stage !== undefined);
    await giving.evaluate(() => window.md5stage.ready);
    await giving.evaluate(() => window.md5stage.opened);
    const scene = Object.assign(JSON.parse(JSON.stringify(base)), { avoidance: true });
    let result = await giving.evaluate((s) => window.md5stage.loadScene(s), scene);
    const canResize = await giving.evaluate(() => typeof window.md5stage.setCrowdSize === 'function');
    if (result.ok && canResize) {
      result = await giving.evaluate((n) => window.md5stage.setCrowdSize(n), avoidanceSize);
    }
    const label = `crowd ${avoidanceSize} update, giving way`;
    if (!result.ok || !canResize) {
      rows.push({ name: label, value: null, unit: 'ms', note: `not measured: ${result.error || 'no setCrowdSize'}` });
    } else {
      progress(`giving way: ${avoidanceSize} characters set`);
      await giving.evaluate((n) => new Promise((r) => { let k = 0; const f = () => (++k >= n ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }), 3);
      const steps = await giving.evaluate((n) => window.md5stage.call({ cmd: 'updateSteps', count: n }), frames);
      const saved = await giving.evaluate(() => window.md5stage.call({ cmd: 'sceneJson' }));
      const state = saved && (saved.scene || saved);
      progress(`giving way: ${steps.ok ? steps.update_ms.length : 0} updates measured`);
      rows.push({ name: label, value: steps.ok ? median(steps.update_ms) : null, unit: 'ms/frame',
                  note: steps.ok
                    ? `median of ${steps.update_ms.length} consecutive engine updates (mean ` +
                      `${(steps.update_ms.reduce((a, b) => a + b, 0) / steps.update_ms.length).toFixed(3)} ms, ` +
                      `max ${Math.max(...steps.update_ms).toFixed(1)} ms), ${steps.characters} characters, ` +
                      `the scene's avoidance ${state && state.avoidance ? 'on' : 'NOT on'}`
                    : `not measured: ${steps.error}`,
                  target: ['<=', 15] });
      if (steps.ok && steps.crowd_ms) {
        // Its parts (a viewer with crowd_ms): the crowd's 60 Hz steps, made first and timed
        // apart, and the rest of the update (locomotion, clocks, poses and palettes).
        const rest = steps.update_ms.map((ms, i) => ms - steps.crowd_ms[i]);
        rows.push({ name: `${label}: the crowd's steps`, value: median(steps.crowd_ms), unit: 'ms/frame',
                    note: `median of ${steps.crowd_ms.length}; first 60 ${median(steps.crowd_ms.slice(0, 60)).toFixed(1)} ms, ` +
                          `last 60 ${median(steps.crowd_ms.slice(-60)).toFixed(1)} ms` });
        rows.push({ name: `${label}: the rest`, value: median(rest), unit: 'ms/frame',
                    note: `median of ${rest.length}: locomotion, clocks, poses and palettes` });
      }
    }
    await giving.context().close();
  }

  if (shadingSize > 0) {
    // Normal mapping on vs off: blocks of frames alternate (on, off, off, on, ...) so drift in
    // the machine's load falls on both; each block's frames are the intervals between rendered
    // frames (requestAnimationFrame timestamps), after one frame to let the switch land.
    const shading = await newPage(browser, { width: shadingWidth, height: shadingHeight });
    await shading.goto(url + '#demo=crowd');
    await shading.waitForFunction(() => window.md5stage !== undefined);
    await shading.evaluate(() => window.md5stage.ready);
    await shading.evaluate(() => window.md5stage.opened);
    const set = await shading.evaluate((n) => window.md5stage.setCrowdSize(n), shadingSize);
    progress(`shading: ${shadingSize} characters set`);
    const block = (on) => shading.evaluate(({ on, count }) => new Promise((resolve) => {
      window.md5stage.call({ cmd: 'setShading', normalMaps: on, specular: on });
      const times = [];
      const tick = (t) => { times.push(t); if (times.length > count + 1) resolve(times.slice(2).map((x, i) => x - times[i + 1])); else requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    }), { on, count: shadingFrames });
    const on = [], off = [];
    if (set.ok) {
      await block(true);  // warm-up
      for (let pair = 0; pair < shadingPairs; pair++) {
        const order = pair % 2 ? [false, true] : [true, false];
        for (const mode of order) (mode ? on : off).push(...await block(mode));
        progress(`shading: pair ${pair + 1} of ${shadingPairs}`);
      }
    }
    const s = await shading.evaluate(() => window.md5stage.state());
    const mapped = s.models.length > 0;
    progress(`shading: ${on.length} + ${off.length} frames`);
    const note = `${shadingSize} characters, ${shadingWidth}x${shadingHeight} canvas, medians of ${on.length} and ` +
                 `${off.length} frame intervals in ${shadingPairs} interleaved pairs of blocks; software WebGL` +
                 (mapped ? '' : '; no model loaded');
    if (on.length && off.length) {
      rows.push({ name: `crowd ${shadingSize} frame, normal maps on`, value: median(on), unit: 'ms/frame', note });
      rows.push({ name: `crowd ${shadingSize} frame, normal maps off`, value: median(off), unit: 'ms/frame', note });
      rows.push({ name: `crowd ${shadingSize} normal maps on / off`, value: median(on) / median(off), unit: 'ratio',
                  note, target: ['<=', 1.5] });
    } else {
      rows.push({ name: `crowd ${shadingSize} normal maps on / off`, value: null, unit: 'ratio', note: `not measured: ${set.error || 'no frames'}` });
    }
    await shading.context().close();
  }
  if (figures && fs.existsSync(path.join(site, 'md5stage-figures.wasm'))) {
    rows.push(...await benchFigures({ siteUrl: url, site, browser, progress }));
  }
  if (modelViewerCli) {
    const mvDir = prepareModelViewerFolder(modelViewerCli, site);
    const mv = await serveDirectory(site, { '/mv/': mvDir });
    try {
      rows.push(...await benchModelViewer({ siteUrl: mv.url, site, mvDir, progress }));
    } finally {
      mv.server.close();
      fs.rmSync(mvDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
  server.close();
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify({ rows }, null, 1) + '\n');
for (const row of rows) console.log(`${row.name}: ${row.value} ${row.unit}${row.note ? ` (${row.note})` : ''}`);
