// "Download glTF" as a person uses it: the Model panel opened with the mouse, its "Download glTF"
// button found on screen (by its pixels) and clicked, the browser's download caught; the file is a
// binary glTF 2.0 that the Khronos glTF-Validator (npm gltf-validator) passes with 0 errors,
// holding the walker's animations and its PNG. The scripting API's md5stage.exportGltf gives the
// same bytes and names a wrong field without downloading anything. A Doom 3 mod folder's walker
// (TGA diffuse, normal and specular maps) exports its three maps as PNGs, and the .glb dropped on
// a fresh page draws as the folder did.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { loadFromServer } from './lib/harness.mjs';
import { writeWalkerMod } from './lib/doom3_folder.mjs';
import {
  buttonBoxes, call, changedPixels, clickAt, dropPaths, emptyViewer, frames, grab, grow, inside, openModelPanel,
  rectArea, state, waitUntil,
} from './lib/input.mjs';
import { decodePng } from './lib/png.mjs';

const WALKER_FILES = ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim', 'walker.png'];

// The GLB's header and chunks (glTF 2.0 spec, "Binary glTF Layout"); throws what is wrong.
function readGlb(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.ok(bytes.length >= 28, `a .glb of ${bytes.length} bytes is too short`);
  assert.equal(Buffer.from(bytes.subarray(0, 4)).toString('latin1'), 'glTF', 'GLB magic');
  assert.equal(view.getUint32(4, true), 2, 'GLB version');
  assert.equal(view.getUint32(8, true), bytes.length, 'GLB length field');
  const jsonLength = view.getUint32(12, true);
  assert.equal(view.getUint32(16, true), 0x4e4f534a, 'first chunk type (JSON)');
  const json = JSON.parse(Buffer.from(bytes.subarray(20, 20 + jsonLength)).toString('utf8'));
  const binAt = 20 + jsonLength;
  assert.equal(view.getUint32(binAt + 4, true), 0x004e4942, 'second chunk type (BIN)');
  const bin = bytes.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true));
  return { json, bin };
}

async function validate(ctx, bytes) {
  const require = createRequire(path.join(ctx.sourceDir, 'tests/browser/package.json'));
  const validator = require('gltf-validator');
  const result = await validator.validateBytes(new Uint8Array(bytes), { uri: 'walker.glb', maxIssues: 0 });
  const errors = result.issues.messages.filter((m) => m.severity === 0);
  assert.equal(result.issues.numErrors, 0,
               `glTF-Validator: ${result.issues.numErrors} errors: ${JSON.stringify(errors.slice(0, 5))}`);
  return result;
}

async function downloadedBytes(download) {
  const file = await download.path();
  return new Uint8Array(fs.readFileSync(file));
}

