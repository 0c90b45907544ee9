// Dynamic resolution on a page of figures (issue 46): frames over budget step the page's render
// scale down, each figure drawing at no less than its min-render-scale, and frames with time to
// spare bring it back. The frames' times are given through md5stageFigures.observeFrameTime so
// that the verdict does not depend on the machine; the figures' own frames then draw at the new
// size (state().canvas is the size the stage draws, the element's canvas keeps its device size).
// The harness fixes the scale at 1 on every other test's page; this page is made without it.
import assert from 'node:assert/strict';
import { guarded } from './share.test.mjs';
import { assertDrawn, recordErrors, staged, until, upperPicture } from './element.test.mjs';

export const tests = [
  {
    name: 'render scale: slow frames draw the figures smaller down to each min-render-scale, fast ones bring them back',
    timeoutMs: 120000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const context = await ctx.browser.newContext({ viewport: { width: 1000, height: 500 }, deviceScaleFactor: 1 });
      try {
        const page = await context.newPage();
        await recordErrors(page);
        const figure = (id, minimum) => `<md5-stage id="${id}" scene="turns" paused t="2" loading="eager"
          camera="30,35,420" style="width:300px;height:200px" min-render-scale="${minimum}"></md5-stage>`;
        const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
          ${figure('quarter', '0.25')}${figure('half', '0.5')}${figure('full', '1')}
          <script src="md5stage-element.js"></script></body></html>`;
        await page.route(`${ctx.baseUrl}render-scale.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
        await page.goto(`${ctx.baseUrl}render-scale.html`);
        await until(page, () => [...document.querySelectorAll('md5-stage')].every((e) => e.loaded && e.frames > 0));
        const ids = ['quarter', 'half', 'full'];
        const sizes = () => page.evaluate((list) => list.map((id) => {
          const element = document.getElementById(id);
          const canvas = element.shadowRoot.querySelector('canvas');
          return { drawn: element.state().canvas, canvas: [canvas.width, canvas.height] };
        }), ids);
        const drawnAre = (expected) => until(page, ([list, widths]) => list.every((id, i) => {
          const element = document.getElementById(id);
          return element.state().canvas[0] === widths[i];
        }), [ids, expected]);
        assert.equal(await page.evaluate(() => window.md5stageFigures.renderScale), 1);
        for (const { drawn, canvas } of await sizes()) {
          assert.deepEqual(drawn, [300, 200]);
          assert.deepEqual(canvas, [300, 200]);
        }

        // Frames of 100 ms: the page's scale falls to the lowest bound, each figure to its own.
        await page.evaluate(() => { for (let i = 0; i < 400; ++i) window.md5stageFigures.observeFrameTime(100); });
        assert.equal(await page.evaluate(() => window.md5stageFigures.renderScale), 0.25);
        await drawnAre([75, 150, 300]);
        const low = await sizes();
        assert.deepEqual(low.map((s) => s.drawn), [[75, 50], [150, 100], [300, 200]]);
        assert.ok(low.every((s) => s.canvas[0] === 300 && s.canvas[1] === 200), JSON.stringify(low));
        // Drawn smaller, shown stretched over the whole figure.
        assertDrawn(await upperPicture(page, '#quarter'), 'the quarter-scale figure');

        // A bound raised on the page lifts that figure at once.
        await page.evaluate(() => document.getElementById('quarter').setAttribute('min-render-scale', '0.5'));
        await drawnAre([150, 150, 300]);

        // Frames of 1 ms: back to full size.
        await page.evaluate(() => { for (let i = 0; i < 400; ++i) window.md5stageFigures.observeFrameTime(1); });
        assert.equal(await page.evaluate(() => window.md5stageFigures.renderScale), 1);
        await drawnAre([300, 300, 300]);
        assert.deepEqual(await page.evaluate(() => window.figureErrors), []);
      } finally {
        await context.close();
      }
    }),
  },
];
