// Hostile drops: truncated files, random bytes, empty files, absurd header counts, an animation
// that would need gigabytes once loaded, an animation of another skeleton, a PNG renamed to
// .md5mesh, an oversized file, and issue 28's limits (a glTF nested 200,000 deep, image headers
// claiming 60000² and 65535², a camera of 2^31 frames). Each is refused with its own message (the ones README's
// Troubleshooting lists), the scene that was playing keeps animating, and state() shows nothing
// lost; the wasm heap does not grow on refused input.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newPage, openViewer, waitFrames } from './lib/harness.mjs';

// Deterministic bytes (xorshift32), so a failure names an input that can be reproduced.
function randomBytes(count, seed) {
  const bytes = new Uint8Array(count);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

const text = (s) => new TextEncoder().encode(s);

// A valid two-joint animation: it parses, but fits no bundled model.
const TWO_JOINT_ANIM = `MD5Version 10
commandline ""
numFrames 2
numJoints 2
frameRate 10
numAnimatedComponents 0
hierarchy {
  "root" -1 0 0
  "child" 0 0 0
}
bounds {
  ( -1 -1 -1 ) ( 1 1 1 )
  ( -1 -1 -1 ) ( 1 1 1 )
}
baseframe {
  ( 0 0 0 ) ( 0 0 0 )
  ( 0 0 1 ) ( 0 0 0 )
}
frame 0 {
}
frame 1 {
}
`;

// A frame may hold no value per joint, so joints x frames transforms cost the file almost nothing.
function jointFramesBomb(joints, frames) {
  const lines = ['MD5Version 10', 'commandline ""', `numFrames ${frames}`, `numJoints ${joints}`,
                 'frameRate 24', 'numAnimatedComponents 0', 'hierarchy {', '"j0" -1 0 0'];
  for (let j = 1; j < joints; j++) lines.push(`"j${j}" 0 0 0`);
  lines.push('}', 'bounds {');
  for (let f = 0; f < frames; f++) lines.push('(0 0 0)(0 0 0)');
  lines.push('}', 'baseframe {');
  for (let j = 0; j < joints; j++) lines.push('(0 0 0)(0 0 0)');
  lines.push('}');
  for (let f = 0; f < frames; f++) lines.push(`frame ${f} {}`);
  return lines.join('\n') + '\n';
}

// JSON nested `depth` arrays deep, which a recursive reader (tinygltf's) follows off its stack.
function nestedGltf(depth) {
  return `{"asset":{"version":"2.0"},"extras":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

// A .glb holding `json` as its one chunk (little-endian header and chunk length).
function glbOf(json) {
  const body = text(json);
  const bytes = new Uint8Array(20 + body.length);
  const view = new DataView(bytes.buffer);
  bytes.set(text('glTF'), 0);
  view.setUint32(4, 2, true);
  view.setUint32(8, bytes.length, true);
  view.setUint32(12, body.length, true);
  bytes.set(text('JSON'), 16);
  bytes.set(body, 20);
  return bytes;
}

// Image headers that claim far more pixels than the few bytes after them.
function pngClaiming(width, height) {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);  // 8-bit RGBA; the CRC left zero
  return bytes;
}

function tgaClaiming(side) {
  const bytes = new Uint8Array(18 + 16).fill(0x7f);
  bytes.set([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0);  // uncompressed true-colour
  new DataView(bytes.buffer).setUint16(12, side, true);
  new DataView(bytes.buffer).setUint16(14, side, true);
  bytes[16] = 32;
  bytes[17] = 8;
  return bytes;
}

function ddsClaiming(side) {
  const bytes = new Uint8Array(128 + 16);
  const view = new DataView(bytes.buffer);
  bytes.set(text('DDS '), 0);
  view.setUint32(4, 124, true);
  view.setUint32(12, side, true);
  view.setUint32(16, side, true);
  view.setUint32(76, 32, true);
  view.setUint32(80, 4, true);  // a four-cc
  bytes.set(text('DXT1'), 84);
  return bytes;
}

const CAMERA_OF_2_POW_31_FRAMES = `MD5Version 10
commandline ""

numFrames 2147483648
frameRate 24
numCuts 0

cuts {
}

camera {
	( 0 0 10 ) ( 0 0 0 ) 90
}
`;

// Each case: the files dropped together, and what the first error must say.
function hostileCases(site) {
  const asset = (p) => new Uint8Array(fs.readFileSync(path.join(site, 'assets', p)));
  const mesh = asset('models/walker/walker.md5mesh');
  const anim = asset('models/walker/walk.md5anim');
  const png = asset('models/walker/walker.png');
  // glTF whose animation would cost past the import's bounds (issue 44): refused from the keys'
  // times before any frame is sampled, naming the animation, never a file the viewer made.
  const regression = (name) => new Uint8Array(fs.readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), '../core/convert/regressions', name)));
  return [
    { label: 'a glTF key 100 hours out', files: [{ name: 'key_at_100_hours.gltf', bytes: regression('key_at_100_hours.gltf') }],
      error: /^key_at_100_hours\.gltf: error: animations\[0\]: 360000 s at 2 fps make 720001 frames of 2 joints = 168 MB of md5anim, expected at most 16 MB \(the import's bound\)$/ },
    { label: 'glTF keys 500,000 s apart', files: [{ name: 'keys_500000_s_apart.gltf', bytes: regression('keys_500000_s_apart.gltf') }],
      error: /^keys_500000_s_apart\.gltf: error: animations\[0\]: 1500000 s at 30 fps make 45000001 frames, expected at most 1048576 \(md5 limit\)$/ },
    { label: 'truncated mesh', files: [{ name: 'cut.md5mesh', bytes: mesh.slice(0, Math.floor(mesh.length / 3)) }],
      error: /^cut\.md5mesh:\d+:\d+: error: expected .*, found (end of file|'[^']*')/ },
    { label: 'truncated anim', files: [{ name: 'cut.md5anim', bytes: anim.slice(0, Math.floor(anim.length / 2)) }],
      error: /^cut\.md5anim:\d+:\d+: error: expected .*, found (end of file|'[^']*')/ },
    { label: 'random bytes as a mesh', files: [{ name: 'noise.md5mesh', bytes: randomBytes(65536, 9) }],
      error: /^noise\.md5mesh:1:\d+: error: expected 'MD5Version', found '[^']*'$/ },
    { label: 'random bytes as an anim', files: [{ name: 'noise.md5anim', bytes: randomBytes(4096, 77) }],
      error: /^noise\.md5anim:1:\d+: error: expected 'MD5Version', found '[^']*'$/ },
    { label: '0-byte mesh', files: [{ name: 'empty.md5mesh', bytes: new Uint8Array(0) }],
      error: /^empty\.md5mesh:1:1: error: expected 'MD5Version', found end of file$/ },
    { label: '0-byte anim', files: [{ name: 'empty.md5anim', bytes: new Uint8Array(0) }],
      error: /^empty\.md5anim:1:1: error: expected 'MD5Version', found end of file$/ },
    { label: 'absurd joint count for the file size',
      files: [{ name: 'absurd.md5mesh', bytes: text('MD5Version 10\ncommandline ""\nnumJoints 60000\nnumMeshes 1\njoints {\n') }],
      error: /^absurd\.md5mesh:3:11: error: expected numJoints of at most \d+ \(what the \d+ bytes left in the file can hold\), found '60000'$/ },
    { label: 'vertex count above the loader limit',
      files: [{ name: 'huge.md5mesh', bytes: text('MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes 1\njoints {\n"a" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\nshader "s"\nnumverts 4294967295\n') }],
      error: /^huge\.md5mesh:10:10: error: expected numverts of at most 16777216 \(the loader's limit\), found '4294967295'$/ },
    { label: 'absurd frame count',
      files: [{ name: 'long.md5anim', bytes: text('MD5Version 10\ncommandline ""\nnumFrames 1048576\nnumJoints 65535\nframeRate 24\nnumAnimatedComponents 393210\nhierarchy {\n') }],
      error: /^long\.md5anim:3:11: error: expected numFrames of at most \d+ \(what the \d+ bytes left in the file can hold\), found '1048576'$/ },
    { label: 'an anim that would need gigabytes once loaded (20000 joints x 2000 frames in 646 KB)',
      files: [{ name: 'bomb.md5anim', text: jointFramesBomb(20000, 2000) }],
      error: /^bomb\.md5anim:3:11: error: expected numJoints x numFrames of at most 4194304 \(the loader's limit\), found 20000 x 2000 = 40000000$/ },
    { label: 'an anim of another skeleton', files: [{ name: 'other.md5anim', bytes: text(TWO_JOINT_ANIM) }],
      error: /^other\.md5anim:4: error: expected the \d+ joints of walker\.md5mesh, found 2 joints \(other\.md5anim does not fit walker\.md5mesh\)$/ },
    { label: 'a PNG named .md5mesh', files: [{ name: 'picture.md5mesh', bytes: png }],
      error: /^picture\.md5mesh:1:1: error: expected 'MD5Version', found '\?PNG'$/ },
    // Issue 28's limits, each checked before the work it bounds, each named in the message.
    { label: 'a glTF nested 200,000 arrays deep', files: [{ name: 'deep.gltf', text: nestedGltf(200000) }],
      error: /^deep\.gltf:1:100: error: expected JSON nested at most 64 arrays and objects deep \(the limit\), found deeper$/ },
    { label: 'a .glb whose JSON is nested 200,000 deep', files: [{ name: 'deep.glb', bytes: glbOf(nestedGltf(200000)) }],
      error: /^deep\.glb: error: JSON chunk at byte 99: expected JSON nested at most 64 arrays and objects deep \(the limit\), found deeper$/ },
    { label: 'a PNG header claiming 60000 x 60000', files: [{ name: 'walker.png', bytes: pngClaiming(60000, 60000) }],
      error: /^walker\.png: error: image of 60000 x 60000 is larger than 8192 pixels a side$/ },
    { label: 'a TGA header claiming 65535 x 65535 with 16 bytes of data', files: [{ name: 'walker.tga', bytes: tgaClaiming(65535) }],
      error: /^walker\.tga: error: image of 65535 x 65535 is larger than 8192 pixels a side$/ },
    { label: 'a DDS header claiming 65535 x 65535 with 16 bytes of data', files: [{ name: 'walker.dds', bytes: ddsClaiming(65535) }],
      error: /^walker\.dds: error: image of 65535 x 65535 is larger than 8192 pixels a side \(or empty\)$/ },
    { label: 'an .md5camera claiming 2^31 frames', files: [{ name: 'long.md5camera', text: CAMERA_OF_2_POW_31_FRAMES }],
      error: /^long\.md5camera:4:11: error: expected numFrames of at most 1048576 \(the loader's limit\), found '2147483648'$/ },
    { label: 'a file over the size limit', files: [{ name: 'big.md5mesh', size: 300 * 1024 * 1024, bytes: new Uint8Array(0) }],
      error: /^big\.md5mesh: error: file of 314572800 bytes is larger than the \d+ byte limit$/ },
  ];
}

// What must survive a refused drop: the models with their animations, and every instance.
function essentials(state) {
  return {
    models: state.models.map((m) => ({ name: m.name, joints: m.joints, vertices: m.vertices, animations: m.animations, textures: m.textures })),
    instances: state.instances.map((i) => ({ label: i.label, model: i.model, playing: i.playing })),
    routes: (state.routes || []).length,
  };
}

// Text travels as a string (loadFiles encodes it as UTF-8), bytes as an array of numbers.
async function loadInline(page, files) {
  return page.evaluate((list) => window.md5stage.loadFiles(list.map((f) => ({
    name: f.name, size: f.size, bytes: f.text !== undefined ? f.text : new Uint8Array(f.bytes),
  }))), files.map((f) => (f.text !== undefined ? { name: f.name, text: f.text }
    : { name: f.name, size: f.size, bytes: Array.from(f.bytes) })));
}

async function defaultScene(ctx) {
  const page = await newPage(ctx.browser);
  await openViewer(page, ctx.baseUrl);
  const opened = await page.evaluate(() => window.md5stage.opened);
  assert.ok(opened.ok, `the default scene did not open: ${JSON.stringify(opened)}`);
  await waitFrames(page, 2);
  return page;
}

export const tests = [
  {
    name: 'hostile drops each give their message; the playing scene keeps animating and loses nothing',
    async run(ctx) {
      const page = await defaultScene(ctx);
      const before = await page.evaluate(() => window.md5stage.state());
      assert.ok(before.models.length > 0 && before.instances.length > 0, 'the default scene has nothing to watch');
      const kept = essentials(before);
      const heapBefore = await page.evaluate(() => Module.HEAPU8.length);
      for (const c of hostileCases(ctx.site)) {
        const start = await page.evaluate(() => window.md5stage.state());
        const reply = await loadInline(page, c.files);
        assert.equal(reply.ok, false, `${c.label} was accepted: ${JSON.stringify(reply)}`);
        assert.equal(reply.errors.length, 1, `${c.label}: ${JSON.stringify(reply.errors)}`);
        assert.deepEqual(reply.warnings, [], `${c.label}: ${JSON.stringify(reply.warnings)}`);
        assert.match(reply.errors[0], c.error, `${c.label}: ${reply.errors[0]}`);
        await waitFrames(page, 3);
        const after = await page.evaluate(() => window.md5stage.state());
        assert.deepEqual(essentials(after), kept, `${c.label} changed the scene`);
        assert.ok(after.last_error && after.last_error.includes(c.files[0].name), `${c.label}: error not shown (${after.last_error})`);
        assert.ok(after.scene_time > start.scene_time,
                  `${c.label}: the scene stopped (${start.scene_time} -> ${after.scene_time})`);
        after.instances.forEach((instance, k) => {
          assert.ok(!instance.playing || instance.time !== start.instances[k].time,
                    `${c.label}: instance ${k} stopped animating at ${instance.time}`);
        });
      }
      // Refused input reserves nothing: header counts are checked before anything is allocated.
      const heapAfter = await page.evaluate(() => Module.HEAPU8.length);
      assert.ok(heapAfter <= heapBefore + 16 * 1024 * 1024, `the wasm heap grew from ${heapBefore} to ${heapAfter}`);
      // A good file still loads afterwards, and removing it restores the scene.
      const mesh = new Uint8Array(fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh')));
      const good = await loadInline(page, [{ name: 'again.md5mesh', bytes: mesh }]);
      assert.equal(good.ok, true, JSON.stringify(good));
      assert.deepEqual(good.errors, []);
      assert.deepEqual(good.warnings, []);
      let state = await page.evaluate(() => window.md5stage.state());
      assert.equal(state.models.length, kept.models.length + 1);
      const again = state.models[state.models.length - 1];
      assert.equal(again.name, 'again');
      assert.equal(again.joints, kept.models[0].joints);
      assert.equal(again.vertices, kept.models[0].vertices);
      assert.equal(state.instances.length, kept.instances.length + 1, 'the new model got no character');
      assert.equal(state.instances[state.instances.length - 1].model, 'again');
      const removed = await page.evaluate(() => window.md5stage.call({ cmd: 'removeModel', model: 'again' }));
      assert.ok(removed.ok, JSON.stringify(removed));
      state = await page.evaluate(() => window.md5stage.state());
      assert.deepEqual(essentials(state), kept);
      await page.screenshot({ path: ctx.screenshotPath('robustness-after-hostile-drops') });
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    name: 'an animation with no mesh loaded, an unreadable image and an unknown file type are explained',
    async run(ctx) {
      const page = await newPage(ctx.browser);
      await openViewer(page, ctx.baseUrl + '?scene=none');
      const anim = new Uint8Array(fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walk.md5anim')));
      const alone = await loadInline(page, [{ name: 'walk.md5anim', bytes: anim }]);
      assert.equal(alone.ok, false);
      assert.deepEqual(alone.errors, ['walk.md5anim: error: no mesh is loaded to play this animation on']);
      assert.deepEqual(alone.warnings, []);
      const other = await loadInline(page, [{ name: 'notes.txt', bytes: text('hello') }]);
      assert.equal(other.ok, true, JSON.stringify(other));
      assert.deepEqual(other.errors, []);
      assert.equal((await page.evaluate(() => window.md5stage.state())).models.length, 0,
                   'a refused animation or an ignored file must not add a model');
      assert.deepEqual(other.warnings, ['notes.txt: ignored (not .md5mesh, .md5anim, .md5camera, .glb, .gltf, .mtr, .shader, .skin or an image)']);
      // A mesh with a broken texture: the mesh loads (plain material); the image's problem is said.
      const mesh = new Uint8Array(fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh')));
      const broken = await loadInline(page, [{ name: 'walker.md5mesh', bytes: mesh },
                                             { name: 'walker.png', bytes: randomBytes(2048, 5) }]);
      // README's table: the image's problem is an error; the mesh loads with a plain material.
      assert.equal(broken.ok, false, JSON.stringify(broken));
      assert.equal(broken.errors.length, 1, JSON.stringify(broken));
      assert.match(broken.errors[0], /^walker\.png: error: not a readable image: /, JSON.stringify(broken));
      const state = await page.evaluate(() => window.md5stage.state());
      assert.equal(state.models.length, 1, 'the mesh should load without its texture');
      assert.equal(state.models[0].name, 'walker');
      assert.deepEqual(state.models[0].textures, ['']);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    // Catches: commands or file names handed to the module as ccall 'string' arguments, which
    // are copied onto the wasm stack: 5 MB there aborts the module (web/lib/runtime.js: withHeap).
    name: 'a 5 MB command, scene or file name through window.md5stage is refused cleanly; the viewer keeps running',
    async run(ctx) {
      const page = await defaultScene(ctx);
      const start = await page.evaluate(() => window.md5stage.state());
      const kept = essentials(start);
      const replies = await page.evaluate(async () => {
        const big = 'A'.repeat(5 << 20);
        const m = window.md5stage;
        const summary = (reply) => ({ ok: reply.ok, error: String(reply.error || (reply.errors || []).join('\n')).slice(0, 200) });
        const outcome = async (name, call) => {
          try {
            return [name, summary(await call())];
          } catch (error) {
            return [name, { threw: String(error).slice(0, 200) }];
          }
        };
        return Object.fromEntries([
          await outcome('call', () => m.call({ cmd: 'openLink', payload: big })),
          await outcome('stage', () => m.stage(0).call({ cmd: 'setRoute', index: 0, route: { name: big, segments: [] } })),
          await outcome('scene', () => m.loadScene({ version: 1, models: [], notes: big })),
          await outcome('file', () => m.loadFiles([{ name: `${big}.md5mesh`, bytes: 'MD5Version 10' }])),
        ]);
      });
      const tooLong = /^command: error: expected at most \d+ bytes of JSON, found \d+$/;
      for (const name of ['call', 'stage', 'scene']) {
        assert.equal(replies[name].ok, false, `${name}: ${JSON.stringify(replies[name])}`);
        assert.match(replies[name].error, tooLong, `${name}: ${JSON.stringify(replies[name])}`);
      }
      // A name of 5 MB reaches the loader, which refuses the file (it is no mesh) by its name.
      assert.equal(replies.file.ok, false, JSON.stringify(replies.file));
      assert.match(replies.file.error, /^A+/, JSON.stringify(replies.file));
      await waitFrames(page, 5);
      const after = await page.evaluate(() => window.md5stage.state());
      assert.deepEqual(essentials(after), kept, 'a refused command changed the scene');
      assert.ok(after.scene_time > start.scene_time, `the scene stopped (${start.scene_time} -> ${after.scene_time})`);
      const mesh = new Uint8Array(fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh')));
      const good = await loadInline(page, [{ name: 'after.md5mesh', bytes: mesh }]);
      assert.equal(good.ok, true, JSON.stringify(good));
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    name: 'extreme numbers through the API (1e308 times, rates, speeds, radii, targets) leave the viewer running',
    async run(ctx) {
      const page = await defaultScene(ctx);
      const start = await page.evaluate(() => window.md5stage.state());
      const replies = await page.evaluate(() => {
        const m = window.md5stage;
        const calls = [
          () => m.setSceneTime(1e308), () => m.setTime(0, 1e300), () => m.setRate(0, -1e300),
          () => m.setSpeed(0, 1e300), () => m.setTurnRadius(0, 1e300), () => m.goTo(0, 1e300, -1e300),
          () => m.goTo(0, 5e-324, 0, 1e300), () => m.setTurnRadius(0, 5e-324), () => m.goTo(0, 1e6, 1e6, 2),
          () => m.call({ cmd: 'setCrowdSize', count: 1e20 }), () => m.camera({ distance: 1e300, yaw: 1e300 }),
          () => m.setTime(0, NaN), () => m.goTo(0, NaN, Infinity),
          () => m.call({ cmd: 'updateSteps', count: 1e300, dt: -1e300 }),
        ];
        return calls.map((call) => {
          try {
            const reply = call();
            return reply && typeof reply === 'object' ? { ok: reply.ok, error: reply.error } : { reply };
          } catch (error) {
            return { threw: String(error) };
          }
        });
      });
      assert.ok(replies.every((r) => !r.threw), JSON.stringify(replies));
      // Out of range is refused with the command and field named (NaN and Infinity arrive as
      // null in JSON); only the two calls within range are accepted. The ranges are the scene
      // format's, so whatever a command accepts can be saved in a scene and shared.
      const range = (lo, hi) => `expected a number in [${lo}, ${hi}]`;
      assert.deepEqual(replies, [
        { ok: false, error: `setSceneTime.time: ${range(0, 1000000)}, found 1e+308` },
        { ok: false, error: `setTime.time: ${range(0, 1000000)}, found 1e+300` },
        { ok: false, error: `setRate.rate: ${range(-100, 100)}, found -1e+300` },
        { ok: false, error: `setSpeed.speed: ${range(0, 100000)}, found 1e+300` },
        { ok: false, error: `setTurnRadius.radius: ${range(0, 100000)}, found 1e+300` },
        { ok: false, error: `goTo.x: ${range(-1000000, 1000000)}, found 1e+300` },
        { ok: false, error: `goTo.heading: ${range(-1000, 1000)}, found 1e+300` },
        { ok: true, error: undefined },
        { ok: true, error: undefined },
        { ok: false, error: 'setCrowdSize.count: expected an integer in [1, 5000], found 1e+20' },
        { ok: false, error: `camera.yaw: ${range(-1000000, 1000000)}, found 1e+300` },
        { ok: false, error: `setTime.time: ${range(0, 1000000)}, found null` },
        { ok: false, error: `goTo.x: ${range(-1000000, 1000000)}, found null` },
        { ok: false, error: 'updateSteps.count: expected an integer in [1, 1000], found 1e+300' },
      ]);
      const before = await page.evaluate(() => window.md5stage.state().frame);
      await waitFrames(page, 5);
      const state = await page.evaluate(() => window.md5stage.state());
      assert.ok(state.frame >= before + 5, 'the viewer stopped rendering');
      // The refused calls changed nothing they named.
      assert.equal(state.instances.length, start.instances.length);
      assert.equal(state.instances[0].rate, start.instances[0].rate);
      assert.equal(state.instances[0].speed, start.instances[0].speed);
      assert.equal(state.camera.distance, start.camera.distance);
      assert.equal(state.camera.yaw, start.camera.yaw);
      const numbers = [];
      JSON.stringify(state, (key, value) => { if (typeof value === 'number') numbers.push(value); return value; });
      assert.ok(numbers.every(Number.isFinite) && Number.isFinite(state.scene_time), 'a number in state() is not finite');
      // And it still loads and plays a model afterwards.
      const mesh = new Uint8Array(fs.readFileSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh')));
      const reply = await loadInline(page, [{ name: 'after.md5mesh', bytes: mesh }]);
      assert.equal(reply.ok, true, JSON.stringify(reply));
      assert.deepEqual(reply.errors, []);
      const loaded = await page.evaluate(() => window.md5stage.state());
      assert.equal(loaded.models.length, state.models.length + 1);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
];
