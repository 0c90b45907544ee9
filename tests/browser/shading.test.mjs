// Normal and specular shading as a person sees it: the walker with its generated normal and
// specular maps must look lit, not black; clicking "normal maps" in the Display panel, turning the
// key light with Shift + drag and with the elevation slider each change the pixels inside the
// walker's screen box; the channel view shows the normals. One page load.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadFromServer } from './lib/harness.mjs';
import {
  BACKGROUND, call, changedPixels, countWhere, emptyViewer, frames, grab, grow, inside, near, rectArea, state,
} from './lib/input.mjs';

const MAPS = ['walker.md5mesh', 'walker.png', 'walker_local.png', 'walker_s.png', 'idle.md5anim'];

// Presses and releases the left button at (x, y) with frames between, as ImGui 1.86 (no input
// queue) needs to see the hover, the press and the release.
async function click(page, x, y) {
  await page.mouse.move(x, y);
  await frames(page, 2);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  await frames(page, 2);
}

const centre = (r) => [(r[0] + r[2]) / 2, (r[1] + r[3]) / 2];

export const tests = [
  {
    name: 'the walker is normal-mapped and lit; the normal-map toggle and the light change its pixels',
    async run(ctx) {
      const dir = path.join(ctx.site, 'assets/models/walker');
      if (!MAPS.every((f) => fs.existsSync(path.join(dir, f)))) {
        return { skipped: 'the walker or its maps are missing in the site: skipped' };
      }
      const page = await emptyViewer(ctx);
      const reply = await loadFromServer(page, MAPS.map((f) => `/assets/models/walker/${f}`));
      assert.deepEqual(reply.errors, []);
      await page.evaluate(() => { window.md5stage.pause(0); window.md5stage.setTime(0, 0); });
      // A close view from the front-left, the light from the front (the defaults light it from
      // +X +Y, above).
      assert.ok((await call(page, { cmd: 'camera', target: [0, 0, 45], yaw: 20, pitch: 10, distance: 95 })).ok);
      await frames(page, 3);
      const box = (await call(page, { cmd: 'screenBounds', instance: 0 })).rect;
      const area = rectArea(box);
      // The view alone is compared: the panels (whose sliders show the values) are hidden for
      // each screenshot and shown again to be clicked; the scene clock is paused.
      assert.ok((await call(page, { cmd: 'pauseScene' })).ok);
      const shot = async (label) => {
        await call(page, { cmd: 'ui', panels: false });
        await frames(page, 3);
        const image = await grab(page, ctx.screenshotPath(`shading-${label}`));
        await call(page, { cmd: 'ui', panels: true });
        await frames(page, 2);
        return image;
      };
      const changedInBox = (a, b) => changedPixels(a, b, 12).filter(([x, y]) => inside(grow(box, 2), x, y)).length;

      const lit = await shot('lit');
      // Lit, not black: the walker's pixels (not the clear colour) are mostly brighter than dark.
      const body = countWhere(lit, (p) => !near(p, BACKGROUND, 12), box);
      const dark = countWhere(lit, (p) => !near(p, BACKGROUND, 12) && p[0] + p[1] + p[2] < 60, box);
      assert.ok(body > 0.2 * area, `only ${body} of ${area} pixels in the walker's box show it`);
      assert.ok(dark < 0.1 * body, `${dark} of ${body} walker pixels are nearly black`);

      // The normal-map checkbox, clicked where the panel drew it.
      let s = await state(page);
      assert.equal(s.shading.normalMaps, true);
      const toggle = s.ui_items['normal maps'];
      assert.ok(toggle, `the Display panel reported no "normal maps" checkbox: ${JSON.stringify(s.ui_items)}`);
      await click(page, toggle[0] + 8, (toggle[1] + toggle[3]) / 2);
      s = await state(page);
      assert.equal(s.shading.normalMaps, false, 'clicking "normal maps" did not turn them off');
      const flat = await shot('flat');
      const byToggle = changedInBox(lit, flat);
      assert.ok(byToggle > 0.03 * body, `the normal-map toggle changed ${byToggle} of ${body} walker pixels`);
      await click(page, toggle[0] + 8, (toggle[1] + toggle[3]) / 2);
      assert.equal((await state(page)).shading.normalMaps, true);

      // Shift + drag in the view turns the light (and not the camera).
      const before = await state(page);
      const [cx, cy] = centre(box);
      await page.mouse.move(cx, cy);
      await page.keyboard.down('Shift');
      await frames(page, 1);
      await page.mouse.down();
      await page.mouse.move(cx + 160, cy + 30, { steps: 8 });
      await frames(page, 1);
      await page.mouse.up();
      await page.keyboard.up('Shift');
      const after = await state(page);
      assert.ok(Math.abs(after.light.azimuth - before.light.azimuth) > 40,
        `Shift + drag turned the light from ${before.light.azimuth} to ${after.light.azimuth}`);
      assert.deepEqual(after.camera, before.camera, 'Shift + drag moved the camera');
      const turned = await shot('turned');
      const byDrag = changedInBox(lit, turned);
      assert.ok(byDrag > 0.05 * body, `turning the light changed ${byDrag} of ${body} walker pixels`);

      // The elevation slider: a click near its left end lowers the light towards the horizon.
      const slider = after.ui_items['light elevation'];
      assert.ok(slider, 'the Display panel reported no "light elevation" slider');
      await click(page, slider[0] + 0.3 * (slider[2] - slider[0]), centre(slider)[1]);
      const low = await state(page);
      assert.ok(Math.abs(low.light.elevation - after.light.elevation) > 10,
        `the slider moved the elevation from ${after.light.elevation} to ${low.light.elevation}`);
      const lowered = await shot('low');
      assert.ok(changedInBox(turned, lowered) > 0.03 * body, 'the elevation slider changed no pixels');

      // The channel view: normals shown as colours (mostly not the diffuse colours).
      assert.ok((await call(page, { cmd: 'setShading', channel: 'normals' })).ok);
      const normals = await shot('normals');
      assert.ok(changedInBox(lowered, normals) > 0.3 * body, 'the normals channel looks like the lit view');
      const tangents = await call(page, { cmd: 'gpuSkinCheck', instance: 0 });
      console.log(`  walker: GPU vs CPU tangents max ${tangents.max_tangent_error}, sign mismatches ${tangents.tangent_sign_mismatches}`);
      assert.ok(tangents.max_tangent_error < 1e-3 && tangents.tangent_sign_mismatches === 0, JSON.stringify(tangents));
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
];
