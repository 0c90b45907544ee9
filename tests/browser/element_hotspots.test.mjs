// Hotspots of <md5-stage> (issue 46), as a reader meets them: a label on the walker's hand_r
// follows the hand as it walks (within 2 CSS px of positionOf, on the model's pixels); points
// behind and in front of the model get data-visible false and true; Tab reaches the hotspots
// after their figure, and Enter or a click on one with data-camera turns the view there;
// hostile hotspot values are error events naming their attribute while the figure draws on.
import assert from 'node:assert/strict';
import { countDifferentPixels } from './lib/png.mjs';
import { guarded, trackedPage } from './share.test.mjs';
import { recordErrors, scrollToFigure, staged, until, upperPicture } from './element.test.mjs';

const WALKER = 'assets/models/walker';

// Each hotspot's centre on the page against positionOf's answer (page CSS pixels), its
// data-visible, and whether the figure's canvas has model pixels (not the clear colour's
// neighbours) within 3 px of the point.
function spots(page) {
  return page.evaluate(() => {
    const figure = document.getElementById('walker');
    const host = figure.getBoundingClientRect();
    const canvas = figure.shadowRoot.querySelector('canvas');
    const context = canvas.getContext('2d');
    const ratio = canvas.width / canvas.clientWidth;
    const background = context.getImageData(2, 2, 1, 1).data;
    const out = {};
    for (const child of figure.querySelectorAll('[slot^="hotspot-"]')) {
      const box = child.getBoundingClientRect();
      const target = child.dataset.joint ? { joint: child.dataset.joint }
        : child.dataset.position ? { position: child.dataset.position.split(' ').map(Number) } : null;
      const at = target && figure.positionOf(target);
      let onModel = false;
      if (at) {
        const pixels = context.getImageData(Math.round(at.x * ratio) - 3, Math.round(at.y * ratio) - 3, 7, 7).data;
        for (let i = 0; i < pixels.length; i += 4) {
          const distance = Math.abs(pixels[i] - background[0]) + Math.abs(pixels[i + 1] - background[1]) + Math.abs(pixels[i + 2] - background[2]);
          if (distance > 60) onModel = true;
        }
      }
      out[child.slot] = {
        centre: [box.left + box.width / 2 - host.left, box.top + box.height / 2 - host.top],
        at, visible: child.dataset.visible, display: box.width > 0, onModel,
      };
    }
    return out;
  });
}

