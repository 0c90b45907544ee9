// Per-view state stays per view (issue 43): two <md5-stage> figures of the walker on one page,
// one shown under a skin (setSkin on that figure) whose material paints the walker with its own
// normal map (a blue image the figure has fetched already), draw different pixels, while the
// walker's mesh is uploaded once for both (the hub's shared counts). Before, a part's material
// was state of the shared mesh, so one figure's skin changed every figure of the model.
import assert from 'node:assert/strict';
import { decodePng } from './lib/png.mjs';
import { newInputPage } from './lib/input.mjs';
import { guarded } from './share.test.mjs';

export const tests = [
  {
    name: 'two figures of one model under different skins draw different pixels; the mesh is uploaded once',
    timeoutMs: 120000,
    run: guarded(async (ctx) => {
      const page = await newInputPage(ctx.browser, { width: 700, height: 400 });
      try {
        const files = {
          'skins/blue.mtr': 'models/walker/blue\n{\n\tdiffusemap models/walker/walker_local.png\n}\n',
          'skins/blue.skin': 'skin skins/walker/blue\n{\n\tmodels/walker/walker models/walker/blue\n}\n',
        };
        for (const [name, text] of Object.entries(files)) {
          await page.route(`${ctx.baseUrl}${name}`, (route) => route.fulfill({ body: text, contentType: 'text/plain' }));
        }
        const figure = (id) => `<md5-stage id="${id}" src="assets/models/walker/walker.md5mesh"
            anims="assets/models/walker/idle.md5anim" paused loading="eager" camera="0,10,150,0,0,35"
            materials="assets/models/walker/walker.mtr skins/blue.mtr skins/blue.skin"
            style="width:320px;height:320px;display:inline-block"></md5-stage>`;
        const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
          ${figure('plain')}${figure('blue')}<script src="md5stage-element.js"></script></body></html>`;
        await page.route(`${ctx.baseUrl}skins.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
        await page.goto(`${ctx.baseUrl}skins.html`);
        await page.waitForFunction(() => ['plain', 'blue'].every((id) => {
          const state = document.getElementById(id).state();
          return state && state.instances && state.instances.length === 1;
        }), null, { timeout: 60000 });

        // The skin on one figure, off and on again (each a new resolution of that stage's parts).
        for (const skin of ['skins/walker/blue', '', 'skins/walker/blue']) {
          const reply = await page.evaluate((name) => document.getElementById('blue').call({ cmd: 'setSkin', model: 'walker', skin: name }), skin);
          assert.ok(reply.ok, JSON.stringify(reply));
        }
        const [plainState, blueState] = await page.evaluate(() => ['plain', 'blue'].map((id) => document.getElementById(id).state()));
        assert.equal(blueState.models[0].skin, 'skins/walker/blue');
        assert.equal(plainState.models[0].skin, '', 'the skin of one figure reached the other');
        assert.deepEqual(plainState.models[0].materials, ['models/walker/walker']);
        assert.deepEqual(blueState.models[0].materials, ['models/walker/blue']);
        assert.deepEqual(blueState.models[0].textures, ['walker_local.png']);
        const shared = await page.evaluate(() => document.getElementById('plain').call({ cmd: 'stages' }));
        assert.equal(shared.meshes, 1, `the walker's mesh was uploaded ${shared.meshes} times: ${JSON.stringify(shared)}`);

        // The pictures: the same grid and pose, the walker drawn in each figure's own look. Where
        // they differ (the walker), the skinned figure is blue (its normal map) and the plain one
        // is not.
        await page.waitForTimeout(500);
        const shot = async (id) => decodePng(await page.locator(`#${id}`).screenshot());
        const plain = await shot('plain');
        const blue = await shot('blue');
        assert.equal(plain.width, blue.width);
        const changed = { plain: [0, 0, 0], blue: [0, 0, 0], count: 0 };
        for (let i = 0; i < plain.data.length; i += 4) {
          const d = Math.abs(plain.data[i] - blue.data[i]) + Math.abs(plain.data[i + 1] - blue.data[i + 1]) +
                    Math.abs(plain.data[i + 2] - blue.data[i + 2]);
          if (d < 60) continue;
          ++changed.count;
          for (let c = 0; c < 3; ++c) {
            changed.plain[c] += plain.data[i + c];
            changed.blue[c] += blue.data[i + c];
          }
        }
        const mean = (sum) => sum.map((v) => Math.round(v / Math.max(1, changed.count)));
        const blueness = ([r, g, b]) => b / Math.max(1, (r + g) / 2);
        assert.ok(changed.count > 1500, `only ${changed.count} pixels differ between the two figures`);
        assert.ok(blueness(mean(changed.blue)) > 1.5, `the skinned walker is not blue: ${mean(changed.blue)}`);
        assert.ok(blueness(mean(changed.plain)) < 1.2, `the plain walker is blue: ${mean(changed.plain)}`);
        await page.screenshot({ path: ctx.screenshotPath('skins-two-figures') });
      } finally {
        await page.context().close();
      }
    }),
  },
];
