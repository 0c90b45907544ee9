// What a person does and sees: files through "Open files..." and dropped on the page (as files and
// as a folder), keys tapped and held, touch orbit and pinch, and framing of a large animated
// model. Each test judges real pixels (screenshots) in the region that should change, not only
// state(), the app's own report. The comment above each test names the failure it catches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadFromServer } from './lib/harness.mjs';
import {
  SKELETON_CYAN, call, changedPixels, contentBox, countColour, dropPaths, emptyViewer, frames, grab,
  grow, inside, line, rectArea, startSampling, state, stopSampling, touchGesture, transitions, waitUntil,
} from './lib/input.mjs';

const WALKER_DIR = (ctx) => path.join(ctx.site, 'assets/models/walker');
const BONES_DIR = (ctx) => path.join(ctx.sharedDir, 'md5/imprimis_bones');

function needWalker(ctx) {
  return fs.existsSync(path.join(WALKER_DIR(ctx), 'walker.md5mesh')) ? null
    : { skipped: 'assets/models/walker missing in the site: skipped' };
}
function needBones(ctx) {
  return ctx.hasShared && fs.existsSync(path.join(BONES_DIR(ctx), 'model.md5mesh')) ? null
    : { skipped: '../shared/md5/imprimis_bones not found: skipped' };
}

const screenBounds = async (page, instance = 0) => {
  const reply = await call(page, { cmd: 'screenBounds', instance });
  assert.ok(reply.ok, `screenBounds: ${JSON.stringify(reply)}`);
  return reply.rect;
};

// Waits (up to timeoutMs) for `count` models to be loaded; returns state().
async function waitModels(page, count, timeoutMs = 15000) {
  await waitUntil(page, (n) => window.md5stage.state().models.length >= n, count, timeoutMs);
  return state(page);
}

// The model just shown is drawn where screenBounds says: the pixels inside its box differ from the
// same view without it (the model removed; panels hidden so that only the 3D view is compared),
// and little changes outside the box.
async function assertModelDrawn(ctx, page, label, modelName) {
  await call(page, { cmd: 'ui', panels: false });
  await page.evaluate(() => window.md5stage.pause(0));
  await frames(page, 2);
  const rect = await screenBounds(page, 0);
  const withModel = await grab(page, ctx.screenshotPath(`${label}-with`));
  assert.ok((await call(page, { cmd: 'removeModel', model: modelName })).ok);
  await frames(page, 2);
  const without = await grab(page, ctx.screenshotPath(`${label}-without`));
  const box = grow(rect, 3);
  const changed = changedPixels(withModel, without, 24);
  const inBox = changed.filter(([x, y]) => inside(box, x, y)).length;
  const area = rectArea(rect);
  assert.ok(inBox > 0.08 * area, `${label}: only ${inBox} of ${area} pixels of the model's box show the model`);
  // The model's box is its bind-pose box: an animated pose may reach a little beyond it.
  const outside = changed.length - inBox;
  assert.ok(outside < 0.25 * inBox, `${label}: ${outside} pixels changed outside the model's box (${inBox} inside)`);
}

// Canvas focused by a click on empty ground in the camera tool, as a person would before a key
// ((300, 450) is ground away from the model and from every panel).
async function focusCanvas(page, x = 300, y = 450) {
  await call(page, { cmd: 'tool', tool: 'camera' });
  await page.mouse.click(x, y);
  await frames(page, 1);
}

// A walker standing at the origin, seen from a fixed camera, walking; panels and grid hidden so
// the walker alone is drawn (anything not the clear colour is the walker); canvas focused.
async function keyScene(ctx) {
  const page = await emptyViewer(ctx);
  const reply = await loadFromServer(page, ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim']
    .map((f) => `/assets/models/walker/${f}`));
  assert.deepEqual(reply.errors, []);
  await page.evaluate(() => window.md5stage.setAnimation(0, 'walk', 0));
  await call(page, { cmd: 'camera', target: [0, 0, 40], yaw: 30, pitch: 15, distance: 220 });
  await focusCanvas(page);
  await call(page, { cmd: 'ui', panels: false });
  await page.evaluate(() => window.md5stage.display({ grid: false }));  // the walker alone is drawn
  await frames(page, 2);
  return page;
}

