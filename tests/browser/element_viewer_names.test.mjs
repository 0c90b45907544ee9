// model-viewer's names on <md5-stage> (issue 46), with model-viewer's meaning, acted on as a
// reader does: auto-rotate turns a paused figure's camera (its pixels change, a figure without it
// stands still), time-scale runs the scene clock that many times as fast (measured by state()
// against a figure beside it), shadow-intensity darkens the ground under each walker and only
// there, animation-crossfade-duration sets every character's crossfade, play / pause / camera-change fire with their detail when Space,
// a drag and an attribute act, and interaction-prompt's hint shows until the first drag.
import assert from 'node:assert/strict';
import { countDifferentPixels } from './lib/png.mjs';
import { guarded, trackedPage } from './share.test.mjs';
import { recordErrors, staged, until, upperPicture } from './element.test.mjs';

export const tests = [
  {
    name: 'viewer names: auto-rotate turns the picture, time-scale the clock rate, play/pause/camera-change fire on Space and drags, the prompt hides after a drag',
    timeoutMs: 180000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 1000, height: 700 });
      await recordErrors(page);
      await page.addInitScript(() => {
        window.figureEvents = [];
        for (const type of ['play', 'pause', 'camera-change']) {
          document.addEventListener(type, (event) => {
            if (event.target && event.target.localName === 'md5-stage') {
              window.figureEvents.push({ id: event.target.id, type, detail: event.detail });
            }
          }, true);
        }
      });
      const figure = (id, attributes) => `<md5-stage id="${id}" scene="turns" loading="eager"
        style="width:300px;height:200px" ${attributes}></md5-stage>`;
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        ${figure('still', 'paused t="2" camera="30,35,420"')}
        ${figure('turning', 'paused t="2" camera="30,35,420" auto-rotate rotation-per-second="90deg"')}
        ${figure('shadowed', 'paused t="2" camera="30,35,420" shadow-intensity="1" animation-crossfade-duration="500"')}
        ${figure('normal', 'autoplay')}${figure('fast', 'autoplay time-scale="2"')}
        ${figure('reader', 'autoplay camera-controls camera="30,35,420"')}
        ${figure('quiet', 'autoplay camera-controls interaction-prompt="none"')}
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}viewer-names.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}viewer-names.html`);
      await until(page, () => [...document.querySelectorAll('md5-stage')].every((e) => e.loaded && e.frames > 1));
      assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
      const stillBefore = await upperPicture(page, '#still');

      // shadow-intensity: the same view as `still` with a dark disc under each walker: the pixels
      // change round the walkers' ground points and nowhere else.
      const shadowed = await upperPicture(page, '#shadowed');
      const grounds = await page.evaluate(() => {
        const element = document.getElementById('shadowed');
        return element.state().instances.map((c) => element.positionOf({ position: [c.position[0], c.position[1], 0] }));
      });
      assert.equal(grounds.length, 3, JSON.stringify(grounds));
      const near = 22;  // CSS px round a ground point (the disc is a quarter of a walker's height)
      let inside = 0;
      for (const at of grounds) {
        assert.ok(at, 'a walker stands in view');
        inside += countDifferentPixels(stillBefore, shadowed, 8, [Math.round(at.x - near), Math.round(at.y - near), Math.round(at.x + near), Math.round(at.y + near)]);
      }
      const all = countDifferentPixels(stillBefore, shadowed, 8);
      assert.ok(inside > 3 * 40, `the shadows changed ${inside} pixels round the walkers' feet`);
      assert.ok(all - inside < 0.1 * all, `${all - inside} of ${all} changed pixels lie away from the walkers' feet`);
      await page.screenshot({ path: ctx.screenshotPath('element-viewer-names') });
      const shadowState = await page.evaluate(() => document.getElementById('shadowed').state());
      assert.equal(shadowState.shading.contactShadow, 1);
      // animation-crossfade-duration: every character's clip changes blend over 0.5 s.
      assert.deepEqual(shadowState.instances.map((c) => c.crossfade), [0.5, 0.5, 0.5]);
      await page.evaluate(() => document.getElementById('shadowed').setAttribute('shadow-intensity', '0'));
      await until(page, () => document.getElementById('shadowed').state().shading.contactShadow === 0);

      // auto-rotate: a paused figure keeps drawing, its camera turns and so does its picture;
      // the same figure without it draws the same picture.
      const yaw = () => page.evaluate(() => document.getElementById('turning').state().camera.yaw);
      const turningBefore = await upperPicture(page, '#turning');
      const yawBefore = await yaw();
      const frames = await page.evaluate(() => document.getElementById('turning').frames);
      await until(page, (count) => document.getElementById('turning').frames > count + 20, frames);
      const turned = ((await yaw()) - yawBefore + 360) % 360;
      assert.ok(turned > 5, `auto-rotate turned the camera ${turned} degrees`);
      const turningChanged = countDifferentPixels(turningBefore, await upperPicture(page, '#turning'));
      assert.ok(turningChanged > 500, `auto-rotate changed ${turningChanged} pixels`);
      const stillChanged = countDifferentPixels(stillBefore, await upperPicture(page, '#still'));
      assert.ok(stillChanged < 20, `the figure without auto-rotate changed ${stillChanged} pixels`);
      const automatic = await page.evaluate(() => window.figureEvents.filter((e) => e.id === 'turning' && e.type === 'camera-change'));
      assert.ok(automatic.length > 0 && automatic.every((e) => ['automatic', 'none'].includes(e.detail.source)), JSON.stringify(automatic.slice(0, 3)));
      assert.ok(automatic.some((e) => e.detail.source === 'automatic'), 'auto-rotate: camera-change {source: "automatic"}');
      // Removed, it stops (model-viewer's default is off).
      await page.evaluate(() => document.getElementById('turning').removeAttribute('auto-rotate'));
      const clock = await page.evaluate(() => document.getElementById('turning').call({ cmd: 'clock' }));
      assert.equal(clock.auto_rotate, false, JSON.stringify(clock));

      // time-scale: over the same wall time the fast figure's clock runs twice as far.
      const times = () => page.evaluate(() => ['normal', 'fast'].map((id) => document.getElementById(id).currentTime));
      const [normal0, fast0] = await times();
      await page.waitForTimeout(1500);
      const [normal1, fast1] = await times();
      const ratio = (fast1 - fast0) / (normal1 - normal0);
      assert.ok(normal1 - normal0 > 0.2, `the normal clock ran ${normal1 - normal0} s`);
      assert.ok(ratio > 1.7 && ratio < 2.3, `time-scale="2" ran the clock ${ratio.toFixed(2)}x as fast`);
      assert.equal((await page.evaluate(() => document.getElementById('fast').call({ cmd: 'clock' }))).time_scale, 2);
      await page.evaluate(() => document.getElementById('fast').setAttribute('time-scale', '0.5'));
      assert.equal((await page.evaluate(() => document.getElementById('fast').call({ cmd: 'clock' }))).time_scale, 0.5);

      // The prompt shows on a figure with camera-controls until the reader acts; never with none.
      const prompt = (id) => page.evaluate((target) => !document.getElementById(target).shadowRoot.querySelector('.prompt').hidden, id);
      assert.equal(await prompt('reader'), true, 'interaction-prompt="auto": the hint shows');
      assert.equal(await prompt('quiet'), false, 'interaction-prompt="none": no hint');
      assert.equal(await prompt('still'), false, 'no camera-controls: no hint');

      // Space on the focused figure pauses, then plays: pause, then play.
      await page.evaluate(() => { window.figureEvents = []; });
      await page.locator('#reader').scrollIntoViewIfNeeded();
      await page.locator('#reader').focus();
      await page.keyboard.press(' ');
      await until(page, () => window.figureEvents.some((e) => e.id === 'reader' && e.type === 'pause'));
      await page.keyboard.press(' ');
      await until(page, () => window.figureEvents.some((e) => e.id === 'reader' && e.type === 'play'));
      const played = await page.evaluate(() => window.figureEvents.filter((e) => e.type !== 'camera-change'));
      assert.deepEqual(played.map((e) => `${e.id}:${e.type}`), ['reader:pause', 'reader:play']);
      assert.equal(played[0].detail, null);

      // A drag turns the camera: camera-change {source: "user-interaction"}; the hint is gone.
      const box = await page.locator('#reader').boundingBox();
      await page.mouse.move(box.x + 150, box.y + 90);
      await page.mouse.down();
      for (let i = 1; i <= 5; ++i) await page.mouse.move(box.x + 150 + 12 * i, box.y + 90);
      await page.mouse.up();
      await until(page, () => window.figureEvents.some((e) => e.id === 'reader' && e.type === 'camera-change'));
      const byReader = await page.evaluate(() => window.figureEvents.filter((e) => e.id === 'reader' && e.type === 'camera-change'));
      assert.ok(byReader.every((e) => e.detail.source === 'user-interaction'), JSON.stringify(byReader));
      assert.equal(await prompt('reader'), false, 'the hint hides once the reader acted');
      // The drag's last moves are reported by the frames after it: those are waited for first.
      const settled = await page.evaluate(() => document.getElementById('reader').frames);
      await until(page, (count) => document.getElementById('reader').frames > count + 5, settled);
      // An attribute moves it: source "none".
      await page.evaluate(() => { window.figureEvents = []; document.getElementById('reader').setAttribute('camera', '120,20,300'); });
      await until(page, () => window.figureEvents.some((e) => e.id === 'reader' && e.type === 'camera-change'));
      const byPage = await page.evaluate(() => window.figureEvents.filter((e) => e.id === 'reader' && e.type === 'camera-change'));
      assert.deepEqual(byPage.map((e) => e.detail.source), ['none']);
      assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
      await page.close();
    }),
  },
];
