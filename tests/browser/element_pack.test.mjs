// <md5-stage mesh-pack> (issue 46, bytes before the first figure): the figure fetches the mesh's
// pack that `md5stage pack` wrote beside it instead of the MD5 text, draws the same picture as
// the text within a tolerance (the pack's positions are 16-bit steps), and fetches the text when
// the pack cannot be had; a bad mesh-pack URL is an error event naming it.
import assert from 'node:assert/strict';
import { countDifferentPixels } from './lib/png.mjs';
import { guarded, trackedPage } from './share.test.mjs';
import { assertDrawn, recordErrors, scrollToFigure, staged, upperPicture } from './element.test.mjs';

const WALKER = 'assets/models/walker';

// One paused walker at t=0 from a fixed camera; `pack` its mesh-pack attribute (none if null).
function figure(id, pack) {
  const packAttribute = pack === null ? '' : ` mesh-pack="${pack}"`;
  return `<md5-stage id="${id}" src="${WALKER}/walker.md5mesh"${packAttribute} anims="${WALKER}/walk.md5anim"
    materials="${WALKER}/walker.mtr" paused t="0" camera="30,10,150,0,0,35" loading="eager" style="width:320px;height:240px"></md5-stage>`;
}

// Opens a page of `figures`, waits until each has drawn, and returns the mesh files it fetched.
async function openFigures(ctx, name, figures) {
  const page = await trackedPage(ctx, { width: 1000, height: 700 });
  await recordErrors(page);
  const fetched = [];
  page.on('request', (request) => {
    const file = new URL(request.url()).pathname.split('/').pop();
    if (/\.md5(mesh|pack)$/.test(file)) fetched.push(file);
  });
  const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
    ${figures.join('\n')}<script src="md5stage-element.js"></script></body></html>`;
  await page.route(`${ctx.baseUrl}${name}`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
  await page.goto(`${ctx.baseUrl}${name}`);
  return { page, fetched };
}

export const tests = [
  {
    name: 'mesh-pack: the pack is fetched instead of the text and draws the text\'s picture; a missing pack falls back to the text; a bad URL is an error naming mesh-pack',
    timeoutMs: 180000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const packed = await openFigures(ctx, 'pack-only.html', [figure('packed', `${WALKER}/walker.md5pack`)]);
      await scrollToFigure(packed.page, 'packed');
      await packed.page.evaluate(() => document.getElementById('packed').ready);
      assert.deepEqual(packed.fetched, ['walker.md5pack'], 'only the pack is fetched');
      const fromPack = await upperPicture(packed.page, '#packed');
      assertDrawn(fromPack, 'the walker from its pack');
      // The model is named by its .md5mesh, whatever was fetched.
      const scene = await packed.page.evaluate(() => document.getElementById('packed').call({ cmd: 'sceneJson' }));
      assert.ok(JSON.stringify(scene).includes('walker.md5mesh'), JSON.stringify(scene).slice(0, 300));
      assert.deepEqual(await packed.page.evaluate(() => window.figureErrors), []);

      const text = await openFigures(ctx, 'pack-fallback.html', [
        figure('text', null), figure('missing', `${WALKER}/no_such.md5pack`), figure('hostile', 'javascript:window.__ran=1')]);
      await scrollToFigure(text.page, 'text');
      await scrollToFigure(text.page, 'missing');
      await text.page.evaluate(() => Promise.all(['text', 'missing'].map((id) => document.getElementById(id).ready)));
      const fromText = await upperPicture(text.page, '#text');
      assertDrawn(fromText, 'the walker from its text');
      // Positions within 0.0002 units of the text's: at most a few edge pixels round the other way.
      const differing = countDifferentPixels(fromText, fromPack, 24);
      assert.ok(differing < fromText.width * fromText.height * 0.005, `${differing} pixels differ between the pack's walker and the text's`);
      const fallback = await upperPicture(text.page, '#missing');
      assert.ok(countDifferentPixels(fromText, fallback, 24) < fromText.width * fromText.height * 0.005, 'the fallback draws the text\'s walker');
      assert.ok(text.fetched.includes('no_such.md5pack') && text.fetched.includes('walker.md5mesh'), text.fetched.join(', '));
      const errors = await text.page.evaluate(() => window.figureErrors);
      assert.deepEqual(errors.map((e) => [e.id, e.attribute]), [['hostile', 'mesh-pack']], JSON.stringify(errors));
      assert.equal(await text.page.evaluate(() => window.__ran), undefined);
    }),
  },
];
