// Browser test harness: serves the staged site on a free loopback port, drives Debian's Chromium
// through playwright-core, and records console errors and screenshots for every test.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

export { chromium };  // for bench/, which has no node_modules of its own

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png',
  '.md5mesh': 'text/plain', '.md5anim': 'text/plain', '.md': 'text/plain',
};

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

// Serves `root`; `mounts` maps URL prefixes (e.g. '/shared/') to other folders (test data).
export function serveDirectory(root, mounts = {}) {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    let base = root;
    let pathname = decodeURIComponent(url.pathname);
    for (const [prefix, folder] of Object.entries(mounts)) {
      if (pathname.startsWith(prefix)) {
        base = folder;
        pathname = pathname.slice(prefix.length - 1);
      }
    }
    let file = path.normalize(path.join(base, pathname));
    if (!file.startsWith(path.normalize(base))) {
      response.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (error, data) => {
      if (error) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, { 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream',
                                'Cache-Control': 'no-store' });
      response.end(data);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

// A fresh page with console errors and page errors collected in page.consoleErrors.
export async function newPage(browser, { width = 1280, height = 720, deviceScaleFactor = 1 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor });
  // Figures draw at their full size: pictures compared across runs must not depend on how fast
  // the machine is (dynamic resolution is tested on a page of its own, element_render_scale).
  await context.addInitScript(() => { window.md5stageFixedRenderScale = true; });
  const page = await context.newPage();
  page.consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => page.consoleErrors.push(String(error)));
  return page;
}

// Opens the viewer and waits for window.md5stage.ready (the first rendered frame).
export async function openViewer(page, baseUrl, suffix = '') {
  await page.goto(baseUrl + suffix);
  await page.waitForFunction(() => window.md5stage !== undefined);
  await page.evaluate(() => window.md5stage.ready);
}

export async function waitFrames(page, count) {
  const start = await page.evaluate(() => window.md5stage.state().frame);
  await page.waitForFunction((target) => window.md5stage.state().frame >= target, start + count);
}

// Fetches files (URL paths on the test server) inside the page and hands them to
// md5stage.loadFiles, as a drop would. Returns loadFiles' reply.
export async function loadFromServer(page, paths) {
  return page.evaluate(async (list) => {
    const files = [];
    for (const p of list) {
      const response = await fetch(p);
      if (!response.ok) throw new Error(`fetch ${p}: ${response.status}`);
      files.push({ name: p.split('/').pop(), bytes: new Uint8Array(await response.arrayBuffer()) });
    }
    return window.md5stage.loadFiles(files);
  }, paths);
}

export async function waitSeconds(page, seconds) {
  await page.waitForTimeout(seconds * 1000);
}
