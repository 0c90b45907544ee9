// <md5-stage> figures in headless Chromium, for bench/browser.mjs (issue 27), in one run:
//   - pages of 1, 20 and 40 figures against the same pages built of iframe embeds: the browser's
//     memory once every figure has drawn (the sum of the resident memory of the browser's
//     processes, each page in a fresh browser), WebGL contexts lost, wasm fetches;
//   - the page's update + render time per frame with 4 figures visible against 1 (interleaved on
//     one page), its copies, frames per second and the browser's CPU per frame (the GPU process
//     rasterizes; these from pages in fresh browsers);
//   - bytes (gzipped, as a server would send them) and time before the first figure draws.
//
//   node bench/browser.mjs --figures 1          (part of the browser bench; --figures 0 skips it)
//   node bench/figures.mjs --site build/site    (only this part, printed)
//   node bench/figures.mjs --site build/site --hotspots 8   (only the hotspots' cost)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromium, serveDirectory } from '../tests/browser/lib/harness.mjs';

const DEMOS = ['turns', 'default', 'attach', 'maze', 'dubins_lsl', 'dubins_rsr', 'dubins_lsr', 'dubins_rsl',
               'dubins_lrl', 'dubins_rlr', 'arcline', 'camera'];

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
};

// A process and all its descendants (Linux /proc).
export function processTree(rootPid) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch { /* the process ended */ }
  }
  const inTree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  return inTree;
}

// Resident memory of a process and all its descendants, in MB.
export function treeRssMb(rootPid) {
  let kb = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) kb += Number(match[1]);
    } catch { /* the process ended */ }
  }
  return kb / 1024;
}

// CPU time (user + system) of a process and all its descendants, in ms: with software WebGL the
// GPU process's rasterizing is most of a frame, and the page's own timer never sees it.
export function treeCpuMs(rootPid) {
  let ticks = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* the process ended */ }
  }
  return ticks * 10;  // USER_HZ is 100 on Linux
}

// A page of `count` figures in a grid that fits the window, as elements or as iframe embeds.
function pageHtml(count, kind) {
  const items = [];
  for (let i = 0; i < count; ++i) {
    const demo = DEMOS[i % DEMOS.length];
    items.push(kind === 'element'
      ? `<md5-stage id="f${i}" scene="${demo}" loop style="width:160px;height:90px"></md5-stage>`
      : `<iframe id="f${i}" src="embed.html#demo=${demo}&loop&ui=none" width="160" height="90" style="border:0"></iframe>`);
  }
  return `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
    <div style="display:flex;flex-wrap:wrap;gap:4px;width:1320px">${items.join('\n')}</div>
    ${kind === 'element' ? '<script src="md5stage-element.js"></script>' : ''}</body></html>`;
}

export async function freshBrowser() {
  const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const browser = await chromium.connect(server.wsEndpoint());
  return { server, browser, pid: server.process().pid };
}

// Every figure of the page has drawn: elements count their pictures, embeds report md5stage.opened.
async function allDrawn(page, count, kind, timeout) {
  if (kind === 'element') {
    await page.waitForFunction((n) => Array.from(document.querySelectorAll('md5-stage')).filter((e) => e.frames > 2).length >= n,
                                count, { timeout, polling: 200 });
    return count;
  }
  const deadline = Date.now() + timeout;
  let opened = 0;
  while (Date.now() < deadline) {
    opened = 0;
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      if (await frame.evaluate(() => Boolean(window.md5stage && window.md5stage.opened)).catch(() => false)) ++opened;
    }
    if (opened >= count) break;
    await page.waitForTimeout(500);
  }
  return opened;
}

