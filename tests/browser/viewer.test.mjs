// The viewer over the MD5 core: dropped models load with their animations and textures, draw as
// skinned figures, scrub, carry attachments, and bad files leave the scene as it was.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadFromServer, newPage, openViewer, waitFrames } from './lib/harness.mjs';
import { countDifferentPixels, decodePng } from './lib/png.mjs';

const BONES = ['model.md5mesh', 'diffuse.png', 'animation/idle.md5anim', 'animation/run_N.md5anim',
               'animation/jump.md5anim'].map((f) => `/shared/md5/imprimis_bones/${f}`);

async function emptyViewer(ctx) {
  const page = await newPage(ctx.browser);
  await openViewer(page, ctx.baseUrl + '?scene=none');
  return page;
}

function skipWithoutShared(ctx) {
  return ctx.hasShared ? null : { skipped: '../shared not found: skipped' };
}

export const tests = [
  {
    name: 'dropping imprimis_bones shows the textured figure with its animations',
    async run(ctx) {
      const skip = skipWithoutShared(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx);
      await waitFrames(page, 2);
      const before = decodePng(await page.screenshot());
      const reply = await loadFromServer(page, BONES);
      assert.deepEqual(reply.errors, []);
      await waitFrames(page, 3);
      const state = await page.evaluate(() => window.md5stage.state());
      const model = state.models.find((m) => m.name === 'model');
      assert.ok(model, 'model not loaded');
      assert.equal(model.joints, 59);
      assert.equal(model.vertices, 3189);
      assert.deepEqual(model.animations.sort(), ['idle', 'jump', 'run_N']);
      assert.ok(model.textures.includes('diffuse.png'), 'texture not matched');
      await page.evaluate(() => window.md5stage.pause(0));
      const png = await page.screenshot({ path: ctx.screenshotPath('viewer-imprimis') });
      const after = decodePng(png);
      const rect = await page.evaluate(() => window.md5stage.call({ cmd: 'screenBounds', instance: 0 }));
      assert.ok(rect.ok, JSON.stringify(rect));
      const changed = countDifferentPixels(before, after, 24, rect.rect);
      const area = (rect.rect[2] - rect.rect[0]) * (rect.rect[3] - rect.rect[1]);
      assert.ok(changed > 0.15 * area, `only ${changed} of ${area} pixels changed inside the model's bounds`);
      // Scrubbing changes the pose.
      const hand = async () => (await page.evaluate(() => window.md5stage.jointWorld(0, 'tag_weapon'))).matrix.slice(12, 15);
      await page.evaluate(() => window.md5stage.setAnimation(0, 'run_N', 0));
      await page.evaluate(() => window.md5stage.pause(0));
      await page.evaluate(() => window.md5stage.setTime(0, 0.0));
      const h0 = await hand();
      await page.evaluate(() => window.md5stage.setTime(0, 0.3));
      const h1 = await hand();
      assert.ok(Math.hypot(h0[0] - h1[0], h0[1] - h1[1], h0[2] - h1[2]) > 1e-3, 'pose did not change');
      await waitFrames(page, 2);
      await page.screenshot({ path: ctx.screenshotPath('viewer-imprimis-run') });
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    name: 'a railgun attached to tag_weapon follows the joint',
    async run(ctx) {
      const skip = skipWithoutShared(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx);
      await loadFromServer(page, BONES);
      await loadFromServer(page, ['/shared/md5/imprimis_railgun/model.md5mesh']);
      let state = await page.evaluate(() => window.md5stage.state());
      const railgun = state.models[state.models.length - 1].name;
      const attached = await page.evaluate((name) => window.md5stage.attach(0, name, 'tag_weapon'), railgun);
      assert.ok(attached.ok, JSON.stringify(attached));
      await page.evaluate(() => window.md5stage.setAnimation(0, 'run_N', 0));
      const samples = [];
      for (let i = 0; i < 4; i++) {
        await waitFrames(page, 2);
        state = await page.evaluate(() => window.md5stage.state());
        const a = state.instances[0].attachments[0];
        const joint = (await page.evaluate(() => window.md5stage.jointWorld(0, 'tag_weapon'))).matrix.slice(12, 15);
        samples.push({ node: a.node_world, joint_state: a.joint_world, joint });
      }
      for (const s of samples) {
        // The attachment node sits on the joint (zero offset): same point as the core's joint world.
        assert.ok(Math.hypot(s.node[0] - s.joint_state[0], s.node[1] - s.joint_state[1], s.node[2] - s.joint_state[2]) < 1e-4);
      }
      const moved = Math.hypot(samples[0].node[0] - samples[3].node[0], samples[0].node[1] - samples[3].node[1],
                               samples[0].node[2] - samples[3].node[2]);
      assert.ok(moved > 1e-3, 'the attachment did not move while the character ran');
      await page.screenshot({ path: ctx.screenshotPath('viewer-attach') });
      await page.context().close();
    },
  },
  {
    name: 'broken files are reported and the loaded model keeps animating',
    async run(ctx) {
      const skip = skipWithoutShared(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx);
      await loadFromServer(page, BONES);
      await page.evaluate(() => window.md5stage.setAnimation(0, 'run_N', 0));  // idle is one frame
      const broken = fs.readdirSync(path.join(ctx.sharedDir, 'md5/assimp_invalid'))
        .filter((f) => f.endsWith('.md5mesh')).map((f) => `/shared/md5/assimp_invalid/${f}`);
      const cases = broken.map((p) => ({ label: p, files: [p] }));
      const meshText = fs.readFileSync(path.join(ctx.sharedDir, 'md5/imprimis_bones/model.md5mesh'), 'latin1');
      cases.push({ label: 'truncated mesh', inline: [{ name: 'truncated.md5mesh', bytes: meshText.slice(0, 5000) }] });
      const random = Array.from({ length: 4096 }, (_, i) => String.fromCharCode((i * 7919 + 13) % 251));
      cases.push({ label: 'random bytes', inline: [{ name: 'random.md5mesh', bytes: random.join('') }] });
      cases.push({ label: 'empty file', inline: [{ name: 'empty.md5anim', bytes: '' }] });
      for (const c of cases) {
        const before = await page.evaluate(() => window.md5stage.state());
        const reply = c.files ? await loadFromServer(page, c.files)
                              : await page.evaluate((files) => window.md5stage.loadFiles(files), c.inline);
        assert.equal(reply.ok, false, `${c.label} was accepted`);
        assert.ok(reply.errors.length > 0 && /error/.test(reply.errors[0]), `${c.label}: ${JSON.stringify(reply)}`);
        const after = await page.evaluate(() => window.md5stage.state());
        assert.equal(after.models.length, before.models.length, `${c.label} changed the models`);
        assert.ok(after.last_error, `${c.label}: no error shown`);
        const t0 = after.instances[0].time;
        // Frames, not milliseconds: software WebGL under load can take longer than 200 ms a frame.
        // Three, not two: run_N lasts 0.5 s, and two frames slower than the 0.25 s step limit
        // advance it by exactly one loop, to the same time.
        await waitFrames(page, 3);
        const t1 = (await page.evaluate(() => window.md5stage.state())).instances[0].time;
        assert.notEqual(t0, t1, `${c.label}: the model stopped animating`);
      }
      await page.screenshot({ path: ctx.screenshotPath('viewer-error') });
      await page.context().close();
    },
  },
  {
    name: 'GPU skinning (transform feedback) equals the core CPU skinning',
    async run(ctx) {
      const skip = skipWithoutShared(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx);
      await loadFromServer(page, BONES);
      const check = () => page.evaluate(() => window.md5stage.call({ cmd: 'gpuSkinCheck', instance: 0 }));
      // Bind pose, then a frame of an animation.
      await page.evaluate(() => window.md5stage.setAnimation(0, null));
      const bind = await check();
      assert.ok(bind.ok, JSON.stringify(bind));
      assert.equal(bind.vertices, 3189);
      assert.ok(bind.max_weights_per_vertex > 4, 'this model should have more than 4 influences');
      // More than 4 influences: the GPU keeps 4, so the bound is the core's top-4 error plus 1e-4.
      const bound = (r) => r.top4_error + 1e-4 * r.extent;
      assert.ok(bind.max_error <= bound(bind), `bind pose: ${bind.max_error} > ${bound(bind)}`);
      await page.evaluate(() => { window.md5stage.setAnimation(0, 'run_N', 0); window.md5stage.pause(0); window.md5stage.setTime(0, 0.21); });
      const frame = await check();
      assert.ok(frame.ok, JSON.stringify(frame));
      assert.ok(frame.max_error <= bound(frame), `run_N: ${frame.max_error} > ${bound(frame)}`);
      // Tangents: skinned by the same shader; with more than 4 influences the GPU keeps 4, so only
      // the bitangent signs must agree exactly here.
      for (const [label, r] of [['bind', bind], ['run_N', frame]]) {
        console.log(`  bones ${label}: GPU vs CPU tangents max ${r.max_tangent_error}, sign mismatches ${r.tangent_sign_mismatches}`);
        assert.equal(r.tangent_sign_mismatches, 0, `${label}: bitangent signs differ`);
      }
      // A model with at most 4 influences per vertex: the GPU path is exact to float precision.
      const walker = fs.existsSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'));
      if (walker) {
        const reply = await loadFromServer(page, ['/assets/models/walker/walker.md5mesh', '/assets/models/walker/walk.md5anim']);
        assert.deepEqual(reply.errors, []);
        const state = await page.evaluate(() => window.md5stage.state());
        const index = state.instances.length - 1;
        await page.evaluate((i) => { window.md5stage.pause(i); window.md5stage.setTime(i, 0.4); }, index);
        const exact = await page.evaluate((i) => window.md5stage.call({ cmd: 'gpuSkinCheck', instance: i }), index);
        assert.ok(exact.max_weights_per_vertex <= 4);
        assert.ok(exact.max_error <= 1e-4 * exact.extent, `walker: ${exact.max_error} > ${1e-4 * exact.extent}`);
        // At most 4 influences: the GPU tangents equal the CPU reference to float precision.
        console.log(`  walker: GPU vs CPU tangents max ${exact.max_tangent_error}, sign mismatches ${exact.tangent_sign_mismatches}`);
        assert.ok(exact.max_tangent_error <= 1e-4, `walker tangents: ${exact.max_tangent_error} > 1e-4`);
        assert.equal(exact.tangent_sign_mismatches, 0);
      }
      await page.context().close();
    },
  },
  {
    name: 'a TGA texture dropped with a mesh is decoded in C++ and matched by the shader name',
    async run(ctx) {
      if (!fs.existsSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'))) {
        return { skipped: 'assets/models/walker missing: skipped' };
      }
      const page = await emptyViewer(ctx);
      // An uncompressed 24-bit 4x4 TGA, all red (BGR order), named after the shader's base name.
      const tga = new Uint8Array(18 + 16 * 3);
      tga.set([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 4, 0, 24, 0]);
      for (let i = 0; i < 16; i++) tga.set([0, 0, 255], 18 + i * 3);
      const mesh = fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'), 'latin1');
      const reply = await page.evaluate(([meshText, tgaBytes]) => window.md5stage.loadFiles([
        { name: 'walker.md5mesh', bytes: meshText }, { name: 'WALKER.TGA', bytes: new Uint8Array(tgaBytes) }]),
        [mesh, Array.from(tga)]);
      assert.deepEqual(reply.errors, []);
      assert.equal(reply.textures, 1);
      const state = await page.evaluate(() => window.md5stage.state());
      assert.deepEqual(state.models[0].textures, ['WALKER.TGA']);
      await waitFrames(page, 3);
      const image = decodePng(await page.screenshot({ path: ctx.screenshotPath('viewer-tga') }));
      const rect = (await page.evaluate(() => window.md5stage.call({ cmd: 'screenBounds', instance: 0 }))).rect;
      let red = 0;
      for (let y = Math.max(0, rect[1]); y < Math.min(image.height, rect[3]); y++) {
        for (let x = Math.max(0, rect[0]); x < Math.min(image.width, rect[2]); x++) {
          const i = (y * image.width + x) * 4;
          if (image.data[i] > 60 && image.data[i] > 3 * image.data[i + 1] && image.data[i] > 3 * image.data[i + 2]) red++;
        }
      }
      const area = (rect[2] - rect[0]) * (rect[3] - rect[1]);
      assert.ok(red > 0.1 * area, `only ${red} red pixels of ${area}: the TGA texture is not shown`);
      await page.context().close();
    },
  },
];
