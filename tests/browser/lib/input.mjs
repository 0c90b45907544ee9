// Helpers for tests that act like a person (files picked or dropped, keys, touch) and judge the
// result by the pixels on screen: DevTools-protocol drags and touches, screenshots decoded to
// RGBA, the viewer's camera projection redone in JS, and pixel counts over screen regions.
import { openViewer } from './harness.mjs';
import { decodePng } from './png.mjs';

// The canvas clear colour (glClearColor(0.13, 0.14, 0.17)) as 8-bit RGB.
export const BACKGROUND = [33, 36, 43];
export const SKELETON_CYAN = [90, 230, 255];
export const ROUTE_RED = [255, 70, 60];

// A page like harness.newPage (console errors collected), optionally with touch enabled.
export async function newInputPage(browser, { width = 1280, height = 720, hasTouch = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, hasTouch });
  const page = await context.newPage();
  page.consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => page.consoleErrors.push(String(error)));
  return page;
}

// The viewer with nothing loaded (?scene=none).
export async function emptyViewer(ctx, options = {}) {
  const page = await newInputPage(ctx.browser, options);
  await openViewer(page, ctx.baseUrl + '?scene=none');
  await page.evaluate(() => window.md5stage.opened);
  return page;
}

export const state = (page) => page.evaluate(() => window.md5stage.state());
export const call = (page, command) => page.evaluate((c) => window.md5stage.call(c), command);

// Waits until fn(arg) is truthy in the page; false (not an exception) after timeoutMs.
export async function waitUntil(page, fn, arg, timeoutMs = 15000) {
  try {
    await page.waitForFunction(fn, arg, { timeout: timeoutMs, polling: 50 });
    return true;
  } catch (error) {
    if (/Timeout/i.test(String(error))) return false;
    throw error;
  }
}

// At least `count` frames drawn from now (a frame is 40-100 ms under software WebGL).
export async function frames(page, count) {
  const start = await page.evaluate(() => window.md5stage.state().frame);
  await page.waitForFunction((target) => window.md5stage.state().frame >= target, start + count,
                             { polling: 20, timeout: 30000 });
}

// A screenshot of the page as {width, height, data (RGBA)}; saved when `file` is given.
export async function grab(page, file) {
  return decodePng(await page.screenshot(file ? { path: file } : {}));
}

// ---- the DevTools protocol: drags of files and folders, touches ---------------------------------

// Drops absolute paths (files or folders) at (x, y) CSS pixels as the OS would: dragEnter,
// dragOver, drop through Input.dispatchDragEvent.
export async function dropPaths(page, paths, x = 640, y = 360) {
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: paths, dragOperationsMask: 1 | 2 | 16 };
  try {
    await cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', x, y, data });
    await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x, y, data });
    await cdp.send('Input.dispatchDragEvent', { type: 'drop', x, y, data });
  } finally {
    await cdp.detach();
  }
}

// A touch gesture: `tracks` is one array of [x, y] points per finger (all the same length); the
// fingers go down at their first points, move through the rest, and lift.
export async function touchGesture(page, tracks) {
  const cdp = await page.context().newCDPSession(page);
  const at = (i) => tracks.map((track, id) => ({ x: track[i][0], y: track[i][1], id, radiusX: 4, radiusY: 4, force: 1 }));
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let i = 1; i < tracks[0].length; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

// n points from a to b inclusive.
export function line(a, b, n) {
  return Array.from({ length: n }, (_, i) => [a[0] + (b[0] - a[0]) * i / (n - 1), a[1] + (b[1] - a[1]) * i / (n - 1)]);
}

// ---- sampling the viewer's state every frame (to count toggles) ----------------------------------

// Starts recording pick(state()) once per animation frame; stopSampling returns the records.
export async function startSampling(page, pickSource) {
  await page.evaluate((source) => {
    const pick = new Function('s', `return (${source})(s);`);
    window.__inputSamples = [];
    window.__inputSampling = true;
    const tick = () => {
      if (!window.__inputSampling) return;
      const s = window.md5stage.state();
      const last = window.__inputSamples[window.__inputSamples.length - 1];
      if (!last || last.frame !== s.frame) window.__inputSamples.push({ frame: s.frame, value: pick(s) });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, pickSource);
}

export async function stopSampling(page) {
  return page.evaluate(() => {
    window.__inputSampling = false;
    return window.__inputSamples;
  });
}

// How many times the sampled value changed.
export function transitions(samples) {
  let count = 0;
  for (let i = 1; i < samples.length; i++) {
    if (JSON.stringify(samples[i].value) !== JSON.stringify(samples[i - 1].value)) count++;
  }
  return count;
}

// ---- the viewer's projection, in JS (core/view/orbit_camera.cpp) ---------------------------------

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a) => { const l = Math.hypot(...a); return [a[0] / l, a[1] / l, a[2] / l]; };

// A function from a world point to framebuffer pixels [x, y] (null behind the eye), for the
// camera of state() and a canvas of [width, height] pixels (fov 45 degrees, Z up).
export function projector(camera, canvas) {
  const yaw = camera.yaw * Math.PI / 180, pitch = camera.pitch * Math.PI / 180;
  const t = camera.target;
  const eye = [t[0] + camera.distance * Math.cos(pitch) * Math.cos(yaw),
               t[1] + camera.distance * Math.cos(pitch) * Math.sin(yaw),
               t[2] + camera.distance * Math.sin(pitch)];
  const f = unit(sub(t, eye));
  const s = unit(cross(f, [0, 0, 1]));
  const u = cross(s, f);
  const [width, height] = canvas;
  const tanHalf = Math.tan(22.5 * Math.PI / 180);
  const aspect = width / height;
  return (p) => {
    const d = sub(p, eye);
    const w = dot(f, d);
    if (w <= 1e-6) return null;
    const nx = dot(s, d) / (aspect * tanHalf) / w, ny = dot(u, d) / tanHalf / w;
    return [(nx * 0.5 + 0.5) * width, (0.5 - ny * 0.5) * height];
  };
}

// ---- pixels ---------------------------------------------------------------------------------------

export function pixel(image, x, y) {
  const i = (y * image.width + x) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2]];
}