async function measurePage(siteUrl, count, kind, progress) {
  const { server, browser, pid } = await freshBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1320, height: 900 } });
    const page = await context.newPage();
    const log = { wasm: 0, lost: 0 };
    page.on('request', (request) => { if (request.url().endsWith('.wasm')) ++log.wasm; });
    const onConsole = (message) => { if (/Too many active WebGL contexts|CONTEXT_LOST/i.test(message.text())) ++log.lost; };
    page.on('console', onConsole);
    context.on('page', (p) => p.on('console', onConsole));
    const name = `figures-bench-${kind}-${count}.html`;
    await page.route(`${siteUrl}${name}`, (route) => route.fulfill({ body: pageHtml(count, kind), contentType: 'text/html' }));
    const started = Date.now();
    await page.goto(`${siteUrl}${name}`);
    const drawn = await allDrawn(page, count, kind, 180000).catch(() => -1);
    const seconds = (Date.now() - started) / 1000;
    await page.waitForTimeout(2000);  // let the allocations of the last figures settle
    const mb = treeRssMb(pid);
    progress(`${kind} x${count}: ${mb.toFixed(0)} MB, ${drawn} drawn in ${seconds.toFixed(1)} s, ${log.wasm} wasm fetches, ${log.lost} context warnings`);
    return { mb, drawn, seconds, wasm: log.wasm, lost: log.lost };
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

// Opens `body` (figures and the element's script) as the page `name`, cross-origin isolated so
// that performance.now() counts in 5 us steps instead of 100 us (a figure's frame is a few tenths
// of a millisecond, and medians of 100 us steps jumped by 25%), once `figures` figures have drawn.
async function openFramePage(page, siteUrl, name, body, figures) {
  await page.route(`${siteUrl}${name}`, (route) => route.fulfill({
    body: `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">${body}
           <script src="md5stage-element.js"></script></body></html>`, contentType: 'text/html',
    headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } }));
  await page.goto(`${siteUrl}${name}`);
  if (!await page.evaluate(() => self.crossOriginIsolated)) throw new Error('the frame page is not cross-origin isolated: its timer counts in 100 us steps');
  await page.waitForFunction((n) => Array.from(document.querySelectorAll('md5-stage')).filter((e) => e.frames > 5).length >= n,
                              figures, { timeout: 120000, polling: 100 });
}

// Update + render per frame with 1 and with 4 figures visible, interleaved on one page: figure 0
// stays on screen (fixed), figures 1-3 are scrolled in and out, `rounds` times `frames` frames of
// each (the first 10 after a scroll left out). Pages in fresh browsers differed by 30% between
// runs in the one-figure frame alone, which moved the ratio by as much; one page, alternating,
// leaves only the difference the three figures make. Medians of all frames of each kind.
export async function interleavedFrameCost(siteUrl, rounds, frames) {
  const { server, browser } = await freshBrowser();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 600 } })).newPage();
    const figure = (i, style) => `<md5-stage id="v${i}" scene="turns" loop style="width:240px;height:135px;${style}"></md5-stage>`;
    await openFramePage(page, siteUrl, 'figures-bench-interleaved.html',
                        figure(0, 'position:fixed;left:0;top:0') +
                        `<div style="margin-left:240px;height:135px">${[1, 2, 3].map((i) => figure(i, '')).join('')}</div>` +
                        '<div style="height:3000px"></div>', 4);
    const phase = (want, scrollY) => page.evaluate(({ want, scrollY, count }) => new Promise((resolve) => {
      window.scrollTo(0, scrollY);
      const out = [];
      let last = null;
      let settled = 0;
      const tick = () => {
        const frame = window.md5stageFigures.lastFrame;
        if (frame !== last) {
          if (frame.figures !== want) settled = 0;
          else if (++settled > 10) out.push(frame.render);
        }
        last = frame;
        if (out.length >= count) resolve(out); else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }), { want, scrollY, count: frames });
    const one = [], four = [], ratios = [];
    for (let round = 0; round < rounds; ++round) {
      const a = await phase(1, 2000);
      const b = await phase(4, 0);
      one.push(...a);
      four.push(...b);
      ratios.push(median(b) / median(a));
    }
    return { one: median(one), four: median(four), ratios };
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

// CPU time of the page's renderer processes in ns, from each thread's /proc/PID/task/TID/schedstat
// (the scheduler's own count, where /proc/PID/stat counts 10 ms ticks): `main`, the page's main
// thread (script, style, layout, paint: what the hotspots' moves cost the page is there, the
// element's own clock sees only the script), and `all` its threads (with the compositor's and
// the raster workers'). The GPU process, which rasterizes software WebGL, is not counted.
export function rendererCpuNs(rootPid) {
  let main = 0, all = 0;
  for (const pid of processTree(rootPid)) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        const ns = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        all += ns;
        if (tid === String(pid)) main += ns;
      }
    } catch { /* the process or thread ended */ }
  }
  return { main, all };
}

