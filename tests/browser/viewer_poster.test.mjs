// The viewer's Poster (issue 46) as a person uses it: clicking the Scene panel's "Poster" button
// downloads a PNG drawn afresh at the figure's size (640 x 360), not the canvas cropped and scaled
// down. The viewer here is 1000 x 800, another aspect than the figure's, so a crop of the canvas
// would show the scene larger than a render at 640 x 360 does: the poster is compared with the
// pasted snippet's figure's toBlob at that size (the same view drawn for that size by the
// figures module), pixel by pixel and block by block within a stated tolerance. After it the
// viewer draws on: its frames advance and its canvas shows the same picture as before.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { blockDifferences, countDifferentPixels, decodePng } from './lib/png.mjs';
import { clickAt, frames } from './lib/input.mjs';
import { guarded, openAt } from './share.test.mjs';
import { openPastedFigure } from './figure_snippet.test.mjs';
import { assertDrawn, staged } from './element.test.mjs';

// Mean absolute difference per channel over the whole picture.
function meanDifference(a, b) {
  assert.deepEqual([a.width, a.height], [b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) for (let c = 0; c < 3; ++c) sum += Math.abs(a.data[i + c] - b.data[i + c]);
  return sum / (a.width * a.height * 3);
}

// The mean of the worst 5% of the 16 x 16 blocks' differences (lib/png.mjs, blockDifferences).
function blockDifference(a, b) {
  assert.deepEqual([a.width, a.height], [b.width, b.height]);
  const differences = blockDifferences(a, b).sort((p, q) => q - p);
  const worst = differences.slice(0, Math.ceil(differences.length / 20));  // the worst 5%
  return worst.reduce((sum, d) => sum + d, 0) / worst.length;
}

async function canvasPicture(page) {
  return decodePng(await page.locator('canvas').first().screenshot());
}

export const tests = [
  {
    name: 'viewer: clicking Poster downloads the view drawn afresh at the figure\'s 640 x 360 (the pasted figure\'s toBlob at that size, pixel for pixel within tolerance), and the viewer draws on',
    timeoutMs: 240000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const { page } = await openAt(ctx, '#demo=turns', { width: 1000, height: 800 });
      // A still view with no texts (the poster has none; the figure's toBlob draws its labels).
      await page.evaluate(() => {
        const api = window.md5stage;
        api.call({ cmd: 'pauseScene' });
        api.call({ cmd: 'setSceneTime', time: 2.25 });
        api.call({ cmd: 'camera', yaw: 57, pitch: 31, distance: 520 });
        api.call({ cmd: 'display', skeleton: false, construction: false, joint_names: false });
      });
      await frames(page, 3);
      const snippet = await page.evaluate(() => window.md5stage.embedSnippet({ kind: 'element' }));
      assert.match(snippet, /style="width:640px;height:360px"/);
      await page.mouse.move(990, 790);  // the pointer away from the view and the panels
      await frames(page, 2);
      const before = await canvasPicture(page);
      const frameBefore = await page.evaluate(() => window.md5stage.state().frame);

      // "Poster", clicked where the Scene panel drew it.
      const item = (await page.evaluate(() => window.md5stage.state())).ui_items.downloadPoster;
      assert.ok(item, 'the Scene panel reported no Poster button');
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }),
                                            clickAt(page, (item[0] + item[2]) / 2, (item[1] + item[3]) / 2)]);
      assert.equal(download.suggestedFilename(), 'turns.png');
      const posterPath = ctx.screenshotPath('viewer-poster');
      await download.saveAs(posterPath);
      const poster = decodePng(fs.readFileSync(posterPath));
      assert.deepEqual([poster.width, poster.height], [640, 360]);
      assertDrawn(poster, 'the poster');

      // The viewer draws on: later frames, and the same picture as before the poster.
      await page.mouse.move(990, 790);
      await frames(page, 5);
      const after = await page.evaluate(() => window.md5stage.state());
      assert.ok(after.frame >= frameBefore + 5, `frames ${frameBefore} -> ${after.frame}`);
      const again = await canvasPicture(page);
      assert.deepEqual([again.width, again.height], [before.width, before.height]);
      const changed = countDifferentPixels(before, again, 24) / (before.width * before.height);
      assert.ok(changed < 0.01, `the viewer's picture changed after the poster: ${(changed * 100).toFixed(2)}% of its pixels`);

      // The same view drawn by a figure for 640 x 360: the snippet pasted into a page, its toBlob.
      const figurePage = await openPastedFigure(ctx, page, snippet, posterPath);
      const base64 = await figurePage.evaluate(async () => {
        const blob = await document.getElementById('pasted').toBlob({ width: 640, height: 360 });
        let text = '';
        for (const byte of new Uint8Array(await blob.arrayBuffer())) text += String.fromCharCode(byte);
        return btoa(text);
      });
      const figurePath = ctx.screenshotPath('viewer-poster-figure');
      fs.writeFileSync(figurePath, Buffer.from(base64, 'base64'));
      const figure = decodePng(fs.readFileSync(figurePath));
      assert.deepEqual([figure.width, figure.height], [640, 360]);
      assertDrawn(figure, 'the figure\'s toBlob');

      // Tolerance: the viewer draws with 4 samples, a figure on a CPU rasterizer without, so edge
      // pixels (the grid's thin lines most) differ: at most 3% of the pixels differ by more than
      // 48 in a channel, the mean difference is at most 7 (of 255), and the worst 5% of 16 px
      // blocks differ in mean colour by at most 24 (of 765) on average. Measured: 1.1%, 4.5, 8.6;
      // the canvas cropped to 16:9 and scaled down (the poster before) gives 7.7%, 15.3, 83.9.
      const compared = {
        differing: countDifferentPixels(poster, figure, 48) / (poster.width * poster.height),
        mean: meanDifference(poster, figure),
        blocks: blockDifference(poster, figure),
      };
      fs.writeFileSync(path.join(path.dirname(posterPath), 'viewer-poster-compare.json'), JSON.stringify(compared));
      assert.ok(compared.differing <= 0.03 && compared.mean <= 7 && compared.blocks <= 24, `the poster is not the view drawn at 640 x 360: ${JSON.stringify(compared)}`);
      assert.deepEqual(await figurePage.evaluate(() => window.figureErrors), []);

      // Another size through the API: a portrait poster is drawn at that size too.
      const tall = await page.evaluate(async () => {
        const result = await window.md5stage.downloadPoster({ width: 300, height: 500, name: 'tall.png' });
        return { ok: result.ok, width: result.width, height: result.height, type: result.blob && result.blob.type };
      });
      assert.deepEqual(tall, { ok: true, width: 300, height: 500, type: 'image/png' });
      return { compared };
    }),
  },
];
