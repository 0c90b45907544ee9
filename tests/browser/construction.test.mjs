// The construction view (display toggle `construction`) in <md5-stage>, acting as a reader does:
// the attribute draws both turning circles and their labels; a click on the ground with tool="goto"
// moves the destination and Q (pixels and state().construction); a destination inside the
// left circle makes that side unreachable; at each destination `md5stage turn --explain --json`
// prints the numbers state() reports and the labels show; a share link of the figure keeps the
// view on; the iframe embed's `construction=1` option shows it too.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { decodePng, countDifferentPixels } from './lib/png.mjs';
import { openViewer, waitFrames } from './lib/harness.mjs';
import { guarded, trackedPage } from './share.test.mjs';

function staged(ctx) {
  return ['md5stage-element.js', 'md5stage-figures.js', 'md5stage-figures.wasm']
    .every((file) => fs.existsSync(path.join(ctx.site, file)));
}

async function until(page, predicate, arg, timeout = 30000) {
  return page.waitForFunction(predicate, arg, { timeout, polling: 50 });
}

async function picture(page, selector) {
  const box = await page.locator(selector).boundingBox();
  return decodePng(await page.screenshot({ clip: { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) } }));
}

// The figure's texts of its last frame (figure pixels = CSS pixels here: the page's ratio is 1).
async function texts(page, id) {
  return page.evaluate((target) => {
    const figures = window.md5stageFigures;
    const { module } = figures;
    return JSON.parse(module.UTF8ToString(module._md5stage_figure_texts(document.getElementById(target)._stage)));
  }, id);
}

// A paused figure draws only when acted on: the frame that changed state() has been copied by the
// time the page answers (draws and copies happen in one task); a short wait covers the screenshot.
async function settle(page) {
  await page.waitForTimeout(150);
}

// `md5stage turn --explain --json` for the figure's own origin, radius and destination: every
// number of both sides equals state().construction's (1e-9), and the drawn labels show them.
function expectCliAgrees(ctx, construction, labels) {
  const cli = path.join(ctx.sourceDir, 'build/native/md5stage');
  const [ox, oy, heading] = construction.origin;
  const [dx, dy] = construction.destination;
  const to = construction.final_heading === null ? `${dx},${dy}` : `${dx},${dy},${construction.final_heading}`;
  const args = ['turn', '--from', `${ox},${oy},${heading}`, '--to', to, '--radius', String(construction.radius), '--explain', '--json'];
  let out;
  try {
    out = execFileSync(cli, args).toString();
  } catch (error) {
    out = error.stdout.toString();  // exit 1 when no side is reachable; the JSON is still printed
  }
  const explained = JSON.parse(out).construction;
  const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9, `${what}: CLI ${a}, figure ${b}`);
  assert.equal(explained.chosen, construction.sides.find((s) => s.chosen)?.side ?? null);
  explained.sides.forEach((side, i) => {
    const drawn = construction.sides[i];
    assert.equal(side.side, drawn.side);
    assert.equal(side.reachable, drawn.reachable, `${side.side} reachable`);
    assert.equal(side.chosen, drawn.chosen, `${side.side} chosen`);
    near(side.P[0], drawn.P[0], `${side.side} P.x`); near(side.P[1], drawn.P[1], `${side.side} P.y`);
    near(side.h, drawn.h, `${side.side} h`);
    near(side.phi, drawn.phi, `${side.side} phi`);
    if (!side.reachable) return;
    for (const key of ['d', 'theta', 'length']) near(side[key], drawn[key], `${side.side} ${key}`);
    near(side.Q[0], drawn.Q[0], `${side.side} Q.x`); near(side.Q[1], drawn.Q[1], `${side.side} Q.y`);
    // The figure's labels round the CLI's numbers to one decimal (angles in degrees); the ones
    // placed on screen (a label with no free place round its point is left out) are drawn.
    if (construction.final_heading !== null) return;  // then the labels are the Dubins words'
    const ofSide = construction.labels.filter((l) => l.side === i).map((l) => l.text);
    const degrees = (radians) => (radians * 180 / Math.PI).toFixed(1);
    for (const text of [`h = ${side.h.toFixed(1)}`, `d = ${side.d.toFixed(1)}`, `theta = ${degrees(side.theta)} deg`,
                        `phi = ${degrees(side.phi)} deg`, `length ${side.length.toFixed(1)}`]) {
      assert.ok(ofSide.includes(text), `no label "${text}" for the ${side.side} side: ${ofSide.join(' | ')}`);
    }
  });
  if (construction.final_heading !== null) {
    const words = explained.dubins.filter((w) => w.exists);
    assert.deepEqual(words.map((w) => w.type), construction.dubins.map((w) => w.type));
    words.forEach((w, i) => near(w.length, construction.dubins[i].length, `${w.type} length`));
    const texts = construction.labels.map((l) => l.text);
    for (const word of construction.dubins) {
      assert.ok(texts.includes(`${word.type} length ${word.length.toFixed(1)}`), `no label for ${word.type}: ${texts.join(' | ')}`);
    }
  }
  const drawn = labels.map((t) => t.text);
  for (const label of construction.labels.filter((l) => l.pixel !== null)) {
    assert.ok(drawn.includes(label.text), `label "${label.text}" is placed but not drawn: ${drawn.join(' | ')}`);
  }
  const placed = construction.labels.filter((l) => l.pixel !== null).length;
  assert.ok(placed >= Math.min(8, construction.labels.length - 1), `${placed} of ${construction.labels.length} labels placed`);
}

