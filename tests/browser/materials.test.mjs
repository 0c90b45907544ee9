// A Doom 3-style folder dropped on the page: a mesh and anim, materials/walker.mtr and _d/_local
// TGAs under models/..., written by the test. The decl's images are found by their paths below
// the dropped folder, the one image missing is one warning naming the material and the file, and
// the model still draws (pixels in its box differ from the view without it, and show the red
// diffuse map). The missing image then comes through the loose-file picker and the warning goes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  call, changedPixels, dropPaths, emptyViewer, frames, grab, grow, inside, openModelPanel, rectArea, state,
  waitUntil,
} from './lib/input.mjs';
import { writeWalkerMod } from './lib/doom3_folder.mjs';

// An uncompressed 24-bit TGA, bottom-left origin, of size x size pixels coloured by fn(x, y).
function tga(size, fn) {
  const header = Buffer.alloc(18);
  header[2] = 2;
  header.writeUInt16LE(size, 12);
  header.writeUInt16LE(size, 14);
  header[16] = 24;
  const pixels = Buffer.alloc(size * size * 3);
  for (let row = 0; row < size; row++) {
    for (let x = 0; x < size; x++) {
      const [r, g, b] = fn(x, size - 1 - row);
      pixels.set([b, g, r], (row * size + x) * 3);
    }
  }
  return Buffer.concat([header, pixels]);
}

const MTR = `// written by materials.test.mjs
table sinTable { { 0, 1 } }
models/walker/walker
{
\tqer_editorimage models/walker/walker_d.tga
\tdiffusemap\tmodels/walker/walker_d.tga
\tbumpmap\t\tmodels/walker/walker_local.tga
\tspecularmap\tmodels/walker/walker_s.tga
}
`;