export const near = (p, rgb, tolerance) =>
  Math.abs(p[0] - rgb[0]) <= tolerance && Math.abs(p[1] - rgb[1]) <= tolerance && Math.abs(p[2] - rgb[2]) <= tolerance;

export function clampRect(image, rect) {
  return [Math.max(0, Math.floor(rect[0])), Math.max(0, Math.floor(rect[1])),
          Math.min(image.width, Math.ceil(rect[2])), Math.min(image.height, Math.ceil(rect[3]))];
}

export const grow = (rect, by) => [rect[0] - by, rect[1] - by, rect[2] + by, rect[3] + by];
export const inside = (rect, x, y) => x >= rect[0] && x < rect[2] && y >= rect[1] && y < rect[3];
export const rectArea = (r) => Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1]);

// Counts pixels of `rect` (whole image by default) for which test([r, g, b], x, y) holds.
export function countWhere(image, test, rect = null) {
  const [x0, y0, x1, y1] = clampRect(image, rect || [0, 0, image.width, image.height]);
  let count = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) if (test(pixel(image, x, y), x, y)) count++;
  }
  return count;
}

export const countColour = (image, rgb, tolerance, rect = null) =>
  countWhere(image, (p) => near(p, rgb, tolerance), rect);

// Thin lines are drawn one pixel wide and blended by coverage: a line of colour c over the clear
// colour shows as bg + a (c - bg). Returns that a (0 when the pixel is not such a blend, or
// covers less than minCoverage), from the channel where c and bg differ most, checked on all three.
export function coverage(p, rgb, { bg = BACKGROUND, tolerance = 10, minCoverage = 0.35 } = {}) {
  let k = 0;
  for (let j = 1; j < 3; j++) if (Math.abs(rgb[j] - bg[j]) > Math.abs(rgb[k] - bg[k])) k = j;
  const a = (p[k] - bg[k]) / (rgb[k] - bg[k]);
  if (!(a >= minCoverage) || a > 1.1) return 0;
  for (let j = 0; j < 3; j++) {
    if (Math.abs(p[j] - (bg[j] + a * (rgb[j] - bg[j]))) > tolerance) return 0;
  }
  return a;
}

export const isLineOf = (rgb, options) => (p) => coverage(p, rgb, options) > 0;

// Whether a pixel within `radius` of (x, y) passes test.
export function anyNear(image, x, y, radius, test) {
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const px = Math.round(x) + dx, py = Math.round(y) + dy;
      if (px < 0 || py < 0 || px >= image.width || py >= image.height) continue;
      if (test(pixel(image, px, py))) return true;
    }
  }
  return false;
}

// The pixels that differ by more than `threshold` in a channel between two images, as a list of
// [x, y] (optionally only where keep(x, y) holds).
export function changedPixels(a, b, threshold = 24, keep = null) {
  if (a.width !== b.width || a.height !== b.height) throw new Error('image sizes differ');
  const out = [];
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      if ((Math.abs(a.data[i] - b.data[i]) > threshold || Math.abs(a.data[i + 1] - b.data[i + 1]) > threshold ||
           Math.abs(a.data[i + 2] - b.data[i + 2]) > threshold) && (!keep || keep(x, y))) out.push([x, y]);
    }
  }
  return out;
}

