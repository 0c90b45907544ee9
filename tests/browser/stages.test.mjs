// Stages in the page (issue 26): a second stage made by md5stage.createStage() holds its own scene
// and clocks; the Display panel's Screenshot button and the `screenshot` command each give a PNG
// download of the view; a texture the server does not have is the same warning the native run
// gives (tests/viewer/stage_hub_test.cpp, StageOpening.AnImageThatCannotBeFetchedIsAWarning...).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openViewer } from './lib/harness.mjs';
import { call, clickAt, frames, newInputPage, state, waitUntil } from './lib/input.mjs';
import { decodePng, distinctColours } from './lib/png.mjs';
import { guarded } from './share.test.mjs';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function pngOf(download) {
  const bytes = fs.readFileSync(await download.path());
  assert.deepEqual([...bytes.subarray(0, 8)], PNG_SIGNATURE, `${download.suggestedFilename()} is not a PNG`);
  return decodePng(bytes);
}

export const tests = [
  {
    name: 'screenshot: the Display panel button and the screenshot command each download a PNG of the view; createStage gives an independent stage',
    run: guarded(async (ctx) => {
      const page = await newInputPage(ctx.browser, { width: 1280, height: 720 });
      try {
        await openViewer(page, ctx.baseUrl, '#demo=turns');
        assert.ok((await page.evaluate(() => window.md5stage.opened)).ok);
        await frames(page, 2);
        const item = (await state(page)).ui_items.Screenshot;
        assert.ok(item, 'the Display panel reported no Screenshot button');
        const [x, y] = [(item[0] + item[2]) / 2, (item[1] + item[3]) / 2];
        const [byButton] = await Promise.all([page.waitForEvent('download', { timeout: 20000 }), clickAt(page, x, y)]);
        assert.match(byButton.suggestedFilename(), /\.png$/);
        const buttonPng = await pngOf(byButton);
        const canvas = await page.evaluate(() => {
          const c = document.querySelector('canvas');
          return [c.width, c.height];
        });
        assert.deepEqual([buttonPng.width, buttonPng.height], canvas);
        assert.ok(distinctColours(buttonPng) > 8, 'the button\'s screenshot is blank');
        const [byCommand] = await Promise.all([page.waitForEvent('download', { timeout: 20000 }),
                                               call(page, { cmd: 'screenshot' })]);
        const commandPng = await pngOf(byCommand);
        assert.deepEqual([commandPng.width, commandPng.height], canvas);
        assert.ok(distinctColours(commandPng) > 8, 'the command\'s screenshot is blank');
        assert.equal(byCommand.suggestedFilename(), byButton.suggestedFilename());

        // A second stage: its own scene and clock; the main stage does not change.
        const before = await state(page);
        const opened = await page.evaluate(async () => {
          const stage = window.md5stage.createStage();
          window.second = stage;
          return stage.loadDemo('maze');
        });
        assert.ok(opened.ok, JSON.stringify(opened));
        const second = await page.evaluate(() => window.second.state());
        assert.equal(second.instances.length, 3);
        assert.ok(second.obstacles.length > 0);
        await page.evaluate(() => window.second.call({ cmd: 'pauseScene' }));
        await page.evaluate(() => window.second.call({ cmd: 'setSceneTime', time: 4 }));
        const after = await state(page);
        assert.equal(after.instances.length, before.instances.length);
        assert.equal(after.obstacles.length, before.obstacles.length);
        assert.equal(after.scene_playing, true);
        assert.ok(await waitUntil(page, (t) => window.md5stage.state().scene_time > t, after.scene_time));
        assert.equal((await page.evaluate(() => window.second.state())).scene_time, 4);
        const listed = await page.evaluate(() => window.md5stage.stages());
        assert.equal(listed.stages.length, 2, JSON.stringify(listed));
        assert.ok((await page.evaluate(() => window.second.close())).ok);
        assert.equal((await page.evaluate(() => window.md5stage.stages())).stages.length, 1);
      } finally {
        await page.context().close();
      }
    }),
  },
  {
    name: 'a texture the server does not have: the scene opens with the same warning as the native run',
    run: guarded(async (ctx) => {
      const page = await newInputPage(ctx.browser, { width: 640, height: 360 });
      try {
        await page.route('**/assets/models/walker/walker.png', (route) => route.fulfill({ status: 404, body: 'not found' }));
        await openViewer(page, ctx.baseUrl, '#demo=default');
        const opened = await page.evaluate(() => window.md5stage.opened);
        assert.ok(opened.ok, JSON.stringify(opened));
        // The literal of the native test (FolderHost answers a refused URL with "HTTP 404 Not Found").
        assert.deepEqual(opened.warnings, [
          'models/walker/walker.png: warning: image could not be fetched (HTTP 404 Not Found; ' +
          'tried models/walker/walker.png); the part draws without it']);
        assert.equal((await state(page)).instances.length, 1);
      } finally {
        await page.context().close();
      }
    }),
  },
];