export const tests = [
  {
    name: 'hotspots: hand_r follows the walk within 2 CSS px of positionOf on the model; behind/in front set data-visible; Tab + Enter and a click move the camera; hostile values are error events',
    timeoutMs: 180000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 900, height: 700 });
      await recordErrors(page);
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <md5-stage id="walker" src="${WALKER}/walker.md5mesh" anims="${WALKER}/idle.md5anim ${WALKER}/walk.md5anim"
                   materials="${WALKER}/walker.mtr" animation="walk" camera="0,0,220,0,0,35" autoplay loading="eager"
                   style="width:640px;height:400px">
          <button slot="hotspot-hand" data-joint="hand_r" style="width:10px;height:10px;padding:0">hand</button>
          <span slot="hotspot-behind" data-position="-40 0 35" style="width:6px;height:6px"></span>
          <span slot="hotspot-front" data-position="40 0 35" style="width:6px;height:6px"></span>
          <button slot="hotspot-side" data-position="0 0 80" data-camera="90,25,180">side</button>
        </md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}hotspots.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}hotspots.html`);
      await scrollToFigure(page, 'walker');
      await until(page, () => document.querySelector('[slot="hotspot-hand"]').dataset.visible !== undefined);

      // Over 2 s of walking: the hand's label stays on positionOf's point and on the model.
      const samples = [];
      const started = Date.now();
      while (samples.length < 12 || Date.now() - started < 2000) {
        samples.push((await spots(page))['hotspot-hand']);
        await page.waitForTimeout(120);
      }
      for (const sample of samples) {
        assert.ok(sample.at, JSON.stringify(sample));
        const off = Math.hypot(sample.centre[0] - sample.at.x, sample.centre[1] - sample.at.y);
        assert.ok(off <= 2, `the hand's hotspot is ${off.toFixed(2)} px from positionOf: ${JSON.stringify(sample)}`);
      }
      const moved = Math.max(...samples.map((s) => s.at.y)) - Math.min(...samples.map((s) => s.at.y)) +
                    Math.max(...samples.map((s) => s.at.x)) - Math.min(...samples.map((s) => s.at.x));
      assert.ok(moved > 5, `the hand did not move over 2 s of walking (${moved.toFixed(1)} px)`);
      const onModel = samples.filter((s) => s.onModel).length;
      assert.ok(onModel >= samples.length * 0.9, `the hand's point lay on the model's pixels in ${onModel} of ${samples.length} samples`);

      // Behind the walker (the eye is on +x) and in front of it, the walker standing at the origin.
      const frames = await page.evaluate(() => {
        const figure = document.getElementById('walker');
        figure.call({ cmd: 'setAnimation', instance: 0, name: 'idle' });
        figure.call({ cmd: 'setPlacement', instance: 0, position: [0, 0, 0] });
        return figure.frames;
      });
      await until(page, (count) => document.getElementById('walker').frames > count + 3, frames);
      let now = await spots(page);
      assert.equal(now['hotspot-behind'].visible, 'false', JSON.stringify(now['hotspot-behind']));
      assert.equal(now['hotspot-front'].visible, 'true', JSON.stringify(now['hotspot-front']));
      assert.ok(now['hotspot-behind'].display && now['hotspot-front'].display);
      // Off the figure: null, and the hotspot hidden.
      assert.equal(await page.$eval('#walker', (figure) => figure.positionOf({ position: [0, 4000, 35] })), null);

      // Tab from the figure reaches its hotspots, in order; Enter on the one with data-camera
      // turns the view there, smoothly (a frame in between is neither end).
      await page.evaluate(() => document.getElementById('walker').pause());
      await page.focus('#walker');
      const reached = [];
      for (let i = 0; i < 4; ++i) {
        await page.keyboard.press('Tab');
        reached.push(await page.evaluate(() => document.activeElement.slot || document.activeElement.id));
      }
      assert.deepEqual(reached, ['hotspot-hand', 'hotspot-behind', 'hotspot-front', 'hotspot-side']);
      const before = await upperPicture(page, '#walker');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(150);
      const midway = await page.evaluate(() => document.getElementById('walker').state().camera);
      assert.ok(midway.yaw > 1 && midway.yaw < 89, `the camera jumped: ${JSON.stringify(midway)}`);
      await until(page, () => Math.abs(document.getElementById('walker').state().camera.yaw - 90) < 1e-3);
      const camera = await page.evaluate(() => document.getElementById('walker').state().camera);
      assert.ok(Math.abs(camera.pitch - 25) < 1e-3 && Math.abs(camera.distance - 180) < 1e-3, JSON.stringify(camera));
      await page.waitForTimeout(200);
      assert.ok(countDifferentPixels(before, await upperPicture(page, '#walker'), 12) > 500, 'the view did not change');
      // From the side the point behind is no longer behind the walker.
      await until(page, () => document.querySelector('[slot="hotspot-behind"]').dataset.visible === 'true');
      // A click on it (already there) keeps the view; back to the front by script and a click.
      await page.evaluate(() => document.getElementById('walker').call({ cmd: 'camera', yaw: 0, pitch: 0, distance: 220 }));
      await page.waitForTimeout(100);
      await page.locator('[slot="hotspot-side"]').click();
      await until(page, () => Math.abs(document.getElementById('walker').state().camera.yaw - 90) < 1e-3);

      // Hostile values: each an error event naming its attribute; the figure draws on.
      await page.evaluate(() => { window.figureErrors.length = 0; });
      const hostile = [
        ['data-position', '1e400 0 0'], ['data-position', 'javascript:alert(1)'], ['data-position', '1 2'],
        ['data-joint', 'nosuch'], ['data-joint', 'x'.repeat(5 << 20)], ['data-camera', '0,100,50'],
        ['data-camera', 'NaN,0,10'], ['data-construction', 'Q'],
        ['data-surface', 'NaN 0 1 0 0'], ['data-surface', '0 0 1 0'], ['data-surface', '0 1e9 1 0 0'],
        ['data-surface', '0 0 -1 -1 -1'], ['data-surface', 'x'.repeat(5 << 20)],
      ];
      for (const [attribute, value] of hostile) {
        const frames = await page.evaluate(([name, text]) => {
          const figure = document.getElementById('walker');
          const spot = document.createElement('b');
          spot.slot = 'hotspot-hostile';
          if (name === 'data-camera') spot.setAttribute('data-position', '0 0 0');
          spot.setAttribute(name, text);
          spot.textContent = '<img src=x onerror="window.ran = true">';  // markup as text stays text
          figure.append(spot);
          figure.play();
          return figure.frames;
        }, [attribute, value]);
        await until(page, (count) => document.getElementById('walker').frames > count + 5, frames);
        const errors = await page.evaluate(() => window.figureErrors.splice(0));
        assert.ok(errors.some((error) => error.attribute === attribute), `${attribute}=${value.slice(0, 40)}: ${JSON.stringify(errors).slice(0, 400)}`);
        await page.evaluate(() => document.querySelector('[slot="hotspot-hostile"]').remove());
      }
      assert.deepEqual(await page.evaluate(() => [window.ran === true, document.querySelectorAll('img[src="x"]').length,
        document.getElementById('walker').shadowRoot.querySelectorAll('img[src="x"]').length]), [false, 0, 0]);
      await page.screenshot({ path: ctx.screenshotPath('element-hotspots') });
    }),
  },
  {
    name: 'hotspots: a data-construction="Q" hotspot sits on Q (positionOf) as the reader clicks new destinations with the goto tool',
    timeoutMs: 120000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 900, height: 700 });
      await recordErrors(page);
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <md5-stage id="arc" scene="arcline" construction tool="goto" paused loading="eager" style="width:640px;height:400px">
          <span slot="hotspot-q" data-construction="Q" style="width:8px;height:8px;background:#f0f"></span>
        </md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}construction.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}construction.html`);
      await scrollToFigure(page, 'arc');
      // Placed from the frame after the one that sent it (a paused figure's first pictures).
      await until(page, () => document.querySelector('[slot="hotspot-q"]').dataset.visible !== undefined);
      const where = () => page.evaluate(() => {
        const figure = document.getElementById('arc');
        const host = figure.getBoundingClientRect();
        const box = document.querySelector('[slot="hotspot-q"]').getBoundingClientRect();
        return { centre: [box.left + box.width / 2 - host.left, box.top + box.height / 2 - host.top],
                 at: figure.positionOf({ construction: 'Q' }), frames: figure.frames };
      });
      const box = await page.locator('#arc').boundingBox();
      const seen = [];
      for (const [fx, fy] of [[0, 0], [0.7, 0.35], [0.25, 0.3], [0.65, 0.75]]) {
        if (fx) {
          const before = (await where()).frames;
          await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
          await until(page, (count) => document.getElementById('arc').frames > count, before);
          await page.waitForTimeout(200);
        }
        const now = await where();
        assert.ok(now.at, `no Q after a click at ${fx}, ${fy}`);
        const off = Math.hypot(now.centre[0] - now.at.x, now.centre[1] - now.at.y);
        assert.ok(off <= 2, `the Q hotspot is ${off.toFixed(2)} px from positionOf: ${JSON.stringify(now)}`);
        seen.push(now.at);
      }
      for (let i = 1; i < seen.length; ++i) {
        assert.ok(Math.hypot(seen[i].x - seen[i - 1].x, seen[i].y - seen[i - 1].y) > 10, `Q did not move: ${JSON.stringify(seen)}`);
      }
      assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
      await page.screenshot({ path: ctx.screenshotPath('element-hotspots-construction') });
    }),
  },
];
