// <md5-stage> side by side with Google's <model-viewer> 4.4 on the same walker (issue 46): the
// walker's mesh, walk clip and maps as md5stage shows them (src/anims/materials), and the same
// exported to .glb by `md5stage export` for model-viewer (its documented one-file bundle,
// model-viewer.min.js, three.js inside). Headless Chromium (software WebGL), each page in a fresh
// browser, the two kinds alternated `--rounds` times so load on the machine hits both alike:
//   - time from navigation to the first drawn figure, and the bytes (gzip -9) fetched before it;
//   - the browser's memory (sum of its processes' RSS) with 1, 10, 20 and 40 figures drawn, above
//     that of the same page without figures (a bare page in a fresh browser, each round);
//   - the browser's CPU per frame with 1 and with 4 figures visible (all processes: the GPU
//     process rasterizes), frames counted by requestAnimationFrame on the page.
//
//   BENCH_MODEL_VIEWER=1 ./build_wasm.sh bench     (bench/run.sh installs the pinned package)
//   node bench/model_viewer.mjs --site build/site --md5stage build/native/md5stage [--rounds 2]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveDirectory } from '../tests/browser/lib/harness.mjs';
import { freshBrowser, median, treeCpuMs, treeRssMb } from './figures.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MODEL_VIEWER = path.join(HERE, 'model-viewer/node_modules/@google/model-viewer/dist/model-viewer.min.js');
const WALKER = 'assets/models/walker/';

// One figure of each kind: the walker walking, the same size, no controls; md5stage's fetches
// the mesh's pack that staging writes beside the .md5mesh (`md5stage pack`, its mesh-pack
// attribute).
function figure(kind, i, size) {
  const style = `width:${size[0]}px;height:${size[1]}px;display:inline-block`;
  return kind === 'md5stage'
    ? `<md5-stage id="f${i}" src="${WALKER}walker.md5mesh" mesh-pack="${WALKER}walker.md5pack" anims="${WALKER}walk.md5anim" materials="${WALKER}walker.mtr" autoplay style="${style}"></md5-stage>`
    : `<model-viewer id="f${i}" src="mv/walker.glb" autoplay style="${style}"></model-viewer>`;
}

function pageHtml(kind, count, size) {
  const figures = Array.from({ length: count }, (_, i) => figure(kind, i, size)).join('\n');
  const scripts = { md5stage: '<script src="md5stage-element.js"></script>',
                    'model-viewer': '<script type="module" src="mv/model-viewer.min.js"></script>', bare: '' };
  const script = scripts[kind];
  return `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
    <div style="display:flex;flex-wrap:wrap;gap:4px;width:1320px">${figures}</div>${script}</body></html>`;
}

// Marks, on the page, when each figure first drew its model: md5stage's element notes the first
// picture after its `load` (model, clips and maps opened); model-viewer says `load` when the
// model is in its scene and draws it on the next frame.
const RECORD_DRAWN = () => {
  window.__drawn = new Map();
  document.addEventListener('load', (event) => {
    const target = event.target;
    if (target && target.localName === 'model-viewer') {
      requestAnimationFrame(() => requestAnimationFrame(() => window.__drawn.set(target.id, performance.now())));
    }
  }, true);
  const poll = () => {
    for (const element of document.querySelectorAll('md5-stage')) {
      if (typeof element.firstPictureTime === 'number' && !window.__drawn.has(element.id)) {
        window.__drawn.set(element.id, element.firstPictureTime);
      }
    }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
};

// Opens a page of `count` figures of `kind` in a fresh browser, waits until all have drawn, and
// hands the page to `measure`.
async function withPage(siteUrl, kind, count, size, measure) {
  const { server, browser, pid } = await freshBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1320, height: 900 } });
    const page = await context.newPage();
    const fetched = [];
    page.on('requestfinished', (request) => fetched.push({ url: request.url(), at: Date.now() }));
    await page.addInitScript(RECORD_DRAWN);
    const name = `mv-bench-${kind}-${count}.html`;
    await page.route(`${siteUrl}${name}`, (route) => route.fulfill({ body: pageHtml(kind, count, size), contentType: 'text/html' }));
    const started = Date.now();
    await page.goto(`${siteUrl}${name}`);
    await page.waitForFunction((n) => window.__drawn.size >= n, count, { timeout: 240000, polling: 100 });
    const allDrawnSeconds = (Date.now() - started) / 1000;
    return await measure({ page, pid, fetched, allDrawnSeconds });
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

// Time and bytes to the first figure (gzip -9 of each file fetched before it drew).
async function firstFigure(siteUrl, site, mvDir, kind) {
  return withPage(siteUrl, kind, 1, [480, 270], async ({ page, fetched }) => {
    const ms = await page.evaluate(() => Math.min(...window.__drawn.values()));
    const navigationStart = await page.evaluate(() => performance.timeOrigin);
    let bytes = 0;
    const files = [];
    for (const { url, at } of fetched) {
      if (at > navigationStart + ms + 50) continue;
      const relative = decodeURIComponent(new URL(url).pathname).replace(/^\//, '');
      const file = relative.startsWith('mv/') ? path.join(mvDir, relative.slice(3)) : path.join(site, relative);
      if (!relative || !fs.existsSync(file) || fs.statSync(file).isDirectory()) continue;  // the page itself
      const gz = zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
      bytes += gz;
      files.push(`${path.basename(file)} ${(gz / 1024).toFixed(1)}`);
    }
    return { ms, kb: bytes / 1024, files };
  });
}

async function memory(siteUrl, kind, count) {
  return withPage(siteUrl, kind, count, [160, 90], async ({ page, pid, allDrawnSeconds }) => {
    await page.waitForTimeout(2000);  // the last figures' allocations settle
    return { mb: treeRssMb(pid), seconds: allDrawnSeconds };
  });
}

// Browser CPU per page frame with `visible` figures on screen, over `seconds`.
async function cpuPerFrame(siteUrl, kind, visible, seconds) {
  return withPage(siteUrl, kind, visible, [240, 135], async ({ page, pid }) => {
    await page.waitForTimeout(1000);
    const framesNow = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(window.__rafCount || 0))));
    await page.evaluate(() => { window.__rafCount = 0; const tick = () => { ++window.__rafCount; requestAnimationFrame(tick); }; requestAnimationFrame(tick); });
    const cpu0 = treeCpuMs(pid);
    const frames0 = await framesNow();
    await page.waitForTimeout(seconds * 1000);
    const frames = (await framesNow()) - frames0;
    const cpu = treeCpuMs(pid) - cpu0;
    return { msPerFrame: cpu / Math.max(1, frames), fps: frames / seconds };
  });
}

