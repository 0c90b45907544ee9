// <md5-stage>.toBlob (issue 46), as model-viewer's: a promise of a PNG of the asked size, drawn
// for that size (not the figure's picture stretched), by default the figure's own; a JPEG when
// asked; a size out of range is refused naming it; the figure draws on at its own size after.
import assert from 'node:assert/strict';
import { countDifferentPixels, decodePng } from './lib/png.mjs';
import { guarded, trackedPage } from './share.test.mjs';
import { assertDrawn, recordErrors, scrollToFigure, staged, until, upperPicture } from './element.test.mjs';

// The figure's toBlob answer as bytes (base64 over the page boundary), its type and its size.
function blob(page, options) {
  return page.evaluate(async (asked) => {
    const result = await document.getElementById('turns').toBlob(asked);
    const bytes = new Uint8Array(await result.arrayBuffer());
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return { type: result.type, base64: btoa(text) };
  }, options);
}

export const tests = [
  {
    name: 'toBlob: a PNG of the asked size drawn for it, the figure\'s size by default, JPEG on request, bad sizes refused by name; the figure draws on',
    timeoutMs: 120000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 900, height: 600 });
      await recordErrors(page);
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <md5-stage id="turns" scene="turns" construction loading="eager" style="width:480px;height:270px"></md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}blob.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}blob.html`);
      await scrollToFigure(page, 'turns');
      await page.evaluate(() => document.getElementById('turns').pause());
      const own = await page.evaluate(() => {
        const canvas = document.getElementById('turns').shadowRoot.querySelector('canvas');
        return [canvas.width, canvas.height];
      });

      const wide = await blob(page, { width: 800, height: 300 });
      assert.equal(wide.type, 'image/png');
      const png = decodePng(Buffer.from(wide.base64, 'base64'));
      assert.deepEqual([png.width, png.height], [800, 300]);
      assertDrawn(png, 'toBlob 800x300');
      // Drawn for its size: the picture's middle row is not the figure's picture stretched (its
      // aspect differs), and a second size is drawn too.
      const small = decodePng(Buffer.from((await blob(page, { width: 120, height: 200 })).base64, 'base64'));
      assert.deepEqual([small.width, small.height], [120, 200]);
      assertDrawn(small, 'toBlob 120x200');
      const byDefault = decodePng(Buffer.from((await blob(page)).base64, 'base64'));
      assert.deepEqual([byDefault.width, byDefault.height], own);
      // The default picture is the figure's: compare with the figure on screen.
      const onScreen = await upperPicture(page, '#turns');
      const cropped = { width: onScreen.width, height: onScreen.height, data: Buffer.alloc(onScreen.width * onScreen.height * 4) };
      for (let y = 0; y < onScreen.height; ++y) {
        byDefault.data.copy(cropped.data, y * onScreen.width * 4, y * byDefault.width * 4, (y * byDefault.width + onScreen.width) * 4);
      }
      const differing = countDifferentPixels(cropped, onScreen, 24);
      assert.ok(differing < onScreen.width * onScreen.height * 0.02, `${differing} pixels differ from the figure on screen`);

      const jpeg = await blob(page, { type: 'image/jpeg', width: 64, height: 64 });
      assert.equal(jpeg.type, 'image/jpeg');
      assert.equal(Buffer.from(jpeg.base64, 'base64').readUInt16BE(0), 0xffd8);

      for (const [options, field] of [[{ width: 0 }, 'width'], [{ height: 5000 }, 'height'], [{ width: 1.5 }, 'width'], [{ height: 'x' }, 'height']]) {
        const refused = await page.evaluate((asked) => document.getElementById('turns').toBlob(asked).then(() => 'resolved', (error) => error.message), options);
        assert.ok(refused.startsWith(`toBlob: ${field}: expected an integer in [1, 4096]`), refused);
      }
      // The figure draws on at its own size.
      const frames = await page.evaluate(() => { const figure = document.getElementById('turns'); figure.play(); return figure.frames; });
      await until(page, (count) => document.getElementById('turns').frames > count + 5, frames);
      assert.deepEqual(await page.evaluate(() => {
        const canvas = document.getElementById('turns').shadowRoot.querySelector('canvas');
        return [canvas.width, canvas.height];
      }), own);
      assertDrawn(await upperPicture(page, '#turns'), 'the figure after toBlob');
      assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
    }),
  },
];
