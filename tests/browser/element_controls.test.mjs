// <md5-stage ui="controls"> (issue 46), used as a reader does, with the mouse and the keyboard:
// every control has a label; the clip picker changes the clip, the speed picker the rate, the
// play/pause button and Space on it the clip's playing (not the scene's clock), the frame buttons
// step it, and the timeline scrubs it by dragging and by Home/End/arrows; the picture follows.
// With several characters a picker chooses whose clip the bar drives.
import assert from 'node:assert/strict';
import { countDifferentPixels } from './lib/png.mjs';
import { guarded, trackedPage } from './share.test.mjs';
import { recordErrors, scrollToFigure, staged, until, upperPicture } from './element.test.mjs';

const WALKER = 'assets/models/walker';

// The bar's `clip` reply for the figure's chosen character, and the bar's own view of it.
function bar(page, id) {
  return page.evaluate((target) => {
    const figure = document.getElementById(target);
    const root = figure.shadowRoot.querySelector('[part="controls"]');
    const get = (label) => root.querySelector(`[aria-label="${label}"]`);
    const character = Number(root.querySelector('[aria-label="Character"]').value || 0);
    const clip = figure.call({ cmd: 'clip', instance: character });
    return { clip, character, hidden: root.hidden, clipValue: get('Clip').value, speed: get('Speed').value,
             range: Number(get('Clip time').value), max: Number(get('Clip time').max),
             button: (get('Play') || get('Pause')).getAttribute('aria-label'), scenePaused: figure.paused };
  }, id);
}