export async function benchModelViewer({ siteUrl, site, mvDir, progress, rounds = 2, seconds = 8 }) {
  const kinds = ['md5stage', 'model-viewer'];
  const results = Object.fromEntries(kinds.map((k) => [k, { first: [], kb: [], mem: {}, cpu1: [], cpu4: [], files: [] }]));
  for (let round = 0; round < rounds; ++round) {
    const bare = (await memory(siteUrl, 'bare', 0)).mb;
    progress(`round ${round + 1}: bare page ${bare.toFixed(0)} MB`);
    for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
      const r = results[kind];
      const first = await firstFigure(siteUrl, site, mvDir, kind);
      r.first.push(first.ms);
      r.kb.push(first.kb);
      r.files = first.files;
      for (const count of [1, 10, 20, 40]) {
        const m = await memory(siteUrl, kind, count);
        (r.mem[count] ||= []).push(m.mb - bare);
        progress(`round ${round + 1} ${kind}: ${count} figures ${m.mb.toFixed(0)} MB, ${(m.mb - bare).toFixed(0)} above the bare page (all drawn in ${m.seconds.toFixed(1)} s)`);
      }
      r.cpu1.push((await cpuPerFrame(siteUrl, kind, 1, seconds)).msPerFrame);
      r.cpu4.push((await cpuPerFrame(siteUrl, kind, 4, seconds)).msPerFrame);
      progress(`round ${round + 1} ${kind}: first figure ${first.ms.toFixed(0)} ms, ${first.kb.toFixed(1)} KB; ` +
               `CPU/frame 1 visible ${r.cpu1.at(-1).toFixed(1)} ms, 4 visible ${r.cpu4.at(-1).toFixed(1)} ms`);
    }
  }
  const rows = [];
  const md = results.md5stage, mv = results['model-viewer'];
  const side = (name, unit, a, b, note) => {
    rows.push({ name: `vs model-viewer: ${name}, md5stage`, value: median(a), unit, note: `runs ${a.map((v) => v.toFixed(1)).join(', ')}${note ? `; ${note}` : ''}` });
    rows.push({ name: `vs model-viewer: ${name}, model-viewer`, value: median(b), unit, note: `runs ${b.map((v) => v.toFixed(1)).join(', ')}` });
    rows.push({ name: `vs model-viewer: ${name}, md5stage / model-viewer`, value: median(a) / median(b), unit: 'ratio', target: ['<=', 1.0] });
  };
  side('time to the first figure', 'ms', md.first, mv.first);
  side('bytes before the first figure (gzip -9)', 'KB', md.kb, mv.kb, `md5stage: ${md.files.join(', ')}; model-viewer: ${mv.files.join(', ')}`);
  for (const count of [1, 10, 20, 40]) side(`browser memory above the bare page, ${count} figure${count > 1 ? 's' : ''}`, 'MB', md.mem[count], mv.mem[count]);
  side('browser CPU per frame, 1 visible', 'ms/frame', md.cpu1, mv.cpu1);
  side('browser CPU per frame, 4 visible', 'ms/frame', md.cpu4, mv.cpu4);
  return rows;
}

// The walker as model-viewer gets it, and its script, in one folder served at /mv/.
export function prepareModelViewerFolder(md5stageCli, site) {
  if (!fs.existsSync(MODEL_VIEWER)) {
    throw new Error(`${MODEL_VIEWER} is missing: npm ci --prefix ${path.join(HERE, 'model-viewer')}`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md5stage-mv-'));
  fs.copyFileSync(MODEL_VIEWER, path.join(dir, 'model-viewer.min.js'));
  execFileSync(md5stageCli, ['export', path.join(site, WALKER, 'walker.md5mesh'), path.join(site, WALKER, 'walk.md5anim'),
                             '-o', path.join(dir, 'walker.glb')], { stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
  const site = path.resolve(option('--site', 'build/site'));
  const cli = path.resolve(option('--md5stage', 'build/native/md5stage'));
  const rounds = Number(option('--rounds', '2'));
  const started = Date.now();
  const progress = (text) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);
  const mvDir = prepareModelViewerFolder(cli, site);
  const { server, url } = await serveDirectory(site, { '/mv/': mvDir });
  try {
    const rows = await benchModelViewer({ siteUrl: url, site, mvDir, progress, rounds });
    for (const row of rows) console.log(`${row.name}: ${row.value} ${row.unit}${row.note ? ` (${row.note})` : ''}`);
  } finally {
    server.close();
    fs.rmSync(mvDir, { recursive: true, force: true });
  }
}
