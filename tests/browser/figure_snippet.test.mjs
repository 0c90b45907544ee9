// The <md5-stage> snippet and poster from the viewer (issue 46), as an author uses them: the
// Scene panel's "Figure" copies the snippet of what is on screen (scene, camera, display toggles,
// time), "Poster" downloads a PNG of the view at the figure's size under the name the snippet
// gives; pasted into a page beside that poster, the figure draws the viewer's picture: same
// state (camera, time, toggles) exactly, and the same pixels within a stated tolerance, since
// figures on a CPU rasterizer draw without multisampling and the viewer with it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { blockDifferences, decodePng } from './lib/png.mjs';
import { guarded, openAt } from './share.test.mjs';
import { assertDrawn, recordErrors, scrollToFigure, staged } from './element.test.mjs';

// Blocks of 16 x 16 pixels whose mean colours differ by more than `threshold` (sum over RGB),
// and the mean difference over all blocks.
function compareBlocks(a, b, threshold) {
  assert.deepEqual([a.width, a.height], [b.width, b.height]);
  const differences = blockDifferences(a, b);
  const differing = differences.filter((d) => d > threshold).length;
  return { share: differing / differences.length, mean: differences.reduce((sum, d) => sum + d, 0) / differences.length };
}

// The viewer's Figure snippet pasted into a page of its own (id "pasted", eager), with the poster
// it names served from `posterPath`, scrolled to: the page, errors recorded.
export async function openPastedFigure(ctx, page, snippet, posterPath) {
  const figurePage = await page.context().newPage();
  await recordErrors(figurePage);
  const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        ${snippet.replace('<md5-stage ', '<md5-stage id="pasted" loading="eager" ')}
        <script src="md5stage-element.js"></script></body></html>`;
  await figurePage.route(`${ctx.baseUrl}pasted.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
  await figurePage.route(`${ctx.baseUrl}turns.png`, (route) => route.fulfill({ path: posterPath, contentType: 'image/png' }));
  await figurePage.goto(`${ctx.baseUrl}pasted.html`);
  await scrollToFigure(figurePage, 'pasted');
  return figurePage;
}

export const tests = [
  {
    name: 'viewer: Figure copies the <md5-stage> snippet of the view and Poster downloads its PNG; pasted into a page, the figure draws the viewer\'s picture',
    timeoutMs: 240000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const { page } = await openAt(ctx, '#demo=turns', { width: 1280, height: 720 });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.baseUrl.replace(/\/$/, '') });
      await page.evaluate(async () => {
        const api = window.md5stage;
        api.call({ cmd: 'pauseScene' });
        api.call({ cmd: 'setSceneTime', time: 2.25 });
        api.call({ cmd: 'camera', yaw: 57, pitch: 31, distance: 520 });
        api.call({ cmd: 'display', skeleton: true, bounds: true, turn_circles: false });
      });
      await page.waitForTimeout(300);
      const viewer = await page.evaluate(() => ({ state: window.md5stage.state(), clock: window.md5stage.call({ cmd: 'clock' }) }));

      // "Figure": the snippet on the clipboard, as embedSnippet({kind: 'element'}) makes it.
      await page.bringToFront();  // the clipboard takes text from a focused document only
      const copied = await page.evaluate(() => window.md5stage.pageAction('copyFigure'));
      assert.equal(copied.ok, true, JSON.stringify(copied));
      assert.equal(copied.copied, true, JSON.stringify(copied));
      const snippet = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(snippet, copied.text);
      assert.equal(snippet, await page.evaluate(() => window.md5stage.embedSnippet({ kind: 'element' })));
      assert.match(snippet, /^<md5-stage scene="[A-Za-z0-9_-]+" camera="57,31,520,[-0-9.e,]+" .*t="2\.25" paused poster="turns\.png" alt="md5stage scene" style="width:640px;height:360px"><\/md5-stage>$/);
      for (const toggle of [' grid="1"', ' skeleton="1"', ' bounds="1"', ' turn_circles="0"']) assert.ok(snippet.includes(toggle), toggle);

      // "Poster": a download named as the snippet says, 640 x 360, the view without the panels.
      const [download] = await Promise.all([page.waitForEvent('download'), page.evaluate(() => window.md5stage.pageAction('downloadPoster'))]);
      assert.equal(download.suggestedFilename(), 'turns.png');
      const posterPath = ctx.screenshotPath('figure-snippet-poster');
      await download.saveAs(posterPath);
      const poster = decodePng(fs.readFileSync(posterPath));
      assert.deepEqual([poster.width, poster.height], [640, 360]);
      assertDrawn(poster, 'the poster');

      // Pasted into a page beside its poster: the figure's state is the viewer's, its picture the poster's.
      const figurePage = await openPastedFigure(ctx, page, snippet, posterPath);
      await figurePage.waitForTimeout(300);
      const figure = await figurePage.evaluate(() => {
        const element = document.getElementById('pasted');
        return { state: element.state(), clock: element.call({ cmd: 'clock' }) };
      });
      assert.deepEqual(figure.state.display, viewer.state.display);
      for (const key of ['yaw', 'pitch', 'distance']) assert.ok(Math.abs(figure.state.camera[key] - viewer.state.camera[key]) < 1e-3, key);
      figure.state.camera.target.forEach((v, i) => assert.ok(Math.abs(v - viewer.state.camera.target[i]) < 1e-3, 'target'));
      assert.ok(Math.abs(figure.clock.scene_time - viewer.clock.scene_time) < 1e-3, `${figure.clock.scene_time} vs ${viewer.clock.scene_time}`);
      assert.equal(figure.clock.scene_playing, false);
      const drawn = decodePng(await figurePage.locator('#pasted').screenshot());
      assert.deepEqual([drawn.width, drawn.height], [640, 360]);
      // Tolerance: 16 px blocks whose mean colours differ by more than 24 (of 765) are at most 5%
      // of the picture, and the mean difference at most 6.
      const compared = compareBlocks(drawn, poster, 24);
      fs.writeFileSync(path.join(path.dirname(posterPath), 'figure-snippet-compare.json'), JSON.stringify(compared));
      assert.ok(compared.share <= 0.05 && compared.mean <= 6, `the pasted figure differs from the viewer's picture: ${JSON.stringify(compared)}`);
      assert.deepEqual(await figurePage.evaluate(() => window.figureErrors), []);
      await figurePage.screenshot({ path: ctx.screenshotPath('figure-snippet-pasted') });
    }),
  },
];