// What hotspots cost (issue 46: on every figure, at most 10% of the frame): 4 figures visible,
// each with 3 hotspots (the hand of one walker, the head of another, a world point) in some
// phases and none in the others, on one page. `rounds` pairs of phases, the order of each pair
// alternating (without-with, with-without, ...) so that a drift of the shared machine falls on
// both sides; each phase `frames` frames after 10 settling ones (the hotspots' first frames
// send them to the stage). Measured per phase: the page frame by md5stage-element.js's own clock
// (update + render + copies + placing the hotspots; its copies wait for the GL queue, the
// noisiest part), and the CPU time per frame of the renderer's main thread (script, style and
// layout together: what the moves cost the page's style work is there, not in the page's clock,
// and waits are not). Each pair gives a ratio with / without; a round of the shared machine that
// went wrong moves the median of the ratios little, where it moved the ratio of all frames'
// medians by up to 0.5. The judged value is the median ratio of the main thread's CPU per frame.
export async function hotspotFrameCost(siteUrl, rounds, frames) {
  const { server, browser, pid } = await freshBrowser();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 600 } })).newPage();
    const figures = [0, 1, 2, 3].map((i) => `<md5-stage id="v${i}" scene="turns" loop style="width:240px;height:135px"></md5-stage>`);
    await openFramePage(page, siteUrl, 'figures-bench-hotspots.html', figures.join(''), 4);
    // `count` frames of 4 figures after the next one (the first `skip` after a change).
    const collect = (count) => page.evaluate((count) => new Promise((resolve) => {
      const out = { ms: [], placing: [], rendering: [], frames: 0, moves: 0 };
      const first = document.getElementById('v0').frames;
      let last = window.md5stageFigures.lastFrame;
      const tick = () => {
        const frame = window.md5stageFigures.lastFrame;
        if (frame !== last && frame.figures === 4) {
          out.ms.push(frame.ms);
          out.placing.push(frame.spots || 0);
          out.rendering.push(frame.render);
          out.moves += frame.moves || 0;
        }
        last = frame;
        if (out.ms.length >= count) resolve(Object.assign(out, { frames: document.getElementById('v0').frames - first }));
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }), count);
    // Each phase from the same scene time (the walkers walk from 1 s to 7.5 s of the 13 s turns
    // scene, then stand): the hotspots move as much in each phase, and most (as the walk shows).
    const setSpots = (spots) => page.evaluate((spots) => {
      for (const figure of document.querySelectorAll('md5-stage')) {
        figure.seek(1);
        figure.replaceChildren();
        if (!spots) continue;
        figure.innerHTML = '<span slot="hotspot-hand" data-joint="hand_r" data-character="0">hand</span>' +
          '<span slot="hotspot-head" data-joint="head" data-character="1">head</span>' +
          '<span slot="hotspot-point" data-position="0 80 35">point</span>';
      }
    }, spots);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    let placed = 0;  // hotspots with a data-visible after a phase with them (of 12)
    const phase = async (spots) => {
      await setSpots(spots);
      await collect(10);
      const m0 = await metrics();
      const cpu = rendererCpuNs(pid);
      const result = await collect(frames);
      const after = rendererCpuNs(pid);
      const m1 = await metrics();
      if (spots) placed = Math.max(placed, await page.evaluate(() => [...document.querySelectorAll('[slot^="hotspot-"]')]
        .filter((spot) => spot.dataset.visible !== undefined).length));
      const perFrame = (key) => (after[key] - cpu[key]) / 1e6 / Math.max(1, result.frames);
      const dm = (key) => (m1[key] - m0[key]) * 1000 / Math.max(1, result.frames);
      return { ms: median(result.ms), placing: median(result.placing), render: median(result.rendering),
               main: perFrame('main'), all: perFrame('all'), moves: result.moves / result.ms.length, style: dm('RecalcStyleDuration'), layout: dm('LayoutDuration'),
               script: dm('ScriptDuration'), task: dm('TaskDuration'), styleCount: (m1.RecalcStyleCount - m0.RecalcStyleCount) / Math.max(1, result.frames),
               layoutCount: (m1.LayoutCount - m0.LayoutCount) / Math.max(1, result.frames) };
    };
    const pairs = [];
    for (let round = 0; round < rounds; ++round) {
      const order = round % 2 ? [true, false] : [false, true];
      const got = {};
      for (const spots of order) got[spots] = await phase(spots);
      pairs.push({ bare: got[false], spotted: got[true] });
    }
    const log = pairs.map((p) => [p.bare.main, p.spotted.main, p.spotted.moves].map((v) => v.toFixed(2)).join('/')).join(' ');
    const of = (side, key) => median(pairs.map((pair) => pair[side][key]));
    const ratios = (key) => pairs.map((pair) => pair.spotted[key] / pair.bare[key]);
    return { rounds, frames, placed, ratio: median(ratios('main')), frameRatio: median(ratios('ms')), allRatio: median(ratios('all')),
             log, ratios: ratios('main'), frameRatios: ratios('ms'), allRatios: ratios('all'),
             mainBare: of('bare', 'main'), mainSpotted: of('spotted', 'main'), allBare: of('bare', 'all'), allSpotted: of('spotted', 'all'),
             bare: of('bare', 'ms'), spotted: of('spotted', 'ms'), renderBare: of('bare', 'render'), renderSpotted: of('spotted', 'render'),
             placing: of('spotted', 'placing'),
             diag: Object.fromEntries(['moves', 'style', 'layout', 'script', 'task', 'styleCount', 'layoutCount'].map((k) => [k, [of('bare', k), of('spotted', k)]])) };
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

// Median page frame (update + render + copies, md5stage-element.js's own clock) with `visible`
// figures on screen, over `frames` frames.
export async function frameCost(siteUrl, visible, frames) {
  const { server, browser, pid } = await freshBrowser();
  const context = await browser.newContext({ viewport: { width: 1000, height: 600 } });
  const page = await context.newPage();
  const figures = Array.from({ length: visible }, (_, i) => `<md5-stage id="v${i}" scene="turns" loop style="width:240px;height:135px"></md5-stage>`);
  await openFramePage(page, siteUrl, `figures-bench-visible-${visible}.html`, figures.join(''), visible);
  const framesNow = () => page.evaluate(() => document.getElementById('v0').frames);
  const cpuBefore = treeCpuMs(pid);
  const framesBefore = await framesNow();
  const started = Date.now();
  const samples = await page.evaluate(({ count, want }) => new Promise((resolve) => {
    const out = [];
    let last = null;
    const tick = () => {
      const frame = window.md5stageFigures.lastFrame;
      if (frame !== last && frame.figures === want) out.push(frame);
      last = frame;
      if (out.length >= count) resolve(out); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }), { count: frames, want: visible });
  const drawn = (await framesNow()) - framesBefore;
  const cpu = treeCpuMs(pid) - cpuBefore;
  const seconds = (Date.now() - started) / 1000;
  await context.close();
  await browser.close();
  await server.close();
  return { ms: median(samples.map((f) => f.ms)), render: median(samples.map((f) => f.render)), copy: median(samples.map((f) => f.copy)),
           fps: drawn / seconds, cpuPerFrame: cpu / Math.max(1, drawn) };
}

// Bytes (gzip -6 of each response body, as a compressing server sends them) and time from
// navigation to the first picture of a page with one figure.
async function firstFigure(browser, siteUrl, site) {
  const context = await browser.newContext({ viewport: { width: 800, height: 500 } });
  const page = await context.newPage();
  const seen = [];
  page.on('requestfinished', (request) => seen.push({ url: request.url(), at: Date.now() }));
  const name = 'figures-bench-first.html';
  await page.route(`${siteUrl}${name}`, (route) => route.fulfill({
    body: '<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">' +
          '<md5-stage id="first" scene="turns" style="width:480px;height:270px"></md5-stage>' +
          '<script src="md5stage-element.js"></script></body></html>', contentType: 'text/html' }));
  await page.goto(`${siteUrl}${name}`);
  await page.waitForFunction(() => document.getElementById('first').firstPictureTime !== null, null, { timeout: 120000 });
  const ms = await page.evaluate(() => document.getElementById('first').firstPictureTime);
  const drawnAt = Date.now();
  const gz = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 6 }).length;
  let total = 0;
  let code = 0;
  for (const { url, at } of seen) {
    if (at > drawnAt) continue;
    const relative = decodeURIComponent(new URL(url).pathname).replace(/^\//, '');
    const file = path.join(site, relative);
    if (!relative || !fs.existsSync(file)) continue;  // the page itself, served from memory
    const bytes = gz(file);
    total += bytes;
    if (/^md5stage-(element|figures)\./.test(relative)) code += bytes;
  }
  await context.close();
  return { ms, total, code, files: seen.length };
}

export async function benchFigures({ siteUrl, site, browser, progress, frames = 300 }) {
  const rows = [];
  const pages = {};
  for (const kind of ['element', 'iframe']) {
    for (const count of [1, 20, 40]) pages[`${kind}${count}`] = await measurePage(siteUrl, count, kind, progress);
  }
  for (const kind of ['element', 'iframe']) {
    for (const count of [1, 20, 40]) {
      const m = pages[`${kind}${count}`];
      rows.push({ name: `figures: ${count} ${kind === 'element' ? '<md5-stage>' : 'iframe embed'}${count > 1 ? 's' : ''}, browser memory`,
                  value: m.mb, unit: 'MB',
                  note: `${m.drawn} of ${count} drawn in ${m.seconds.toFixed(1)} s, ${m.wasm} wasm fetches, ${m.lost} lost-context warnings; sum of the browser's processes' RSS` });
    }
  }
  rows.push({ name: 'figures: 40 <md5-stage> / 1, browser memory', value: pages.element40.mb / pages.element1.mb, unit: 'ratio',
              target: ['<=', 1.5], note: 'same run, each page in a fresh browser' });
  rows.push({ name: 'figures: 40 iframes / 1, browser memory', value: pages.iframe40.mb / pages.iframe1.mb, unit: 'ratio',
              note: 'the embeds the element replaces on documentation pages' });
  const one = await frameCost(siteUrl, 1, frames);
  const four = await frameCost(siteUrl, 4, frames);
  progress(`frame: 1 visible: update + render ${one.render.toFixed(3)} ms, with copies ${one.ms.toFixed(3)} ms, ${one.fps.toFixed(1)} fps, browser CPU ${one.cpuPerFrame.toFixed(1)} ms/frame; ` +
           `4 visible: ${four.render.toFixed(3)} ms, ${four.ms.toFixed(3)} ms, ${four.fps.toFixed(1)} fps, ${four.cpuPerFrame.toFixed(1)} ms/frame`);
  const rounds = 8;
  const mixed = await interleavedFrameCost(siteUrl, rounds, 100);
  progress(`frame, interleaved on one page: 1 visible ${mixed.one.toFixed(3)} ms, 4 visible ${mixed.four.toFixed(3)} ms; ` +
           `rounds ${mixed.ratios.map((r) => r.toFixed(2)).join(' ')}`);
  rows.push({ name: 'figures: update + render per frame, 1 visible', value: mixed.one, unit: 'ms/frame',
              note: `the figures moved on and their GL commands issued, on the page's thread; median of ${rounds} x 100 frames ` +
                    `interleaved with the 4-visible ones on one page; 240x135 figures, software WebGL` });
  rows.push({ name: 'figures: update + render per frame, 4 visible', value: mixed.four, unit: 'ms/frame', note: `median of ${rounds} x 100 frames` });
  rows.push({ name: 'figures: update + render per frame, 4 visible / 1', value: mixed.four / mixed.one, unit: 'ratio', target: ['<=', 1.5],
              note: `rounds of 100 frames each: ${Math.min(...mixed.ratios).toFixed(2)}-${Math.max(...mixed.ratios).toFixed(2)}; ` +
                    `pages in fresh browsers: 1 visible ${one.render.toFixed(3)} ms, 4 visible ${four.render.toFixed(3)} ms (${(four.render / one.render).toFixed(2)}x)` });
  rows.push({ name: 'figures: page frame with copies, 4 visible / 1', value: four.ms / one.ms, unit: 'ratio',
              note: `1 visible ${one.ms.toFixed(3)} ms, 4 visible ${four.ms.toFixed(3)} ms: the copies wait for the GL queue, so this one varies from run to run` });
  rows.push({ name: 'figures: frames per second, 1 visible', value: one.fps, unit: 'fps', note: 'each page in a fresh browser; 60 is the display rate' });
  rows.push({ name: 'figures: frames per second, 4 visible', value: four.fps, unit: 'fps' });
  rows.push({ name: 'figures: browser CPU per frame, 1 visible', value: one.cpuPerFrame, unit: 'ms/frame',
              note: "all the browser's processes (the GPU process rasterizes software WebGL)" });
  rows.push({ name: 'figures: browser CPU per frame, 4 visible / 1', value: four.cpuPerFrame / one.cpuPerFrame, unit: 'ratio',
              note: `4 visible: ${four.cpuPerFrame.toFixed(1)} ms/frame` });
  const spots = await hotspotFrameCost(siteUrl, 10, 60);
  const range = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
  progress(`hotspots, 4 figures x 3, ${spots.rounds} interleaved pairs: page main thread ${spots.mainBare.toFixed(3)} -> ${spots.mainSpotted.toFixed(3)} ms/frame ` +
           `(pairs ${range(spots.ratios)}); element clock ${spots.bare.toFixed(3)} -> ${spots.spotted.toFixed(3)} ms (pairs ${range(spots.frameRatios)})`);
  rows.push({ name: 'figures: hotspots, page main-thread CPU per frame with / without, 4 visible x 3 hotspots', value: spots.ratio, unit: 'ratio',
              target: ['<=', 1.1], note: `median of ${spots.rounds} interleaved pairs of ${spots.frames} frames (pairs ${range(spots.ratios)}); ` +
              `without ${spots.mainBare.toFixed(3)} ms/frame, with ${spots.mainSpotted.toFixed(3)}: the renderer's main thread ` +
              `(script, style, layout, paint) from schedstat; ${spots.placed} of 12 placed` });
  rows.push({ name: 'figures: hotspots, page frame by the element\'s clock with / without', value: spots.frameRatio, unit: 'ratio',
              note: `median of the pairs (${range(spots.frameRatios)}); without ${spots.bare.toFixed(3)} ms, with ${spots.spotted.toFixed(3)} ms ` +
              `(update + render + copies + placing, ${spots.placing.toFixed(3)} ms of it placing); the style work is not in it` });
  rows.push({ name: 'figures: hotspots, renderer CPU per frame (all its threads) with / without', value: spots.allRatio, unit: 'ratio',
              note: `median of the pairs (${range(spots.allRatios)}); without ${spots.allBare.toFixed(3)} ms/frame, with ${spots.allSpotted.toFixed(3)}` });
  const first = await firstFigure(browser, siteUrl, site);
  progress(`first figure: ${first.ms.toFixed(0)} ms, ${(first.total / 1024).toFixed(0)} KB gzipped (${(first.code / 1024).toFixed(0)} KB module and element)`);
  rows.push({ name: 'figures: time to the first picture', value: first.ms, unit: 'ms', note: 'navigation start to the first copied picture, one figure (turns)' });
  rows.push({ name: 'figures: module bytes before the first picture', value: first.code / 1024, unit: 'KB',
              target: ['<=', 400], note: 'md5stage-element.js + md5stage-figures.js + .wasm, gzip -6' });
  rows.push({ name: 'figures: all bytes before the first picture', value: first.total / 1024, unit: 'KB',
              note: 'the module plus the scene, the walker model, its animations and textures, gzip -6' });
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--site');
  const site = path.resolve(i >= 0 ? args[i + 1] : 'build/site');
  const started = Date.now();
  const progress = (text) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);
  const { server, url } = await serveDirectory(site);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    // --hotspots ROUNDS: only the hotspots' rows (issue 46), printed as JSON.
    const only = args.indexOf('--hotspots');
    const rows = only >= 0 ? [await hotspotFrameCost(url, Number(args[only + 1] || 10), 60)]
      : await benchFigures({ siteUrl: url, site, browser, progress });
    const rounded = (key, value) => (typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(3)) : value);
    for (const row of rows) console.log(row.name ? `${row.name}: ${row.value} ${row.unit}${row.note ? ` (${row.note})` : ''}` : JSON.stringify(row, rounded));
  } finally {
    await browser.close();
    server.close();
  }
}
