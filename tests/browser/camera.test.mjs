// Cinematic cameras in the page: the camera demo plays assets/cameras/walker_orbit.md5camera;
// the picture changes as the scene clock moves it, the cut at 6 s jumps (far more changes in a
// 0.05 s step across it than in one within a shot), a share link carries the camera, and Escape
// or an orbit drag returns to the orbit view.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer } from './lib/harness.mjs';
import { call, changedPixels, frames, grab, newInputPage, state, waitUntil } from './lib/input.mjs';

export const tests = [
  {
    name: 'the camera demo plays its .md5camera, cuts jump, Escape and an orbit drag leave it',
    async run(ctx) {
      if (!fs.existsSync(path.join(ctx.site, 'assets/cameras/walker_orbit.md5camera'))) {
        return { skipped: 'assets/cameras missing: skipped' };
      }
      const page = await newInputPage(ctx.browser);
      await openViewer(page, ctx.baseUrl, '#demo=camera');
      await page.evaluate(() => window.md5stage.ready);
      const opened = await state(page);
      assert.equal(opened.cinematic.playing, 'walker_orbit', JSON.stringify(opened.cinematic));
      assert.deepEqual(opened.cinematic.cameras[0].cuts, [144]);
      await call(page, { cmd: 'ui', panels: false });
      assert.ok((await call(page, { cmd: 'pauseScene' })).ok);
      // Without the grid only the walker changes the picture (the grid shifts with any motion).
      assert.ok((await call(page, { cmd: 'display', grid: false })).ok);
      const at = async (t, shot) => {
        assert.ok((await call(page, { cmd: 'setSceneTime', time: t })).ok);
        await frames(page, 2);
        return grab(page, shot ? ctx.screenshotPath(shot) : undefined);
      };
      // The view follows the camera: two moments of the first shot differ.
      const a = await at(1.0, 'camera-1s');
      const b = await at(3.0, 'camera-3s');
      const moved = changedPixels(a, b).length;
      assert.ok(moved > 2000, `${moved} pixels changed between 1 s and 3 s`);
      // 0.05 s within a shot against 0.05 s across the cut (frame 144 at 6 s).
      const within0 = await at(5.9);
      const within1 = await at(5.95);
      const before = await at(5.97, 'camera-before-cut');
      const after = await at(6.02, 'camera-after-cut');
      const step = changedPixels(within0, within1).length;
      const jump = changedPixels(before, after).length;
      assert.ok(jump > 4 * Math.max(step, 500), `cut: ${jump} pixels changed, a step in a shot ${step}`);
      // A share link carries the playing camera.
      const link = await call(page, { cmd: 'shareLink' });
      const decoded = await call(page, { cmd: 'decodeLink', payload: link.payload });
      assert.equal(decoded.scene?.camera?.cinematic, 'cameras/walker_orbit.md5camera', JSON.stringify(decoded).slice(0, 300));
      // Escape: back to the orbit camera the scene set, the same picture as leaving by command.
      await page.mouse.move(640, 360);
      await page.keyboard.press('Escape');
      assert.ok(await waitUntil(page, () => window.md5stage.state().cinematic.playing === ''));
      await frames(page, 2);
      const orbit = await grab(page, ctx.screenshotPath('camera-left'));
      assert.ok(changedPixels(after, orbit).length > 2000, 'the orbit view differs from the shot');
      assert.ok((await call(page, { cmd: 'playCamera', camera: 'walker_orbit' })).ok);
      await frames(page, 2);
      assert.ok(changedPixels(orbit, await grab(page)).length > 2000, 'playing again shows the shot');
      assert.ok((await call(page, { cmd: 'playCamera', camera: '' })).ok);
      await frames(page, 2);
      const again = changedPixels(orbit, await grab(page)).length;
      assert.ok(again < 200, `${again} pixels differ between two returns to the orbit view`);
      // An orbit drag (left button on the canvas) leaves it too.
      assert.ok((await call(page, { cmd: 'playCamera', camera: 'walker_orbit' })).ok);
      await page.mouse.move(700, 400);
      await page.mouse.down();
      await page.mouse.move(760, 400, { steps: 4 });
      await page.mouse.up();
      assert.equal((await state(page)).cinematic.playing, '');
      assert.deepEqual(page.consoleErrors, []);
      await page.close();
    },
  },
];
