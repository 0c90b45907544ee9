// The viewer starts: WebGL2 context, a drawn grid, the ImGui panel, camera gestures, canvas sizing,
// and readable messages when WebGL2 or the wasm module is missing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newPage, openViewer, waitFrames } from './lib/harness.mjs';
import { decodePng, distinctColours } from './lib/png.mjs';

// A documentation page's script: awaits ready, then at once edits route 0 and sends character 0
// along it, in the same task. Before ready waited for the opening scene, the demo applied a
// moment later replaced the route, and assignRoute answered that there was no such instance.
async function scriptRightAfterReady(page) {
  await page.waitForFunction(() => window.md5stage !== undefined);
  return page.evaluate(async () => {
    const m = window.md5stage;
    await m.ready;
    const square = [{ line: [[0, 0], [200, 0]] }, { line: [[200, 0], [200, 200]] }];
    return {
      route: m.setRoute(0, square),
      assign: m.assignRoute(0, 0, 'once'),
      display: m.display({ skeleton: true }),
      opened: await m.opened,
    };
  });
}

export const tests = [
  {
    name: 'ready waits for the opening scene: a script right after it is not undone (default demo, broken link)',
    async run(ctx) {
      for (const suffix of ['', '#scene=AAAA-broken', '#demo=turns']) {
        const page = await newPage(ctx.browser);
        await page.goto(ctx.baseUrl + suffix);
        const result = await scriptRightAfterReady(page);
        assert.equal(result.route.ok, true, `${suffix}: ${JSON.stringify(result.route)}`);
        assert.equal(result.assign.ok, true, `${suffix}: ${JSON.stringify(result.assign)}`);
        assert.equal(result.display.ok, true);
        // The broken link fell back to the default demo before ready resolved.
        assert.equal(result.opened.ok, suffix !== '#scene=AAAA-broken', `${suffix}: ${JSON.stringify(result.opened)}`);
        await waitFrames(page, 5);
        const state = await page.evaluate(() => window.md5stage.state());
        const segments = state.routes[0].segments;
        assert.deepEqual(segments, [{ line: [[0, 0], [200, 0]] }, { line: [[200, 0], [200, 200]] }],
                         `${suffix}: route 0 was replaced: ${JSON.stringify(segments)}`);
        assert.equal(state.instances[0].route, 0, `${suffix}: character 0 is not on route 0`);
        assert.equal(state.display.skeleton, true, `${suffix}: the display toggle was undone`);
        await page.context().close();
      }
    },
  },
  {
    name: 'updateSteps runs the engine update N times, timed, and the scene clock follows',
    async run(ctx) {
      const page = await newPage(ctx.browser);
      await openViewer(page, ctx.baseUrl);
      const result = await page.evaluate(() => {
        const m = window.md5stage;
        const t0 = m.call({ cmd: 'clock' }).scene_time;
        const steps = m.call({ cmd: 'updateSteps', count: 40, dt: 0.05 });
        const t1 = m.call({ cmd: 'clock' }).scene_time;
        const tooMany = m.call({ cmd: 'updateSteps', count: 1e9, dt: 0 });
        return { steps, advanced: t1 - t0, tooMany };
      });
      assert.equal(result.steps.ok, true);
      assert.equal(result.steps.update_ms.length, 40);
      // Timed, but judged only as a measurement (finite, not negative): how long the steps take
      // depends on the machine, and no verdict may.
      assert.ok(result.steps.update_ms.every((ms) => Number.isFinite(ms) && ms >= 0), JSON.stringify(result.steps.update_ms));
      // 40 x 0.05 s: no frame runs between the two clock reads (one task).
      assert.ok(Math.abs(result.advanced - 2.0) < 1e-6, `the clock moved ${result.advanced} s`);
      // Out of range is an error that names the field, not a silent clamp.
      assert.equal(result.tooMany.ok, false);
      assert.equal(result.tooMany.error, 'updateSteps.count: expected an integer in [1, 1000], found 1000000000');
      await page.context().close();
    },
  },
  {
    name: 'opens with WebGL2, draws the grid and the UI, logs no error',
    async run(ctx) {
      const page = await newPage(ctx.browser);
      await openViewer(page, ctx.baseUrl);
      await waitFrames(page, 5);
      const state = await page.evaluate(() => window.md5stage.state());
      assert.match(state.webgl, /WebGL 2\.0/);
      assert.ok(state.frame >= 5, `frames rendered: ${state.frame}`);
      const png = await page.screenshot({ path: ctx.screenshotPath('startup') });
      const image = decodePng(png);
      // The grid alone is a handful of colours; a blank canvas is one.
      assert.ok(distinctColours(image) > 8, `distinct colours: ${distinctColours(image)}`);
      // The ImGui stats panel sits at the top-left corner: text and frame make it many-coloured.
      assert.ok(distinctColours(image, 10, 10, 250, 120) > 4, 'no ImGui panel at the top-left');
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    name: 'canvas follows the window size and devicePixelRatio',
    async run(ctx) {
      const page = await newPage(ctx.browser, { width: 800, height: 500, deviceScaleFactor: 2 });
      await openViewer(page, ctx.baseUrl);
      await waitFrames(page, 2);
      assert.deepEqual((await page.evaluate(() => window.md5stage.state())).canvas, [1600, 1000]);
      await page.setViewportSize({ width: 640, height: 480 });
      await waitFrames(page, 3);
      assert.deepEqual((await page.evaluate(() => window.md5stage.state())).canvas, [1280, 960]);
      await page.context().close();
    },
  },
  {
    name: 'drag orbits, right-drag pans, wheel zooms',
    async run(ctx) {
      const page = await newPage(ctx.browser);
      await openViewer(page, ctx.baseUrl);
      const camera = async () => (await page.evaluate(() => window.md5stage.state())).camera;
      const before = await camera();
      await page.mouse.move(700, 400);
      await page.mouse.down();
      await page.mouse.move(800, 380, { steps: 5 });
      await page.mouse.up();
      await waitFrames(page, 2);
      const orbited = await camera();
      assert.notEqual(orbited.yaw, before.yaw, 'yaw did not change');
      assert.notEqual(orbited.pitch, before.pitch, 'pitch did not change');
      await page.mouse.move(700, 400);
      await page.mouse.down({ button: 'right' });
      await page.mouse.move(760, 440, { steps: 5 });
      await page.mouse.up({ button: 'right' });
      await waitFrames(page, 2);
      const panned = await camera();
      assert.notDeepEqual(panned.target, orbited.target, 'target did not move');
      await page.mouse.wheel(0, -300);
      await waitFrames(page, 2);
      assert.ok((await camera()).distance < panned.distance, 'wheel up did not zoom in');
      await page.context().close();
    },
  },
  {
    name: 'without WebGL2 the page says so',
    async run(ctx) {
      const page = await newPage(ctx.browser);
      await page.addInitScript(() => {
        const original = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
          return type === 'webgl2' ? null : original.call(this, type, ...rest);
        };
      });
      await page.goto(ctx.baseUrl);
      const message = page.locator('#message');
      await message.waitFor({ state: 'visible' });
      assert.match(await message.textContent(), /WebGL 2/);
      await page.screenshot({ path: ctx.screenshotPath('no-webgl2') });
      await page.context().close();
    },
  },
  {
    name: 'a wasm module that fails to load gives a readable message',
    async run(ctx) {
      const page = await newPage(ctx.browser);
      await page.route('**/md5stage.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
      await page.goto(ctx.baseUrl);
      const message = page.locator('#message');
      await message.waitFor({ state: 'visible', timeout: 30000 });
      assert.match(await message.textContent(), /WebAssembly module failed to load/);
      await page.context().close();
    },
  },
];