// Presses a key: a tap (down and up between two frames, as any quick press at 10-25 fps) or a hold
// (down, 400 ms, up). Records pick(state()) every frame from before the press until 3 frames after.
async function press(page, key, how, pickSource) {
  await startSampling(page, pickSource);
  await frames(page, 1);
  if (how === 'tap') {
    await page.keyboard.down(key);
    await page.keyboard.up(key);
  } else {
    await page.keyboard.down(key);
    await page.waitForTimeout(400);
    await page.keyboard.up(key);
  }
  await frames(page, 3);
  return stopSampling(page);
}

// Checks Space, K, W and F pressed `how` ('tap' or 'hold'): each press toggles exactly once (state
// sampled every frame) and the pixels show it. All keys are checked; the failures are listed together.
async function checkKeys(ctx, how) {
  const page = await keyScene(ctx);
  const problems = [];
  // The walker's screen box (bind pose), with a margin for the walk's stride.
  const rect = grow(await screenBounds(page, 0), 20);

  // Space: the walker stops walking (two frames apart, its pixels are the same), then walks again.
  for (const expected of [false, true]) {
    const samples = await press(page, 'Space', how, '(s) => s.instances[0].playing');
    const now = (await state(page)).instances[0].playing;
    if (transitions(samples) !== 1 || now !== expected) {
      problems.push(`Space ${how}: playing went ${samples.map((s) => s.value).join(',')} (${transitions(samples)} toggles, want 1)`);
    }
    const a = await grab(page);
    await frames(page, 3);
    const b = await grab(page);
    const moved = changedPixels(a, b, 24, (x, y) => inside(rect, x, y)).length;
    if (expected === false && moved > 0) problems.push(`Space ${how}: paused, yet ${moved} pixels of the walker changed`);
    if (expected === true && moved < 50) problems.push(`Space ${how}: playing, yet only ${moved} pixels of the walker changed`);
  }
  await page.evaluate(() => window.md5stage.pause(0));
  await frames(page, 2);

  // K: cyan skeleton lines appear over the walker, then go.
  const cyan = (image) => countColour(image, SKELETON_CYAN, 40, walkerRegion(image, image, 6));
  const cyanBefore = cyan(await grab(page));
  for (const expected of [true, false]) {
    const samples = await press(page, 'k', how, '(s) => s.display.skeleton');
    const now = (await state(page)).display.skeleton;
    if (transitions(samples) !== 1 || now !== expected) {
      problems.push(`K ${how}: skeleton went ${samples.map((s) => s.value).join(',')} (${transitions(samples)} toggles, want 1)`);
    }
    const count = cyan(await grab(page, ctx.screenshotPath(`input-key-k-${how}-${expected}`)));
    if (expected && count < cyanBefore + 40) problems.push(`K ${how}: ${count} skeleton-cyan pixels over the walker (before: ${cyanBefore})`);
    if (!expected && count > cyanBefore + 5) problems.push(`K ${how}: ${count} skeleton-cyan pixels left after turning it off (before: ${cyanBefore})`);
  }

  // W: the walker's pixels change (wireframe), nothing outside its box does; then back.
  for (const expected of [true, false]) {
    const before = await grab(page);
    const samples = await press(page, 'w', how, '(s) => s.display.wireframe');
    const now = (await state(page)).display.wireframe;
    if (transitions(samples) !== 1 || now !== expected) {
      problems.push(`W ${how}: wireframe went ${samples.map((s) => s.value).join(',')} (${transitions(samples)} toggles, want 1)`);
    }
    const after = await grab(page, ctx.screenshotPath(`input-key-w-${how}-${expected}`));
    // The walker's region: where it is drawn (grid and panels are off: whatever is not the clear
    // colour), solid or wireframe, with a 3-pixel margin for antialiased edges.
    const region = walkerRegion(before, after, 3);
    const changed = changedPixels(before, after, 24);
    const inRegion = changed.filter(([x, y]) => inside(region, x, y)).length;
    if (inRegion < 0.05 * rectArea(region)) problems.push(`W ${how}: only ${inRegion} of ${rectArea(region)} pixels of the walker changed`);
    if (changed.length - inRegion > 0) problems.push(`W ${how}: ${changed.length - inRegion} pixels changed outside the walker ${region}`);
  }

  // F: with the camera turned away (the walker off screen), F brings the walker back, framed.
  await call(page, { cmd: 'camera', target: [900, 900, 0], yaw: 30, pitch: 15, distance: 220 });
  await frames(page, 2);
  const away = await grab(page);
  const samples = await press(page, 'f', how, '(s) => s.camera.target');
  const framed = await grab(page, ctx.screenshotPath(`input-key-f-${how}`));
  const target = (await state(page)).camera.target;
  if (transitions(samples) < 1 || Math.hypot(target[0], target[1]) > 50) {
    problems.push(`F ${how}: the camera target is ${target.map((v) => v.toFixed(1))}, not at the walker`);
  }
  const box = contentBox(framed);
  const awayBox = contentBox(away);
  if (!box || box[3] - box[1] < 0.2 * framed.height) {
    problems.push(`F ${how}: after F the drawn content is ${JSON.stringify(box)} (was ${JSON.stringify(awayBox)}), not a framed walker`);
  }
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
  assert.ok(problems.length === 0, problems.join('\n'));
}

