// data-surface on a hotspot (issue 46, model-viewer's meaning): a point of the walker's skinned
// surface, "PART TRIANGLE B0 B1 B2", follows the walk as the skin moves: within 2 CSS px of
// positionOf({surface}) over 2 s, moving, on the model's pixels; a bad value is an error event
// naming data-surface and the figure draws on.
import assert from 'node:assert/strict';
import { guarded, trackedPage } from './share.test.mjs';
import { recordErrors, scrollToFigure, staged, until } from './element.test.mjs';

const WALKER = 'assets/models/walker';
const SURFACE = '0 40 0.2 0.3 0.5';

export const tests = [
  {
    name: 'hotspots: data-surface follows the walker\'s skinned surface within 2 CSS px of positionOf, on the model; a bad one names data-surface',
    timeoutMs: 120000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 900, height: 600 });
      await recordErrors(page);
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <md5-stage id="walker" src="${WALKER}/walker.md5mesh" anims="${WALKER}/walk.md5anim"
                   materials="${WALKER}/walker.mtr" animation="walk" camera="0,0,220,0,0,35" autoplay loading="eager"
                   style="width:640px;height:400px">
          <span slot="hotspot-skin" data-surface="${SURFACE}" style="width:8px;height:8px;background:#f0f"></span>
          <span slot="hotspot-bad" data-surface="0 99999 1 0 0" style="width:8px;height:8px"></span>
        </md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}surface.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}surface.html`);
      await scrollToFigure(page, 'walker');
      await until(page, () => document.querySelector('[slot="hotspot-skin"]').dataset.visible !== undefined);
      const sample = () => page.evaluate((surface) => {
        const figure = document.getElementById('walker');
        const host = figure.getBoundingClientRect();
        const box = document.querySelector('[slot="hotspot-skin"]').getBoundingClientRect();
        const at = figure.positionOf({ surface });
        const canvas = figure.shadowRoot.querySelector('canvas');
        const context = canvas.getContext('2d');
        const background = context.getImageData(2, 2, 1, 1).data;
        let onModel = false;
        if (at) {
          const pixels = context.getImageData(Math.round(at.x) - 3, Math.round(at.y) - 3, 7, 7).data;
          for (let i = 0; i < pixels.length; i += 4) {
            if (Math.abs(pixels[i] - background[0]) + Math.abs(pixels[i + 1] - background[1]) + Math.abs(pixels[i + 2] - background[2]) > 60) onModel = true;
          }
        }
        return { centre: [box.left + box.width / 2 - host.left, box.top + box.height / 2 - host.top], at, onModel };
      }, SURFACE);
      const samples = [];
      const started = Date.now();
      while (samples.length < 12 || Date.now() - started < 2000) {
        samples.push(await sample());
        await page.waitForTimeout(120);
      }
      for (const s of samples) {
        assert.ok(s.at, JSON.stringify(s));
        const off = Math.hypot(s.centre[0] - s.at.x, s.centre[1] - s.at.y);
        assert.ok(off <= 2, `the surface hotspot is ${off.toFixed(2)} px from positionOf: ${JSON.stringify(s)}`);
      }
      const xs = samples.map((s) => s.at.x), ys = samples.map((s) => s.at.y);
      const moved = Math.max(...xs) - Math.min(...xs) + Math.max(...ys) - Math.min(...ys);
      assert.ok(moved > 3, `the surface point did not move over 2 s of walking (${moved.toFixed(1)} px)`);
      const onModel = samples.filter((s) => s.onModel).length;
      assert.ok(onModel >= samples.length * 0.9, `the surface point lay on the model in ${onModel} of ${samples.length} samples`);
      // A different triangle is elsewhere: the point is the triangle's, not the character's.
      const other = await page.evaluate(() => document.getElementById('walker').positionOf({ surface: '0 0 1 0 0' }));
      const last = await sample();
      assert.ok(other && Math.hypot(other.x - last.at.x, other.y - last.at.y) > 2, JSON.stringify([other, last.at]));
      await page.screenshot({ path: ctx.screenshotPath('element-surface') });
      const errors = await page.evaluate(() => window.figureErrors);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0].attribute, 'data-surface');
      assert.match(errors[0].message, /surface: expected \[part, triangle, b0, b1, b2\]/);
      await page.close();
    }),
  },
];
