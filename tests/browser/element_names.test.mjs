// The names authors already know (issue 46): the snake_case display toggles' kebab-case
// spellings (joint-names, turn-circles, as HTML attributes and model-viewer's are) draw what the
// snake_case ones draw, and a bad value is an error event naming the spelling written.
import assert from 'node:assert/strict';
import { countDifferentPixels } from './lib/png.mjs';
import { guarded, trackedPage } from './share.test.mjs';
import { recordErrors, staged, until, upperPicture } from './element.test.mjs';

export const tests = [
  {
    name: 'names: turn-circles and joint-names draw as turn_circles and joint_names; a bad value names its spelling',
    timeoutMs: 120000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 1000, height: 700 });
      await recordErrors(page);
      // Paused at 2 s, the same view: only the toggles differ.
      const figure = (id, attributes) => `<md5-stage id="${id}" scene="turns" t="2" paused loading="eager"
        camera="30,35,420" style="width:320px;height:200px" ${attributes}></md5-stage>`;
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        ${figure('plain', '')}${figure('snake', 'turn_circles="0" joint_names')}${figure('kebab', 'turn-circles="0" joint-names')}
        ${figure('bad', 'joint-names="NaN"')}
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}names.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}names.html`);
      // Paused figures draw when something changes: once all have opened, each is drawn again
      // (a command marks it changed) and the pictures are taken after that frame.
      await until(page, () => [...document.querySelectorAll('md5-stage')].every((e) => e.loaded && e.frames > 0));
      const drawn = await page.evaluate(() => [...document.querySelectorAll('md5-stage')].map((e) => {
        e.call({ cmd: 'clock' });
        return e.frames;
      }));
      await until(page, (counts) => [...document.querySelectorAll('md5-stage')].every((e, i) => e.frames > counts[i]), drawn);
      const plain = await upperPicture(page, '#plain');
      const snake = await upperPicture(page, '#snake');
      const kebab = await upperPicture(page, '#kebab');
      const changed = countDifferentPixels(plain, kebab);
      assert.ok(changed > 200, `turn-circles="0" joint-names changed ${changed} pixels of the picture`);
      const apart = countDifferentPixels(snake, kebab);
      assert.ok(apart < 20, `the kebab spellings drew ${apart} pixels unlike the snake_case ones`);
      const state = await page.evaluate(() => document.getElementById('kebab').state().display);
      assert.equal(state.turn_circles, false, JSON.stringify(state));
      assert.equal(state.joint_names, true, JSON.stringify(state));
      const errors = await page.evaluate(() => window.figureErrors.filter((e) => e.id === 'bad'));
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0].attribute, 'joint-names', JSON.stringify(errors));
      assert.match(errors[0].message, /^embed: joint-names: expected nothing/);
      await page.close();
    }),
  },
];