// An md5anim with its root ("origin", not animated: its baseframe holds) and its per-frame
// bounds moved by `offset`: the same motion, played away from the bind pose.
function offsetClip(text, [dx, dy, dz]) {
  const number = '(-?[\\d.]+(?:e[-+]?\\d+)?)';
  const triple = new RegExp(`\\( ${number} ${number} ${number} \\)`, 'g');
  const shift = (match, x, y, z) => `( ${(+x + dx).toFixed(6)} ${(+y + dy).toFixed(6)} ${(+z + dz).toFixed(6)} )`;
  assert.match(text, /"origin"\t-1 0 0/, 'the walker clip\'s origin joint is expected to be still');
  let out = text.replace(/bounds \{[\s\S]*?\}/, (block) => block.replace(triple, shift));
  out = out.replace(/baseframe \{\n\t(\( [^)]*\))/, (block, first) => block.replace(first, first.replace(new RegExp(triple.source), shift)));
  return out;
}

// The union of the boxes of what is drawn in two images (grid and panels hidden), grown by `margin`.
function walkerRegion(a, b, margin) {
  const boxes = [contentBox(a, 10), contentBox(b, 10)].filter(Boolean);
  assert.ok(boxes.length, 'nothing drawn');
  return grow([Math.min(...boxes.map((r) => r[0])), Math.min(...boxes.map((r) => r[1])),
               Math.max(...boxes.map((r) => r[2])), Math.max(...boxes.map((r) => r[3]))], margin);
}

// The drawn model (not the clear colour, grid off, panels hidden) must lie inside the canvas with a
// margin and be reasonably large. Returns its box.
function assertFramedWhole(image, label) {
  const box = contentBox(image, 12);
  assert.ok(box, `${label}: nothing drawn`);
  const margin = 2;
  const cut = [];
  if (box[0] < margin) cut.push('left');
  if (box[1] < margin) cut.push('top');
  if (box[2] > image.width - margin) cut.push('right');
  if (box[3] > image.height - margin) cut.push('bottom (feet)');
  assert.ok(cut.length === 0, `${label}: the model touches the canvas edge(s) ${cut.join(', ')}: box ${box}`);
  assert.ok(box[3] - box[1] > 0.2 * image.height,
            `${label}: the model is only ${box[3] - box[1]} of ${image.height} pixels tall`);
  return box;
}