export const tests = [
  {
    // Catches: decls ignored in the browser, folder paths lost on the way into the wasm (images
    // found only by guessing), a missing image that fails the load or hides the model, warnings
    // that do not name material and file, materials that do not re-resolve when an image comes.
    name: 'a dropped Doom 3 folder binds its materials; a missing image warns and the model draws',
    async run(ctx) {
      const walker = path.join(ctx.site, 'assets/models/walker');
      if (!fs.existsSync(path.join(walker, 'walker.md5mesh'))) return { skipped: 'assets/models/walker missing in the site' };
      const root = fs.mkdtempSync(path.join(ctx.outDir, 'doom-folder-'));
      const folder = path.join(root, 'mymod');
      fs.mkdirSync(path.join(folder, 'models/walker'), { recursive: true });
      fs.mkdirSync(path.join(folder, 'materials'), { recursive: true });
      fs.copyFileSync(path.join(walker, 'walker.md5mesh'), path.join(folder, 'models/walker/walker.md5mesh'));
      fs.copyFileSync(path.join(walker, 'idle.md5anim'), path.join(folder, 'models/walker/idle.md5anim'));
      fs.writeFileSync(path.join(folder, 'materials/walker.mtr'), MTR);
      // A bright red diffuse (the walker's own walker.png is not in the folder), a flat normal map.
      fs.writeFileSync(path.join(folder, 'models/walker/walker_d.tga'), tga(64, (x, y) => [230, 40 + (x & 8), 30 + (y & 8)]));
      fs.writeFileSync(path.join(folder, 'models/walker/walker_local.tga'), tga(64, () => [128, 128, 255]));
      const specular = path.join(root, 'walker_s.tga');
      fs.writeFileSync(specular, tga(16, () => [200, 200, 200]));
      const page = await emptyViewer(ctx);
      try {
        await dropPaths(page, [folder]);
        assert.ok(await waitUntil(page, () => window.md5stage.state().models.length >= 1, null, 15000), 'the dropped folder loaded nothing');
        let s = await state(page);
        const model = s.models[0];
        assert.ok(!s.last_error, `load error: ${s.last_error}`);
        assert.deepEqual(model.materials, ['models/walker/walker']);
        assert.deepEqual(model.textures, ['models/walker/walker_d.tga']);
        assert.deepEqual(model.normal_maps, ['models/walker/walker_local.tga']);
        assert.deepEqual(model.specular_maps, ['']);
        // One warning, naming the decl's file:line:col, the material and the image.
        const missing = s.warnings.filter((w) => w.includes('walker_s'));
        assert.equal(missing.length, 1, `warnings: ${JSON.stringify(s.warnings)}`);
        assert.match(missing[0], /^materials\/walker\.mtr:8:\d+: warning: material 'models\/walker\/walker': specular image 'models\/walker\/walker_s\.tga' not found/);
        assert.equal(model.material_warnings.length, 1);

        // Drawn: the model's box differs from the view without it, and shows the red map.
        await call(page, { cmd: 'ui', panels: false });
        await page.evaluate(() => window.md5stage.pause(0));
        await frames(page, 2);
        const rect = (await call(page, { cmd: 'screenBounds', instance: 0 })).rect;
        const withModel = await grab(page, ctx.screenshotPath('materials-drop-folder'));
        const box = grow(rect, 3);
        let reddish = 0;
        for (let y = Math.max(0, box[1]); y < Math.min(withModel.height, box[3]); y++) {
          for (let x = Math.max(0, box[0]); x < Math.min(withModel.width, box[2]); x++) {
            const i = (y * withModel.width + x) * 4;
            const [r, g, b] = [withModel.data[i], withModel.data[i + 1], withModel.data[i + 2]];
            if (r > 60 && r > 2 * g && r > 2 * b) reddish++;
          }
        }
        assert.ok(reddish > 0.05 * rectArea(rect), `only ${reddish} red pixels in the model's box of ${rectArea(rect)}`);

        // The missing image through the picker, as a loose file: found by base name, warning gone.
        await call(page, { cmd: 'ui', panels: true });
        await page.setInputFiles('#file-picker', [specular]);
        assert.ok(await waitUntil(page, () => window.md5stage.state().models[0].specular_maps[0] !== '', null, 10000),
                  'the specular map dropped later was not bound');
        s = await state(page);
        assert.deepEqual(s.models[0].specular_maps, ['walker_s.tga']);
        assert.deepEqual(s.models[0].material_warnings, []);
        await call(page, { cmd: 'ui', panels: false });
        await frames(page, 2);
        const stillDrawn = await grab(page, ctx.screenshotPath('materials-after-specular'));
        assert.ok((await call(page, { cmd: 'removeModel', model: 'walker' })).ok);
        await frames(page, 2);
        const without = await grab(page, ctx.screenshotPath('materials-without'));
        for (const [label, image] of [['with the warning', withModel], ['with every map', stillDrawn]]) {
          const changed = changedPixels(image, without, 24).filter(([x, y]) => inside(box, x, y)).length;
          assert.ok(changed > 0.08 * rectArea(rect), `${label}: only ${changed} of ${rectArea(rect)} pixels of the box show the model`);
        }
        assert.deepEqual(page.consoleErrors, []);
      } finally {
        await page.context().close();
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  },
  {
    // Catches: a Doom 3 mod folder (materials/*.mtr, _d/_local/_s TGAs under models/) that binds
    // only some of its maps, TGA normal or specular maps not decoded, the normal map not drawn.
    name: 'a Doom 3 mod folder of the walker with _d, _local and _s TGAs draws all three maps',
    async run(ctx) {
      const walker = path.join(ctx.site, 'assets/models/walker');
      if (!fs.existsSync(path.join(walker, 'walker.md5mesh'))) return { skipped: 'assets/models/walker missing in the site' };
      const { root, folder } = writeWalkerMod(ctx);
      const page = await emptyViewer(ctx);
      try {
        await dropPaths(page, [folder]);
        assert.ok(await waitUntil(page, () => window.md5stage.state().models.length >= 1, null, 15000), 'the dropped folder loaded nothing');
        const s = await state(page);
        assert.ok(!s.last_error, `load error: ${s.last_error}`);
        const model = s.models[0];
        assert.deepEqual(model.materials, ['models/walker/walker']);
        assert.deepEqual(model.textures, ['models/characters/walker/walker_d.tga']);
        assert.deepEqual(model.normal_maps, ['models/characters/walker/walker_local.tga']);
        assert.deepEqual(model.specular_maps, ['models/characters/walker/walker_s.tga']);
        assert.deepEqual(model.material_warnings, []);
        assert.deepEqual([...model.animations].sort(), ['idle', 'walk']);  // in the folder's order

        // Lit by the key light: the normal map and the specular map each change the model's pixels.
        await page.evaluate(() => window.md5stage.pause(0));
        await frames(page, 2);
        const rect = (await call(page, { cmd: 'screenBounds', instance: 0 })).rect;
        const box = grow(rect, 3);
        const shot = await grab(page, ctx.screenshotPath('doom3-mod-folder'));
        const inBox = (a, b) => changedPixels(a, b, 8).filter(([x, y]) => inside(box, x, y)).length;
        await call(page, { cmd: 'ui', panels: false });
        await frames(page, 2);
        const all = await grab(page);
        assert.ok((await call(page, { cmd: 'setShading', normalMaps: false })).ok);
        await frames(page, 2);
        const flat = await grab(page);
        assert.ok((await call(page, { cmd: 'setShading', normalMaps: true, specular: false })).ok);
        await frames(page, 2);
        const dull = await grab(page);
        const normalChanged = inBox(all, flat), specularChanged = inBox(all, dull);
        assert.ok(normalChanged > 0.02 * rectArea(rect), `the normal map changed ${normalChanged} pixels of ${rectArea(rect)}`);
        assert.ok(specularChanged > 0.005 * rectArea(rect), `the specular map changed ${specularChanged} pixels of ${rectArea(rect)}`);
        assert.ok(shot.width > 0);
        // The Model panel lists the part's material and its three maps (the closing note's picture).
        assert.ok((await call(page, { cmd: 'setShading', specular: true })).ok);
        await call(page, { cmd: 'ui', panels: true });
        await frames(page, 2);
        const { boxes } = await openModelPanel(page, ctx.screenshotPath('doom3-mod-folder-panel'));
        assert.ok(boxes.length >= 2, `the Model panel shows no buttons: ${JSON.stringify(boxes)}`);
        assert.deepEqual(page.consoleErrors, []);
        return { info: `normal map: ${normalChanged} px, specular: ${specularChanged} px of ${rectArea(rect)}` };
      } finally {
        await page.context().close();
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  },
];
