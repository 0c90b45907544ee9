// glTF in, MD5 out, as a person does it: a .glb (the walker's, made by the page's own "Download
// glTF" with its PNG) picked with the file picker in a fresh page shows as a model (its screen box
// differs from the empty view, state() lists it with its animations and the embedded image); the Model panel's "Download MD5" button, next to
// "Download glTF", saves the md5mesh and each md5anim as separate files that are MD5 version 10.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadFromServer } from './lib/harness.mjs';
import { call, changedPixels, clickAt, dropPaths, emptyViewer, frames, grab, grow, inside, openModelPanel, rectArea, state, waitUntil } from './lib/input.mjs';

const WALKER_FILES = ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim'];

export const tests = [
  {
    // Catches: .glb not taken by the picker or the library, an import that draws nothing or
    // loses the animations, no "Download MD5" button, downloads that are not MD5 text, the
    // material and image the .glb brought left behind.
    name: 'a .glb picked with the file picker shows as a model; "Download MD5" saves its files',
    async run(ctx) {
      if (!fs.existsSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'))) {
        return { skipped: 'assets/models/walker missing in the site: skipped' };
      }
      const exporter = await emptyViewer(ctx);
      // The .glb to drop: the walker with its PNG as the page's own exporter writes it.
      assert.deepEqual((await loadFromServer(exporter, [...WALKER_FILES, 'walker.png'].map((f) => `/assets/models/walker/${f}`))).errors, []);
      const [exported] = await Promise.all([
        exporter.waitForEvent('download', { timeout: 15000 }),
        exporter.evaluate(() => window.md5stage.exportGltf('walker')),
      ]);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md5stage-drop-'));
      const glbPath = path.join(dir, 'walker.glb');
      fs.copyFileSync(await exported.path(), glbPath);
      await exporter.context().close();
      // A fresh page, which has never seen walker.png: its texture can only come out of the .glb.
      const page = await emptyViewer(ctx);
      await call(page, { cmd: 'ui', panels: false });
      await page.mouse.move(1200, 700);
      await frames(page, 2);
      const empty = await grab(page, ctx.screenshotPath('gltf-drop-empty'));

      await page.setInputFiles('#file-picker', [glbPath]);
      assert.ok(await waitUntil(page, () => window.md5stage.state().models.length === 1, null, 10000),
                `the picked .glb loaded nothing: ${(await state(page)).last_error}`);
      let s = await state(page);
      assert.equal(s.models[0].name, 'walker');
      assert.deepEqual(s.models[0].animations, ['idle', 'walk']);
      assert.deepEqual(s.models[0].textures, ['walker.png'], 'the image embedded in the .glb is not bound');
      assert.deepEqual(s.models[0].materials, ['models/walker/walker'], 'the .mtr made from the .glb is not used');
      assert.equal(s.instances.length, 1);
      await page.evaluate(() => window.md5stage.pause(0));
      await frames(page, 2);
      const bounds = await call(page, { cmd: 'screenBounds', instance: 0 });
      assert.ok(bounds.ok, JSON.stringify(bounds));
      const shown = await grab(page, ctx.screenshotPath('gltf-drop-shown'));
      const box = grow(bounds.rect, 3);
      const inBox = changedPixels(shown, empty, 24).filter(([x, y]) => inside(box, x, y)).length;
      assert.ok(inBox > 0.08 * rectArea(bounds.rect),
                `only ${inBox} of ${rectArea(bounds.rect)} pixels of the model's box show the model`);

      // The Model panel opened; its second row of buttons is
      // "Download glTF" then "Download MD5".
      await call(page, { cmd: 'ui', panels: true });
      await frames(page, 2);
      const { boxes } = await openModelPanel(page, ctx.screenshotPath('gltf-drop-panel'));
      const rows = [];
      for (const b of boxes) {
        const row = rows.find((r) => Math.abs(r[0][1] - b[1]) <= 2);
        if (row) row.push(b); else rows.push([b]);
      }
      const pairs = rows.filter((r) => r.length === 2);
      assert.ok(pairs.length >= 2, `no two rows of two buttons in the Model panel: ${JSON.stringify(boxes)}`);
      const md5Button = pairs[1][1];

      const downloads = [];
      page.on('download', (d) => downloads.push(d));
      await clickAt(page, (md5Button[0] + md5Button[2]) / 2, (md5Button[1] + md5Button[3]) / 2);
      // Until all five have arrived, however slowly a loaded machine saves them (60 s is a hang).
      const deadline = Date.now() + 60000;
      while (downloads.length < 5 && Date.now() < deadline) await frames(page, 1);
      // The mesh and anims as MD5 text, the material made from the .glb and its image. Judged by
      // name: the page starts the five downloads in that order, but the browser reports each when
      // it has begun saving it, and two came in the other order on a loaded machine.
      const byName = new Map(downloads.map((d) => [d.suggestedFilename(), d]));
      assert.deepEqual([...byName.keys()].sort(),
                       ['idle.md5anim', 'walk.md5anim', 'walker.md5mesh', 'walker.mtr', 'walker.png'],
                       `downloads: ${downloads.map((d) => d.suggestedFilename()).join(', ')}`);
      assert.equal(downloads.length, byName.size, 'a file was saved twice');
      const saved = async (name, encoding) => fs.readFileSync(await byName.get(name).path(), encoding);
      for (const name of ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim']) {
        const text = await saved(name, 'latin1');
        assert.ok(text.startsWith('MD5Version 10'), `${name} starts ${JSON.stringify(text.slice(0, 20))}`);
      }
      assert.match(await saved('walker.mtr', 'utf8'), /diffusemap\twalker\.png/);
      assert.ok((await saved('walker.png')).equals(
        fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walker.png'))), 'walker.png is not the embedded image');
      const mesh = await saved('walker.md5mesh', 'latin1');
      assert.match(mesh, /numJoints \d+/);
      s = await state(page);
      assert.equal(s.models.length, 1, 'the click changed the loaded models');
      assert.deepEqual(page.consoleErrors, []);
      fs.rmSync(dir, { recursive: true, force: true });
      await page.context().close();
      return { info: `${downloads.length} files from the dropped walker.glb` };
    },
  },
  {
    // Catches: glTF from other exporters (a Blender .glb with a non-joint armature node, a
    // Khronos .gltf with data: URIs) refused or drawn as nothing when dropped from the desktop.
    name: 'glTF made by other tools, dragged from the desktop, shows as animated models',
    async run(ctx) {
      if (!ctx.hasShared) return { skipped: '../shared not found: skipped' };
      const files = ['gltf/RiggedSimple/RiggedSimple.glb', 'gltf/SimpleSkin/SimpleSkin.gltf'];
      const shown = [];
      for (const file of files) {
        const page = await emptyViewer(ctx);
        await call(page, { cmd: 'ui', panels: false });
        await page.mouse.move(1200, 700);
        const name = path.basename(file).replace(/\.[^.]+$/, '');
        // Dropped, looked at for 20 frames, then removed: the model's pixels are what differs
        // from the same view without it, its motion what differs between the two looks.
        const look = async () => {
          await dropPaths(page, [path.join(ctx.sharedDir, file)]);
          assert.ok(await waitUntil(page, () => window.md5stage.state().models.length === 1, null, 10000),
                    `${file} loaded nothing: ${(await state(page)).last_error}`);
          const s = await state(page);
          assert.equal(s.models[0].name, name);
          assert.ok(s.models[0].animations.length >= 1, `${file}: no animation (${JSON.stringify(s.models[0])})`);
          assert.equal(s.instances.length, 1);
          await frames(page, 2);
          const bounds = await call(page, { cmd: 'screenBounds', instance: 0 });
          assert.ok(bounds.ok, JSON.stringify(bounds));
          const box = grow(bounds.rect, 3);
          const first = await grab(page, ctx.screenshotPath(`gltf-other-${name}`));
          await frames(page, 20);
          const later = await grab(page);
          assert.ok((await call(page, { cmd: 'removeModel', model: name })).ok);
          await frames(page, 2);
          const without = await grab(page);
          const inBox = (a, b) => changedPixels(a, b, 24).filter(([x, y]) => inside(box, x, y)).length;
          return { visible: inBox(first, without), moved: inBox(later, first), area: rectArea(bounds.rect) };
        };
        let view = await look();
        // SimpleSkin is one single-sided sheet: from behind it is culled, as in any glTF viewer.
        // A person orbits round to the other side (a drag on the empty view) and drops it again.
        let turned = false;
        if (view.visible <= 0.05 * view.area) {
          const yaw0 = (await state(page)).camera.yaw;
          for (let i = 0; i < 30; ++i) {
            const yaw = (await state(page)).camera.yaw;
            if (Math.abs((((yaw - yaw0) % 360) + 360) % 360 - 180) < 20) break;  // half a turn
            await page.mouse.move(300, 650);
            await page.mouse.down();
            await page.mouse.move(360, 650, { steps: 4 });
            await page.mouse.up();
            await frames(page, 1);
          }
          turned = true;
          view = await look();
        }
        assert.ok(view.visible > 0.05 * view.area,
                  `${file}: only ${view.visible} of ${view.area} pixels of its box show it, from either side`);
        assert.ok(view.moved > 0, `${file}: nothing moved in its box over 20 frames`);
        assert.deepEqual(page.consoleErrors, []);
        shown.push(`${name}: ${view.visible} px, ${view.moved} moved${turned ? ' (seen from behind first)' : ''}`);
        await page.context().close();
      }
      return { info: shown.join('; ') };
    },
  },
];