export const tests = [
  {
    name: 'construction view: the attribute draws both circles and labels; go-to clicks move Q and show the unreachable side; a share link keeps it',
    timeoutMs: 90000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 700, height: 900 });
      // routes="0": the walker's route runs along the chosen circle in nearly the colour of the
      // construction's walk, so with it shown the circle's own pixels could not be told apart.
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <md5-stage id="fig" scene="arcline" paused camera-controls camera="-90,89,560,0,-40,0" routes="0" loading="eager" style="display:block;width:600px;height:400px"></md5-stage>
        <md5-stage id="linked" loading="eager" paused style="display:block;width:600px;height:400px"></md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}construction.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}construction.html`);
      await until(page, () => { const e = document.getElementById('fig'); return e.loaded && e.frames > 2; });
      const state = () => page.evaluate(() => document.getElementById('fig').state());
      assert.equal((await state()).construction, null);
      const off = await picture(page, '#fig');

      // On: both circles with their labels; the destination (40, 50) lies inside the left one.
      await page.evaluate(() => document.getElementById('fig').setAttribute('construction', '1'));
      await until(page, () => document.getElementById('fig').state().construction !== null);
      await settle(page);
      const on = await picture(page, '#fig');
      const first = (await state()).construction;
      assert.equal(first.sides[0].reachable, false, JSON.stringify(first));
      assert.equal(first.sides[1].reachable, true);
      assert.equal(first.sides[1].chosen, true);
      const labels = await texts(page, 'fig');
      const names = labels.map((t) => t.text);
      assert.ok(names.includes('unreachable (h < r)'), names.join(' | '));
      for (const prefix of ['P', 'Q', 'r = 60.0', 'h = ', 'd = ', 'theta = ', 'phi = ', 'length ']) {
        assert.ok(names.some((n) => n.startsWith(prefix)), `no ${prefix} label: ${names.join(' | ')}`);
      }
      // Pixels change along each circle: at its far point (where the length label is pinned), just left of the text.
      const far = labels.filter((t) => t.text === 'unreachable (h < r)' || t.text.startsWith('length '));
      assert.equal(far.length, 2);
      for (const label of far) {
        const [x, y] = [Math.round(label.x), Math.round(label.y)];
        assert.ok(countDifferentPixels(off, on, 24, [x - 8, y - 4, x + 2, y + 5]) > 2, `circle at ${x},${y} not drawn`);
      }
      assert.ok(countDifferentPixels(off, on) > 1500, 'the construction changed few pixels');
      await page.screenshot({ path: ctx.screenshotPath('construction-on') });

      // tool="goto": a click on the ground at the right circle's far point sends the walker there.
      await page.evaluate(() => document.getElementById('fig').setAttribute('tool', 'goto'));
      await until(page, () => document.getElementById('fig').state().tool === 'goto');
      const box = await page.locator('#fig').boundingBox();
      const rightFar = labels.find((t) => t.text.startsWith('length '));
      const click = async (x, y) => {
        await page.mouse.move(box.x + x, box.y + y);
        await page.mouse.down();
        await page.mouse.up();
      };
      const drag = async (from, to) => {
        await page.mouse.move(box.x + from[0], box.y + from[1]);
        await page.mouse.down();
        await page.mouse.move(box.x + to[0], box.y + to[1], { steps: 8 });
        await page.mouse.up();
      };
      await click(rightFar.x, rightFar.y);
      await until(page, (d) => {
        const c = document.getElementById('fig').state().construction;
        return c && Math.hypot(c.destination[0] - d[0], c.destination[1] - d[1]) > 1;
      }, first.destination);
      await settle(page);
      const moved = (await state()).construction;
      // The destination is about the right circle's far point, (0, -120): both sides reachable now.
      assert.ok(Math.hypot(moved.destination[0], moved.destination[1] + 120) < 12, JSON.stringify(moved.destination));
      assert.ok(moved.sides.every((s) => s.reachable), JSON.stringify(moved));
      const qBefore = first.sides[1].Q, qAfter = moved.sides[1].Q;
      assert.ok(Math.hypot(qAfter[0] - qBefore[0], qAfter[1] - qBefore[1]) > 10, `Q did not move: ${qBefore} -> ${qAfter}`);
      const afterMove = await picture(page, '#fig');
      const movedLabels = await texts(page, 'fig');
      const qLabel = movedLabels.filter((t) => t.text === 'Q');
      assert.equal(qLabel.length, 2);
      expectCliAgrees(ctx, moved, movedLabels);
      assert.ok(countDifferentPixels(on, afterMove) > 500, 'the picture did not follow the new destination');

      // Into the left circle: a click at its centre P (h = 0 < r) makes the left side unreachable again.
      // Labels come side by side, left first: the first P is the left circle's centre.
      const leftP = (await texts(page, 'fig')).find((t) => t.text === 'P');
      await click(leftP.x, leftP.y);
      await until(page, (p) => {
        const c = document.getElementById('fig').state().construction;
        return c && Math.hypot(c.destination[0] - p[0], c.destination[1] - p[1]) < 8;
      }, moved.sides[0].P);
      await settle(page);
      const unreachable = (await state()).construction;
      assert.equal(unreachable.sides[0].reachable, false, JSON.stringify(unreachable));
      assert.equal(unreachable.sides[1].chosen, true);
      const unreachableLabels = await texts(page, 'fig');
      assert.ok(unreachableLabels.some((t) => t.text === 'unreachable (h < r)'));
      expectCliAgrees(ctx, unreachable, unreachableLabels);
      await page.screenshot({ path: ctx.screenshotPath('construction-unreachable') });

      // A share link of the figure keeps the view on: another figure opened from it shows it.
      const link = await page.evaluate(() => document.getElementById('fig').call({ cmd: 'shareLink' }));
      assert.ok(link.ok, JSON.stringify(link));
      await page.evaluate((payload) => document.getElementById('linked').setAttribute('scene', payload), link.payload);
      await until(page, () => { const s = document.getElementById('linked').state(); return s.display && s.display.construction === true && s.construction !== null; });
      const linked = await page.evaluate(() => document.getElementById('linked').state().construction);
      assert.equal(linked.sides[0].reachable, false);
      await settle(page);
      assert.ok((await texts(page, 'linked')).some((t) => t.text === 'unreachable (h < r)'));

      // A drag on the ground gives the destination a final heading: the Dubins words that exist, one shortest, labelled.
      await drag([rightFar.x, rightFar.y], [rightFar.x + 80, rightFar.y]);
      await until(page, () => { const c = document.getElementById('fig').state().construction; return c && c.final_heading !== null; });
      await settle(page);
      const withHeading = (await state()).construction;
      const words = withHeading.dubins;
      assert.ok(words.length >= 1 && words.filter((w) => w.shortest).length === 1, JSON.stringify(words));
      const shortest = words.find((w) => w.shortest);
      const drawnTexts = (await texts(page, 'fig')).map((t) => t.text);
      assert.ok(drawnTexts.some((t) => t.startsWith(`${shortest.type} length`)),
        `no ${shortest.type} label drawn: ${drawnTexts.join(' | ')}; labels ${JSON.stringify(withHeading.labels.filter((l) => l.side < 0))}`);
      await page.screenshot({ path: ctx.screenshotPath('construction-dubins') });
      const withHeadingPicture = await picture(page, '#fig');

      // The handles, dragged with the mouse: the origin's moves the origin (its heading kept, both
      // circles with it), the heading handle turns it about the origin; the figure follows each.
      const pixelOf = async (p) => {
        const r = await page.evaluate((q) => document.getElementById('fig').call({ cmd: 'screenAt', point: [q[0], q[1], 0] }), p);
        assert.ok(r.ok, JSON.stringify(r));
        return r.pixel;
      };
      const originPixel = await pixelOf(withHeading.handles.origin);
      await drag(originPixel, [originPixel[0] + 70, originPixel[1] + 30]);
      await until(page, (o) => {
        const c = document.getElementById('fig').state().construction;
        return c && Math.hypot(c.origin[0] - o[0], c.origin[1] - o[1]) > 20;
      }, withHeading.origin);
      await settle(page);
      const dragged = (await state()).construction;
      const shift = [dragged.origin[0] - withHeading.origin[0], dragged.origin[1] - withHeading.origin[1]];
      assert.ok(Math.abs(dragged.origin[2] - withHeading.origin[2]) < 1e-9, `the heading changed: ${withHeading.origin} -> ${dragged.origin}`);
      // The handle lands where the mouse let go (within a few pixels), and the circles moved with it.
      const landed = await pixelOf(dragged.handles.origin);
      assert.ok(Math.hypot(landed[0] - originPixel[0] - 70, landed[1] - originPixel[1] - 30) < 4, `origin handle at ${landed}, mouse let go at ${originPixel[0] + 70},${originPixel[1] + 30}`);
      for (let i = 0; i < 2; ++i) {
        const was = withHeading.sides[i].P, now = dragged.sides[i].P;
        assert.ok(Math.hypot(now[0] - was[0] - shift[0], now[1] - was[1] - shift[1]) < 1e-6, `P ${i} did not move with the origin: ${was} -> ${now}`);
      }
      const draggedLabels = await texts(page, 'fig');
      expectCliAgrees(ctx, dragged, draggedLabels);
      const afterOrigin = await picture(page, '#fig');
      assert.ok(countDifferentPixels(withHeadingPicture, afterOrigin) > 500, 'the picture did not follow the origin');

      // The heading handle, a quarter turn about the origin on screen (the view looks straight down).
      const pivot = await pixelOf(dragged.handles.origin);
      const tip = await pixelOf(dragged.handles.heading);
      const arm = [tip[0] - pivot[0], tip[1] - pivot[1]];
      await drag(tip, [pivot[0] - arm[1], pivot[1] + arm[0]]);
      await until(page, (h) => {
        const c = document.getElementById('fig').state().construction;
        return c && Math.abs(c.origin[2] - h) > 0.5;
      }, dragged.origin[2]);
      await settle(page);
      const turned = (await state()).construction;
      const turn = Math.atan2(Math.sin(turned.origin[2] - dragged.origin[2]), Math.cos(turned.origin[2] - dragged.origin[2]));
      assert.ok(Math.abs(Math.abs(turn) - Math.PI / 2) < 0.1, `turned by ${turn} rad, not a quarter turn`);
      assert.ok(Math.hypot(turned.origin[0] - dragged.origin[0], turned.origin[1] - dragged.origin[1]) < 1e-6, 'the origin moved while turning');
      for (let i = 0; i < 2; ++i) {
        const r = Math.hypot(turned.sides[i].P[0] - turned.origin[0], turned.sides[i].P[1] - turned.origin[1]);
        assert.ok(Math.abs(r - 60) < 1e-6, `P ${i} is ${r} from the origin`);
      }
      expectCliAgrees(ctx, turned, await texts(page, 'fig'));
      assert.ok(countDifferentPixels(afterOrigin, await picture(page, '#fig')) > 500, 'the picture did not follow the heading');
      await page.screenshot({ path: ctx.screenshotPath('construction-handles') });
    }),
  },
  {
    name: 'construction view: the embed option construction=1 shows it in embed.html',
    timeoutMs: 60000,
    run: guarded(async (ctx) => {
      if (!fs.existsSync(path.join(ctx.site, 'md5stage.wasm'))) return { skipped: 'the viewer module is not staged' };
      const page = await trackedPage(ctx, { width: 640, height: 360 });
      await openViewer(page, ctx.baseUrl, 'embed.html#demo=arcline&paused&construction=1');
      await page.waitForFunction(() => window.md5stage.state().construction !== null, null, { timeout: 30000 });
      await waitFrames(page, 2);
      const state = await page.evaluate(() => window.md5stage.state());
      assert.equal(state.display.construction, true);
      assert.equal(state.construction.sides[0].reachable, false, JSON.stringify(state.construction));
      assert.equal(state.construction.sides[1].chosen, true);
      await page.screenshot({ path: ctx.screenshotPath('construction-embed') });
    }),
  },
];