// The box [x0, y0, x1, y1] (x1, y1 exclusive) of the pixels that are not the clear colour, or
// null; `tolerance` per channel.
export function contentBox(image, tolerance = 10, rect = null) {
  const [rx0, ry0, rx1, ry1] = clampRect(image, rect || [0, 0, image.width, image.height]);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let y = ry0; y < ry1; y++) {
    for (let x = rx0; x < rx1; x++) {
      if (near(pixel(image, x, y), BACKGROUND, tolerance)) continue;
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + 1); y1 = Math.max(y1, y + 1);
    }
  }
  return x1 > x0 ? [x0, y0, x1, y1] : null;
}

// A mask (Uint8Array, 1 = set) of the pixels that are not the clear colour, eroded by `erode`
// pixels so antialiased edges are left out.
export function contentMask(image, tolerance = 10, erode = 2) {
  const { width, height } = image;
  let mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) mask[y * width + x] = near(pixel(image, x, y), BACKGROUND, tolerance) ? 0 : 1;
  }
  for (let pass = 0; pass < erode; pass++) {
    const next = new Uint8Array(width * height);
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const i = y * width + x;
        next[i] = mask[i] & mask[i - 1] & mask[i + 1] & mask[i - width] & mask[i + width];
      }
    }
    mask = next;
  }
  return mask;
}

// ---- ImGui widgets found by their pixels ------------------------------------------------------

// Rows of the panel's pixels in the ImGui button colour (dark style, ImGuiCol_Button over the
// window background: blue well above red), as runs [x0, x1] per row inside `rect`.
export function isButtonBlue(data, i) {
  const r = data[i], g = data[i + 1], b = data[i + 2];
  return b > 90 && b - r > 55 && g > r + 15 && b - g > 25;
}

// The boxes of the buttons (blue areas narrower than the window) in rect [x0, y0, x1, y1],
// top to bottom, each [x0, y0, x1, y1].
export function buttonBoxes(image, rect) {
  const [rx0, ry0, rx1, ry1] = rect;
  const rows = [];
  for (let y = ry0; y < ry1; ++y) {
    const runs = [];
    let start = -1;
    for (let x = rx0; x <= rx1; ++x) {
      const blue = x < rx1 && isButtonBlue(image.data, (y * image.width + x) * 4);
      if (blue && start < 0) start = x;
      if (!blue && start >= 0) {
        // Text inside a button splits its run; gaps of a few pixels join.
        if (runs.length && start - runs[runs.length - 1][1] <= 4) runs[runs.length - 1][1] = x;
        else runs.push([start, x]);
        start = -1;
      }
    }
    rows.push(runs.filter(([a, b]) => b - a >= 20));
  }
  // Consecutive rows with runs at the same places make one band of boxes.
  const boxes = [];
  let open = [];
  for (let y = ry0; y <= ry1; ++y) {
    const runs = y < ry1 ? rows[y - ry0] : [];
    const next = [];
    for (const [a, b] of runs) {
      const box = open.find((o) => Math.abs(o[0] - a) <= 2 && Math.abs(o[2] - b) <= 2);
      if (box) {
        box[3] = y + 1;
        next.push(box);
      } else {
        next.push([a, y, b, y + 1]);
      }
    }
    for (const box of open) if (!next.includes(box)) boxes.push(box);
    open = next;
  }
  return boxes.filter((b) => b[3] - b[1] >= 10).sort((p, q) => p[1] - q[1] || p[0] - q[0]);
}

// A click as a person makes one, slower than a frame: ImGui (at a few frames per second under
// software WebGL) must see the cursor over the widget, the button down, then up, in turn.
export async function clickAt(page, x, y) {
  await page.mouse.move(x, y);
  await frames(page, 1);
  await page.mouse.down();
  await frames(page, 1);
  await page.mouse.up();
  await frames(page, 1);
}

// The Model panel, which starts collapsed at (10, 170), opened by its title bar's arrow as a
// person opens it; returns the screen after, the panel's rect and the buttons' boxes in it.
export const MODEL_PANEL_ORIGIN = [10, 170];
export async function openModelPanel(page, screenshotFile = null) {
  const [x0, y0] = MODEL_PANEL_ORIGIN;
  await clickAt(page, x0 + 10, y0 + 9);
  await page.mouse.move(1200, 700);  // away from the panels: nothing hovered
  await frames(page, 3);
  const image = await grab(page, screenshotFile);
  const panel = [x0, y0, x0 + 300, Math.min(y0 + 420, image.height)];
  return { image, panel, boxes: buttonBoxes(image, panel) };
}