export const tests = [
  {
    // Catches: "Open files..." loading nothing (the picker's FileList emptied, by `picker.value =
    // ''`, before loadFiles reads it), and a picked mesh that loads but is not drawn.
    name: 'files chosen with "Open files..." load and are drawn',
    async run(ctx) {
      const skip = needWalker(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx);
      await page.setInputFiles('#file-picker', ['walker.md5mesh', 'walk.md5anim'].map((f) => path.join(WALKER_DIR(ctx), f)));
      const s = await waitModels(page, 1, 10000);
      assert.equal(s.models.length, 1, `the picked files loaded nothing (status: ${s.status}, error: ${s.last_error})`);
      assert.equal(s.models[0].name, 'walker');
      assert.deepEqual(s.models[0].animations, ['walk']);
      assert.equal(s.instances.length, 1);
      await assertModelDrawn(ctx, page, 'input-picker', 'walker');
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    // Catches: a drop of files (DevTools Input.dispatchDragEvent, as the OS delivers it) that loads
    // nothing, binds no animation, or is not drawn where the framed model should be.
    name: 'walker files dropped on the page load, bind their animations and are drawn',
    async run(ctx) {
      const skip = needWalker(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx);
      await dropPaths(page, ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim', 'walker.png']
        .map((f) => path.join(WALKER_DIR(ctx), f)));
      const s = await waitModels(page, 1);
      assert.equal(s.models.length, 1, `the dropped files loaded nothing (status: ${s.status}, error: ${s.last_error})`);
      assert.equal(s.models[0].name, 'walker');
      assert.deepEqual([...s.models[0].animations].sort(), ['idle', 'walk']);
      assert.deepEqual(s.models[0].textures, ['walker.png']);
      await assertModelDrawn(ctx, page, 'input-drop-files', 'walker');
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    // Catches: a dropped folder that is ignored or read only one level (main.js walks directory
    // entries with webkitGetAsEntry): every mesh, anim and texture inside must load. The folder
    // holds the walker in a subfolder, so the walk must recurse.
    name: 'a dropped folder loads the models, animations and textures inside it',
    async run(ctx) {
      const skip = needWalker(ctx);
      if (skip) return skip;
      const root = fs.mkdtempSync(path.join(ctx.outDir, 'drop-folder-'));
      const sub = path.join(root, 'characters', 'walker');
      fs.mkdirSync(sub, { recursive: true });
      for (const f of fs.readdirSync(WALKER_DIR(ctx))) fs.copyFileSync(path.join(WALKER_DIR(ctx), f), path.join(sub, f));
      fs.writeFileSync(path.join(root, 'notes.txt'), 'not a model');
      const page = await emptyViewer(ctx);
      try {
        await dropPaths(page, [root]);
        const s = await waitModels(page, 1);
        assert.equal(s.models.length, 1, `the dropped folder loaded nothing (status: ${s.status}, error: ${s.last_error})`);
        assert.equal(s.models[0].name, 'walker');
        const anims = fs.readdirSync(sub).filter((f) => f.endsWith('.md5anim')).map((f) => f.replace('.md5anim', ''));
        assert.deepEqual([...s.models[0].animations].sort(), anims.sort());
        // Files keep their path below the dropped folder (material decls name images so).
        assert.deepEqual(s.models[0].textures, ['characters/walker/walker.png']);
        await assertModelDrawn(ctx, page, 'input-drop-folder', 'walker');
        assert.deepEqual(page.consoleErrors, []);
      } finally {
        await page.context().close();
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  },
  {
    // Catches: a dropped large model (imprimis_bones, 59 joints, with its crouch animation, the
    // largest real model with a crouch in ../shared/md5: none has ~85 joints) framed by its
    // bind-pose box only, so that the pose shown is cut by the canvas edge or drawn tiny.
    name: 'a large model dropped with a crouch animation is framed whole',
    async run(ctx) {
      const skip = needBones(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx);
      await dropPaths(page, ['model.md5mesh', 'animation/crouch.md5anim', 'diffuse.png']
        .map((f) => path.join(BONES_DIR(ctx), f)));
      const s = await waitModels(page, 1, 30000);
      assert.equal(s.models.length, 1, `the dropped files loaded nothing (status: ${s.status}, error: ${s.last_error})`);
      assert.equal(s.models[0].joints, 59);
      assert.equal(s.instances[0].animation, 'crouch');
      // Judged on the 3D view alone: no panels, no grid (the model is all that is not the clear colour).
      await call(page, { cmd: 'ui', panels: false });
      await page.evaluate(() => window.md5stage.display({ grid: false }));
      await frames(page, 3);
      assertFramedWhole(await grab(page, ctx.screenshotPath('input-bones-crouch-dropped')), 'crouch, as dropped');
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    // Catches: F framing the bind-pose box instead of the whole animation: at some time of the
    // clip (crouch; run_N, whose stride reaches beyond the bind box) part of the model leaves the
    // canvas or the model is drawn tiny.
    name: 'F frames the whole animation of a large model (every pose inside the canvas)',
    async run(ctx) {
      const skip = needBones(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx);
      const reply = await loadFromServer(page, ['model.md5mesh', 'diffuse.png', 'animation/crouch.md5anim',
        'animation/run_N.md5anim'].map((f) => `/shared/md5/imprimis_bones/${f}`));
      assert.deepEqual(reply.errors, []);
      await call(page, { cmd: 'ui', panels: false });
      await page.evaluate(() => window.md5stage.display({ grid: false }));
      await focusCanvas(page);
      const problems = [];
      for (const clip of ['crouch', 'run_N']) {
        await page.evaluate((name) => { window.md5stage.setAnimation(0, name, 0); window.md5stage.pause(0); }, clip);
        // From another view, F (held two frames: one press, whatever the key-repeat defect does).
        await call(page, { cmd: 'camera', target: [50, -30, 5], yaw: 75, pitch: 5, distance: 12 });
        await frames(page, 1);
        await page.keyboard.down('f');
        await frames(page, 2);
        await page.keyboard.up('f');
        await frames(page, 2);
        const duration = clip === 'run_N' ? 15 / 30 : 0;
        for (const t of duration ? [0, 0.1, 0.2, 0.3, 0.4, 0.5] : [0]) {
          await page.evaluate((time) => window.md5stage.setTime(0, time), t);
          await frames(page, 2);
          const image = await grab(page, ctx.screenshotPath(`input-bones-f-${clip}-${t}`));
          try {
            assertFramedWhole(image, `${clip} at ${t} s after F`);
          } catch (error) {
            problems.push(error.message);
          }
        }
      }
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
      assert.ok(problems.length === 0, problems.join('\n'));
    },
  },
  {
    // Catches: framing (on drop, and by F) that uses only the bind-pose box when the clip plays far
    // from the bind pose, as exporters write when the bind pose and the clips disagree (a crouch
    // whose root is lowered): the walker with its idle clip moved 50 units down and 40 aside
    // (a synthetic file; no real model of ../shared does this). Its feet would be cut off.
    name: 'a model whose clip plays far from its bind pose is framed whole on drop and by F',
    async run(ctx) {
      const skip = needWalker(ctx);
      if (skip) return skip;
      const folder = fs.mkdtempSync(path.join(ctx.outDir, 'offset-clip-'));
      fs.copyFileSync(path.join(WALKER_DIR(ctx), 'walker.md5mesh'), path.join(folder, 'walker.md5mesh'));
      fs.writeFileSync(path.join(folder, 'low.md5anim'),
                       offsetClip(fs.readFileSync(path.join(WALKER_DIR(ctx), 'idle.md5anim'), 'latin1'), [0, 40, -50]));
      const page = await emptyViewer(ctx);
      try {
        await dropPaths(page, [path.join(folder, 'walker.md5mesh'), path.join(folder, 'low.md5anim')]);
        const s = await waitModels(page, 1);
        assert.equal(s.models.length, 1, `the dropped files loaded nothing (status: ${s.status}, error: ${s.last_error})`);
        assert.equal(s.instances[0].animation, 'low');
        await focusCanvas(page);
        await call(page, { cmd: 'ui', panels: false });
        await page.evaluate(() => { window.md5stage.display({ grid: false }); window.md5stage.pause(0); });
        await frames(page, 2);
        const problems = [];
        const check = async (label) => {
          try {
            assertFramedWhole(await grab(page, ctx.screenshotPath(`input-offset-${label.replace(/[^A-Za-z0-9]+/g, "-")}`)), label);
          } catch (error) {
            problems.push(error.message);
          }
        };
        await check('as dropped');
        await call(page, { cmd: 'camera', target: [300, -200, 10], yaw: 120, pitch: 5, distance: 40 });
        await frames(page, 1);
        await page.keyboard.down('f');
        await frames(page, 2);
        await page.keyboard.up('f');
        await frames(page, 2);
        for (const t of [0, 3, 6]) {
          await page.evaluate((time) => window.md5stage.setTime(0, time), t);
          await frames(page, 2);
          await check(`after F at ${t} s`);
        }
        assert.deepEqual(page.consoleErrors, []);
        assert.ok(problems.length === 0, problems.join('\n'));
      } finally {
        await page.context().close();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  },
  {
    // Catches: a quick key press (down and up before the next frame) doing nothing, for Space
    // (play/pause), K (skeleton), W (wireframe) and F (frame); and a press toggling more than once.
    name: 'tapped keys: Space, K, W and F each act exactly once per press',
    async run(ctx) {
      const skip = needWalker(ctx);
      if (skip) return skip;
      await checkKeys(ctx, 'tap');
    },
    timeoutMs: 150000,
  },
  {
    // Catches: a held key auto-repeating (ImGui's key repeat: K held 400 ms toggles several times
    // and may end where it started); a hold must act exactly once.
    name: 'held keys: Space, K, W and F held 400 ms each act exactly once',
    async run(ctx) {
      const skip = needWalker(ctx);
      if (skip) return skip;
      await checkKeys(ctx, 'hold');
    },
    timeoutMs: 150000,
  },
  {
    // Catches: touch gestures not reaching the camera (DevTools Input.dispatchTouchEvent): one
    // finger must orbit (yaw and pitch change, the picture changes), two fingers spreading apart
    // must zoom in (distance shrinks, the walker is drawn larger).
    name: 'one-finger drag orbits, two-finger pinch zooms',
    async run(ctx) {
      const skip = needWalker(ctx);
      if (skip) return skip;
      const page = await emptyViewer(ctx, { hasTouch: true });
      const reply = await loadFromServer(page, ['/assets/models/walker/walker.md5mesh']);
      assert.deepEqual(reply.errors, []);
      // Panels and grid hidden: the walker is all that is not the clear colour.
      await call(page, { cmd: 'ui', panels: false });
      await page.evaluate(() => window.md5stage.display({ grid: false }));
      await call(page, { cmd: 'camera', target: [0, 0, 40], yaw: 30, pitch: 15, distance: 300 });
      await call(page, { cmd: 'pauseScene' });
      await frames(page, 2);
      const start = (await state(page)).camera;
      const before = await grab(page);
      await touchGesture(page, [line([640, 500], [760, 440], 8)]);
      await frames(page, 2);
      const orbited = (await state(page)).camera;
      const afterOrbit = await grab(page, ctx.screenshotPath('input-touch-orbit'));
      // 120 px right at 0.3 degrees a pixel: yaw -36; 60 px up: pitch -18.
      assert.ok(Math.abs(orbited.yaw - (start.yaw - 36)) < 3, `one finger: yaw ${start.yaw} -> ${orbited.yaw}, want about ${start.yaw - 36}`);
      assert.ok(Math.abs(orbited.pitch - (start.pitch - 18)) < 3, `one finger: pitch ${start.pitch} -> ${orbited.pitch}, want about ${start.pitch - 18}`);
      assert.equal(orbited.distance, start.distance, 'one finger changed the distance');
      const orbitChanged = changedPixels(before, afterOrbit, 24).length;
      assert.ok(orbitChanged > 500, `one finger: only ${orbitChanged} pixels changed`);
      // Pinch: fingers 100 px apart spread to 300 px around the walker: a third of the distance.
      const boxBefore = contentBox(afterOrbit, 12);
      assert.ok(boxBefore, 'nothing drawn after the orbit');
      await touchGesture(page, [line([590, 360], [490, 360], 8), line([690, 360], [790, 360], 8)]);
      await frames(page, 2);
      const pinched = (await state(page)).camera;
      const afterPinch = await grab(page, ctx.screenshotPath('input-touch-pinch'));
      assert.ok(Math.abs(pinched.distance / orbited.distance - 1 / 3) < 0.05,
                `two fingers spread 3x: distance ${orbited.distance} -> ${pinched.distance}, want a third`);
      const boxAfter = contentBox(afterPinch, 12);
      assert.ok(boxAfter, 'nothing drawn after the pinch');
      // Closer: the walker is drawn larger (or fills the canvas height).
      const [h0, h1] = [boxBefore[3] - boxBefore[1], boxAfter[3] - boxAfter[1]];
      assert.ok(h1 > 1.5 * h0 || h1 > 0.95 * afterPinch.height, `pinch: the walker went from ${h0} to ${h1} pixels tall`);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
];