export const tests = [
  {
    // Catches: no button, a button whose download never reaches the browser (bytes not handed to
    // the page, a Blob of the wrong memory), a .glb that is not valid glTF or lacks the animations
    // or the image, and a scripting call that differs from the button.
    name: '"Download glTF" in the Model panel saves a valid walker.glb with its animations',
    async run(ctx) {
      if (!fs.existsSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'))) {
        return { skipped: 'assets/models/walker missing in the site: skipped' };
      }
      const page = await emptyViewer(ctx);
      const loaded = await loadFromServer(page, WALKER_FILES.map((f) => `/assets/models/walker/${f}`));
      assert.deepEqual(loaded.errors, []);
      await page.mouse.move(1200, 700);  // away from the panels: nothing hovered
      await frames(page, 2);

      const before = await grab(page);
      const { panel, boxes } = await openModelPanel(page, ctx.screenshotPath('gltf-model-panel'));
      // Buttons of the walker's section: "Add instance" and "Remove model" side by side, and
      // "Download glTF" alone on the row below, starting where "Add instance" starts.
      const pairRow = boxes.findIndex((b, i) => i + 1 < boxes.length &&
        Math.abs(boxes[i + 1][1] - b[1]) <= 2 && boxes[i + 1][0] > b[2]);
      assert.ok(pairRow >= 0, `no "Add instance" / "Remove model" buttons found: ${JSON.stringify(boxes)}`);
      const addInstance = boxes[pairRow];
      const button = boxes.find((b) => b[1] > addInstance[3] && Math.abs(b[0] - addInstance[0]) <= 2);
      assert.ok(button, `no button below "Add instance": ${JSON.stringify(boxes)}`);
      assert.ok(buttonBoxes(before, panel).length === 0, 'buttons were visible before the panel opened');

      const modelsBefore = (await state(page)).models.length;
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 15000 }),
        clickAt(page, (button[0] + button[2]) / 2, (button[1] + button[3]) / 2),
      ]);
      assert.equal(download.suggestedFilename(), 'walker.glb');
      const bytes = await downloadedBytes(download);
      const { json, bin } = readGlb(bytes);
      assert.deepEqual(json.animations.map((a) => a.name), ['idle', 'walk']);
      assert.equal(json.skins.length, 1);
      assert.equal(json.images.length, 1);
      assert.equal(json.images[0].mimeType, 'image/png');
      const view = json.bufferViews[json.images[0].bufferView];
      const png = fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walker.png'));
      assert.ok(Buffer.from(bin.subarray(view.byteOffset || 0, (view.byteOffset || 0) + view.byteLength)).equals(png),
                'the embedded image is not walker.png byte for byte');
      const report = await validate(ctx, bytes);
      const s = await state(page);
      assert.equal(s.models.length, modelsBefore, 'the click changed the loaded models');
      assert.match(s.status, /^walker\.glb: \d+ bytes, 2 animation\(s\), 1 image\(s\)$/);

      // The same through the scripting API: the same file, the same bytes.
      const [scripted, reply] = await Promise.all([
        page.waitForEvent('download', { timeout: 15000 }),
        page.evaluate(() => window.md5stage.exportGltf('walker')),
      ]);
      assert.equal(reply.ok, true, JSON.stringify(reply));
      assert.equal(reply.bytes, bytes.length);
      assert.equal(scripted.suggestedFilename(), 'walker.glb');
      assert.ok(Buffer.from(await downloadedBytes(scripted)).equals(Buffer.from(bytes)),
                'md5stage.exportGltf gave other bytes than the button');

      // A wrong field is named, and nothing is downloaded.
      let stray = null;
      page.on('download', (d) => { stray = d; });
      const wrong = await page.evaluate(() => window.md5stage.exportGltf('nosuch'));
      assert.equal(wrong.ok, false);
      assert.equal(wrong.error, 'exportGltf.model: expected a loaded model (walker), found "nosuch"');
      const missing = await page.evaluate(() => window.md5stage.call({ cmd: 'exportGltf' }));
      assert.match(missing.error, /^exportGltf\.model: .*found nothing \(the field is missing\)$/);
      await frames(page, 3);
      assert.equal(stray, null, 'a failed exportGltf downloaded a file');
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
      return { info: `walker.glb ${bytes.length} bytes, validator ${report.issues.numWarnings} warnings` };
    },
  },

  {
    // Catches: TGA maps left out of the export, a normal map whose green (or tangent sign) is in
    // the wrong convention either way (export or import), maps lost between export and import,
    // a specular map the glTF cannot carry.
    name: 'a Doom 3 mod folder exported as glTF and dropped on a fresh page draws as the folder did',
    async run(ctx) {
      if (!fs.existsSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'))) {
        return { skipped: 'assets/models/walker missing in the site: skipped' };
      }
      const { root, folder } = writeWalkerMod(ctx);
      const pages = [];
      try {
        // What the page shows: the walker paused at 0.5 s of its first animation, without panels,
        // from one camera (each page frames its model from its animations' bounds, which the round
        // trip recomputes: a hair's difference would shift every texel).
        let camera = null;
        const look = async (page, name) => {
          await page.evaluate(() => window.md5stage.pause(0));
          await page.evaluate(() => window.md5stage.setTime(0, 0.5));
          await call(page, { cmd: 'ui', panels: false });
          if (!camera) camera = (await state(page)).camera;
          const { target, yaw, pitch, distance } = camera;
          assert.ok((await call(page, { cmd: 'camera', target, yaw, pitch, distance })).ok);
          await frames(page, 3);
          const rect = (await call(page, { cmd: 'screenBounds', instance: 0 })).rect;
          return { rect, shot: await grab(page, ctx.screenshotPath(name)) };
        };
        const original = await emptyViewer(ctx);
        pages.push(original);
        await dropPaths(original, [folder]);
        assert.ok(await waitUntil(original, () => window.md5stage.state().models.length >= 1), 'the folder loaded nothing');
        const before = await look(original, 'gltf-maps-folder');
        assert.ok((await call(original, { cmd: 'setShading', normalMaps: false })).ok);
        await frames(original, 2);
        const flat = await grab(original);
        assert.ok((await call(original, { cmd: 'setShading', normalMaps: true })).ok);

        const [download, reply] = await Promise.all([
          original.waitForEvent('download', { timeout: 15000 }),
          original.evaluate(() => window.md5stage.exportGltf('walker')),
        ]);
        assert.equal(reply.ok, true, JSON.stringify(reply));
        assert.deepEqual(reply.warnings, []);
        assert.equal(reply.images, 3);
        const bytes = await downloadedBytes(download);
        const { json } = readGlb(bytes);
        assert.deepEqual(json.images.map((i) => [i.name, i.mimeType]),
                         [['walker_d.png', 'image/png'], ['walker_local.png', 'image/png'], ['walker_s.png', 'image/png']]);
        const material = json.materials[0];
        assert.ok(material.pbrMetallicRoughness.baseColorTexture && material.normalTexture, JSON.stringify(material));
        assert.ok(material.extensions?.KHR_materials_specular?.specularColorTexture, JSON.stringify(material));
        assert.ok(json.meshes[0].primitives[0].attributes.TANGENT !== undefined, 'no TANGENT');
        const report = await validate(ctx, bytes);
        // The diffuse PNG holds the TGA's pixels (the folder's TGA was made from walker.png).
        const { bin } = readGlb(bytes);
        const view = json.bufferViews[json.images[0].bufferView];
        const embedded = decodePng(Buffer.from(bin.subarray(view.byteOffset || 0, (view.byteOffset || 0) + view.byteLength)));
        const walkerPng = decodePng(fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walker.png')));
        assert.ok(Buffer.from(embedded.data).equals(Buffer.from(walkerPng.data)), 'the embedded diffuse has other pixels');

        const glb = path.join(root, 'walker.glb');
        fs.writeFileSync(glb, bytes);
        const fresh = await emptyViewer(ctx);
        pages.push(fresh);
        await dropPaths(fresh, [glb]);
        assert.ok(await waitUntil(fresh, () => window.md5stage.state().models.length >= 1), 'the .glb loaded nothing');
        const s = await state(fresh);
        assert.ok(!s.last_error, `load error: ${s.last_error}`);
        assert.equal(s.models[0].textures.length, 1);
        assert.ok(s.models[0].normal_maps[0] && s.models[0].specular_maps[0], JSON.stringify(s.models[0]));
        const after = await look(fresh, 'gltf-maps-roundtrip');

        // The same picture (measured: 3 pixels differ, by one level): far fewer pixels differ than
        // the normal map alone changes.
        const box = grow(before.rect, 3);
        const inBox = (a, b) => changedPixels(a, b, 8).filter(([x, y]) => inside(box, x, y)).length;
        const byNormalMap = inBox(before.shot, flat);
        const byRoundTrip = inBox(before.shot, after.shot);
        assert.ok(byNormalMap > 0.02 * rectArea(before.rect), `the normal map changed only ${byNormalMap} pixels`);
        assert.ok(byRoundTrip < 0.01 * byNormalMap,
                  `the round trip changed ${byRoundTrip} pixels, the normal map ${byNormalMap}, of ${rectArea(before.rect)}`);
        for (const page of pages) assert.deepEqual(page.consoleErrors, []);
        return { info: `${bytes.length} bytes, validator ${report.issues.numWarnings} warnings; pixels changed: round trip ${byRoundTrip}, normal map ${byNormalMap} of ${rectArea(before.rect)}` };
      } finally {
        for (const page of pages) await page.context().close();
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  },
];