export const tests = [
  {
    name: 'ui=controls: clip, speed, play/pause, frame step and timeline by mouse and keys, each labelled; a picker for several characters',
    timeoutMs: 180000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 1000, height: 900 });
      await recordErrors(page);
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <md5-stage id="walker" src="${WALKER}/walker.md5mesh" anims="${WALKER}/idle.md5anim ${WALKER}/walk.md5anim ${WALKER}/wave.md5anim"
                   materials="${WALKER}/walker.mtr" animation="wave" camera="20,10,160,0,0,40" ui="controls" loading="eager"
                   style="width:640px;height:360px"></md5-stage>
        <md5-stage id="turns" scene="turns" ui="controls" loading="eager" style="width:640px;height:360px"></md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}controls.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}controls.html`);
      await scrollToFigure(page, 'walker');
      await scrollToFigure(page, 'turns');
      await page.locator('#walker').scrollIntoViewIfNeeded();
      const controls = (label) => page.locator(`#walker [part="controls"] [aria-label="${label}"]`);

      // Every control is labelled; one character: no picker.
      const labels = await page.$eval('#walker', (figure) => [...figure.shadowRoot.querySelector('[part="controls"]').children]
        .map((node) => [node.localName, node.getAttribute('aria-label'), node.hidden]));
      assert.deepEqual(labels.map(([tag]) => tag), ['select', 'select', 'button', 'button', 'button', 'select', 'input', 'span']);
      assert.ok(labels.every(([, label]) => label && label.length > 3), JSON.stringify(labels));
      assert.equal(labels[0][2], true, 'a character picker for one character');
      let shown = await bar(page, 'walker');
      assert.equal(shown.hidden, false);
      assert.deepEqual(shown.clip.animations, ['idle', 'walk', 'wave']);
      assert.equal(shown.clipValue, 'wave');

      // The mouse: the clip picker, the pause button, the timeline dragged, the next frame.
      await controls('Clip').selectOption('walk');
      await until(page, () => document.getElementById('walker').call({ cmd: 'clip', instance: 0 }).animation === 'walk');
      await page.waitForTimeout(300);
      await controls('Pause').click();
      shown = await bar(page, 'walker');
      assert.deepEqual([shown.clip.playing, shown.button], [false, 'Play']);
      assert.equal(shown.scenePaused, false, 'the button paused the scene, not the clip');
      const before = await upperPicture(page, '#walker');
      const track = await controls('Clip time').boundingBox();
      await page.mouse.move(track.x + track.width * 0.1, track.y + track.height / 2);
      await page.mouse.down();
      await page.mouse.move(track.x + track.width * 0.6, track.y + track.height / 2, { steps: 8 });
      await page.mouse.up();
      shown = await bar(page, 'walker');
      assert.ok(Math.abs(shown.clip.time / shown.clip.duration - 0.6) < 0.08, JSON.stringify(shown));
      await page.waitForTimeout(300);
      assert.ok(countDifferentPixels(before, await upperPicture(page, '#walker'), 12) > 100, 'scrubbing did not move the walker');
      const scrubbed = shown.clip.time;
      await controls('Next frame').click();
      shown = await bar(page, 'walker');
      assert.ok(shown.clip.time > scrubbed && shown.clip.time < scrubbed + 0.1, `${scrubbed} -> ${shown.clip.time}`);
      await controls('Previous frame').click();
      assert.ok(Math.abs((await bar(page, 'walker')).clip.time - scrubbed) < 1e-6);

      // The keys: Tab reaches the controls after the figure; Home/End/arrows scrub; Space on the
      // button plays the clip (and not the scene clock); arrows in the speed picker.
      await page.focus('#walker');
      const reached = [];
      for (let i = 0; i < 6; ++i) {
        await page.keyboard.press('Tab');
        reached.push(await page.$eval('#walker', (figure) => {
          const active = figure.shadowRoot.activeElement;
          return active ? active.getAttribute('aria-label') : null;
        }));
      }
      assert.deepEqual(reached, ['Clip', 'Play', 'Previous frame', 'Next frame', 'Speed', 'Clip time']);
      await page.keyboard.press('End');
      shown = await bar(page, 'walker');
      assert.ok(Math.abs(shown.clip.time - shown.clip.duration) < 0.02, JSON.stringify(shown.clip));
      await page.keyboard.press('Home');
      assert.equal((await bar(page, 'walker')).clip.time, 0);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      assert.ok(Math.abs((await bar(page, 'walker')).clip.time - 0.02) < 1e-6);
      await controls('Speed').focus();
      await page.keyboard.press('ArrowDown');
      await until(page, () => document.getElementById('walker').call({ cmd: 'clip', instance: 0 }).rate === 1.5);
      await controls('Play').focus();
      await page.keyboard.press('Space');
      shown = await bar(page, 'walker');
      assert.deepEqual([shown.clip.playing, shown.button, shown.speed, shown.scenePaused], [true, 'Pause', '1.5', false]);
      await page.keyboard.press('Enter');
      shown = await bar(page, 'walker');
      assert.deepEqual([shown.clip.playing, shown.button], [false, 'Play']);

      // Several characters: the picker chooses whose clip the bar drives.
      await page.locator('#turns').scrollIntoViewIfNeeded();
      const picker = page.locator('#turns [part="controls"] [aria-label="Character"]');
      assert.equal(await picker.isVisible(), true);
      assert.equal(await picker.locator('option').count(), 3);
      // Chosen and read in one task: a walking character's clip rate is its walk's again on the
      // next frame (the walk keeps step with the ground), so a frame between the two would hide
      // which character the bar drove.
      const rates = await page.evaluate(() => {
        const figure = document.getElementById('turns');
        const root = figure.shadowRoot.querySelector('[part="controls"]');
        const choose = (label, value) => {
          const select = root.querySelector(`[aria-label="${label}"]`);
          select.value = value;
          select.dispatchEvent(new Event('input', { bubbles: true }));
          select.dispatchEvent(new Event('change', { bubbles: true }));
        };
        choose('Character', '2');
        choose('Speed', '0.5');
        return figure.state().instances.map((c) => c.rate);
      });
      assert.deepEqual(rates.map((rate, i) => (i === 2 ? rate === 0.5 : rate !== 0.5)), [true, true, true], JSON.stringify(rates));
      assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
      await page.screenshot({ path: ctx.screenshotPath('element-controls') });
    }),
  },
];
