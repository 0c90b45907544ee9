// Characters giving way in the page (issue 45): the `swap` demo opened by a click on its button in
// the Scene panel's gallery and `crossing` by the page command play, and at every frame no two
// walkers are closer than the sum of their clearances (state()); at several times the screenshot's
// walker pixels are where state() puts the walkers and nowhere else; the Display panel's
// "clearance" checkbox draws a ring round each walker; a share link of `swap` seeked to 7.5 s
// shows the picture playing to 7.5 s shows, pixel for pixel (the limbs too).
//
// Deterministic: the page's clock (performance.now, which the module's frame time reads) is a
// frame clock here: it moves a fixed step a frame and stops where the test holds the scene, so
// each check waits for the scene time it judges instead of sleeping.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BACKGROUND, anyNear, call, clickAt, frames, grab, inside, near, newInputPage, pixel, state, waitUntil } from './lib/input.mjs';
import { countDifferentPixels } from './lib/png.mjs';

// Runs in the page before its scripts: performance.now follows the frame clock once engaged.
// Each animation frame moves it `step` ms, or less so that the scene time lands on `holdAt`, and
// not at all once the scene time has reached it. It also keeps, over every frame, the least
// separation of any pair of walkers minus the sum of their clearances.
function installFrameClock() {
  const realNow = performance.now.bind(performance);
  const clock = { engaged: false, now: 0, step: 62.5, holdAt: Infinity, stamp: null, frames: 0, least: Infinity, worst: null };
  window.frameClock = clock;
  performance.now = () => (clock.engaged ? clock.now : realNow());
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((stamp) => {
    if (clock.engaged && stamp !== clock.stamp && window.md5stage && window.md5stage.state) {
      clock.stamp = stamp;
      const s = window.md5stage.state();
      const walkers = s.instances || [];
      for (let i = 0; i < walkers.length; i++) {
        for (let j = i + 1; j < walkers.length; j++) {
          const a = walkers[i], b = walkers[j];
          const gap = Math.hypot(a.position[0] - b.position[0], a.position[1] - b.position[1]) - a.clearance - b.clearance;
          if (gap < clock.least) {
            clock.least = gap;
            clock.worst = { time: s.scene_time, pair: [i, j] };
          }
        }
      }
      clock.frames++;
      const left = (clock.holdAt - s.scene_time) * 1000;
      if (left > 1e-6) clock.now += Math.min(clock.step, left);
    }
    callback(clock.engaged ? clock.now : stamp);
  });
}

// Opens the viewer at `url` and waits for the scene it names. Compiling the module takes a
// while on a loaded machine: the waits are longer than the harness's.
async function openAt(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.md5stage !== undefined, null, { timeout: 120000 });
  await page.evaluate(() => window.md5stage.ready);
  const opened = await page.evaluate(() => window.md5stage.opened);
  assert.ok(opened && opened.ok, `${url.slice(0, 80)}: ${JSON.stringify(opened)}`);
}

async function pageWithFrameClock(ctx) {
  const page = await newInputPage(ctx.browser, { width: 1280, height: 720 });
  await page.addInitScript(installFrameClock);
  return page;
}

const engageClock = (page) => page.evaluate(() => {
  window.frameClock.now = performance.now();
  window.frameClock.engaged = true;
});

// Plays the scene on the frame clock until its time is `time` (within the float sums of frame
// times: 1e-9), then sets it to exactly `time` (a step's own arc: no replay) and draws two frames.
async function playTo(page, time) {
  await page.evaluate((t) => { window.frameClock.holdAt = t; }, time);
  const reached = await waitUntil(page, (t) => Math.abs(window.md5stage.state().scene_time - t) < 1e-9, time, 240000);
  assert.ok(reached, `the scene did not reach ${time} s: ${(await state(page)).scene_time}`);
  assert.ok((await call(page, { cmd: 'setSceneTime', time })).ok);
  await frames(page, 2);
}

const isObstacle = (p) => p[0] > p[1] + 60 && p[0] > p[2] + 60;  // the red fill of walls and pillars
const isWalker = (p) => !near(p, BACKGROUND, 12) && !isObstacle(p);

// The walkers' pixels are where state() has the walkers: round each walker's state() position
// (projected at mid-height) a disc as large as its screen box holds some, and nearly all of them
// lie in some walker's disc. Needs grid, paths and panels off.
async function assertWalkersWhereStateSays(ctx, page, label) {
  const s = await state(page);
  const image = await grab(page, ctx.screenshotPath(label));
  const discs = [];
  for (let i = 0; i < s.instances.length; i++) {
    const bounds = await call(page, { cmd: 'screenBounds', instance: i });
    assert.ok(bounds.ok, JSON.stringify(bounds));
    const [x0, y0, x1, y1] = bounds.rect;
    const [x, y] = s.instances[i].position;
    const centre = (await call(page, { cmd: 'screenAt', point: [x, y, 35] })).pixel;
    discs.push({ centre, radius: 0.5 * Math.hypot(x1 - x0, y1 - y0) + 2, area: (x1 - x0) * (y1 - y0) });
  }
  const isWalkerAt = (x, y) => isWalker(pixel(image, x, y)) && !anyNear(image, x, y, 2, isObstacle);
  let shown = 0;
  for (let i = 0; i < discs.length; i++) {
    const { centre: [cx, cy], radius, area } = discs[i];
    if (cx - radius < 0 || cy - radius < 0 || cx + radius > image.width || cy + radius > image.height) continue;
    shown++;
    // Its inner part: a walker drawn a few units away from where state() says leaves it.
    const inner = 0.6 * radius;
    let count = 0;
    for (let y = Math.floor(cy - inner); y <= cy + inner; y++) {
      for (let x = Math.floor(cx - inner); x <= cx + inner; x++) {
        if (Math.hypot(x - cx, y - cy) <= inner && isWalkerAt(x, y)) count++;
      }
    }
    assert.ok(count >= 0.05 * area, `${label}: walker ${i} at ${s.instances[i].position.map((v) => v.toFixed(1))}: ${count} walker pixels round where state() has it (box area ${area.toFixed(0)})`);
  }
  assert.ok(shown >= 0.75 * discs.length, `${label}: only ${shown} of ${discs.length} walkers wholly in view`);
  let all = 0, outside = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      // The edge of a wall or pillar blends its red with the ground: not a walker's.
      if (!isWalkerAt(x, y)) continue;
      all++;
      if (!discs.some((d) => Math.hypot(x - d.centre[0], y - d.centre[1]) <= d.radius)) outside++;
    }
  }
  assert.ok(all > 0, `${label}: no walker pixels at all`);
  assert.ok(outside <= 0.02 * all, `${label}: ${outside} of ${all} walker-coloured pixels lie away from every walker's state() position`);
}

async function assertNobodyOverlapped(page, label) {
  const clock = await page.evaluate(() => ({ least: window.frameClock.least, worst: window.frameClock.worst, frames: window.frameClock.frames }));
  assert.ok(clock.frames > 20, `${label}: only ${clock.frames} frames checked`);
  assert.ok(clock.least >= -1e-6, `${label}: two walkers came ${-clock.least} closer than the sum of their clearances (${JSON.stringify(clock.worst)})`);
  return clock;
}

// Only what the walkers are: no grid, paths or turning circles, no panels.
async function plainView(page) {
  assert.ok((await call(page, { cmd: 'display', grid: false, routes: false, turn_circles: false })).ok);
  assert.ok((await call(page, { cmd: 'ui', panels: false })).ok);
}

function demoStaged(ctx, name) {
  return fs.existsSync(path.join(ctx.site, `assets/scenes/${name}.json`));
}

export const tests = [
  {
    name: 'giving way: swap (its gallery button) plays with nobody inside another at any frame, the walkers drawn where they are; the clearance checkbox rings them',
    timeoutMs: 240000,
    async run(ctx) {
      if (!demoStaged(ctx, 'swap')) return { skipped: 'assets/scenes/swap.json not staged: skipped' };
      const page = await pageWithFrameClock(ctx);
      try {
        await openAt(page, `${ctx.baseUrl}#demo=corridor`);
        await frames(page, 2);
        // The gallery's button, clicked where the Scene panel drew it.
        const button = (await state(page)).ui_items['demo:swap'];
        assert.ok(button, `the Scene panel reported no swap button: ${JSON.stringify(Object.keys((await state(page)).ui_items))}`);
        await clickAt(page, (button[0] + button[2]) / 2, (button[1] + button[3]) / 2);
        assert.ok(await waitUntil(page, () => window.location.hash === '#demo=swap' && window.md5stage.state().instances.length === 16, null, 30000),
                  `the swap button did not open swap: ${await page.evaluate(() => window.location.hash)}`);
        const opened = await state(page);
        assert.equal(opened.instances.length, 16);
        await page.screenshot({ path: ctx.screenshotPath('giving-way-swap-opened') });
        await plainView(page);
        await engageClock(page);
        for (const time of [2.5, 5, 7.5, 10]) {
          await playTo(page, time);
          await assertWalkersWhereStateSays(ctx, page, `giving-way-swap-${time}s`);
        }
        const clock = await assertNobodyOverlapped(page, 'swap');
        console.log(`    swap: ${clock.frames} frames, least separation minus clearances ${clock.least.toFixed(3)}`);

        // The Display panel's "clearance" checkbox (the scene held at 10 s, so only the overlay
        // changes): a ring of each walker's clearance round it.
        const before = await grab(page, ctx.screenshotPath('giving-way-swap-no-rings'));
        assert.ok((await call(page, { cmd: 'ui', panels: true })).ok);
        await frames(page, 2);
        const toggle = (await state(page)).ui_items.clearance;
        assert.ok(toggle, 'the Display panel reported no "clearance" checkbox');
        await clickAt(page, toggle[0] + 8, (toggle[1] + toggle[3]) / 2);
        const shown = await state(page);
        assert.equal(shown.display.clearance, true, 'clicking "clearance" did not turn it on');
        assert.ok((await call(page, { cmd: 'ui', panels: false })).ok);
        await frames(page, 2);
        const after = await grab(page, ctx.screenshotPath('giving-way-swap-rings'));
        let ringPoints = 0, ringChanged = 0;
        const ringBoxes = [];
        for (const walker of shown.instances) {
          const [x, y] = walker.position;
          const r = walker.clearance;
          const centre = (await call(page, { cmd: 'screenAt', point: [x, y, 0.1] })).pixel;
          const edge = (await call(page, { cmd: 'screenAt', point: [x + r, y, 0.1] })).pixel;
          const reach = Math.hypot(edge[0] - centre[0], edge[1] - centre[1]);
          ringBoxes.push([centre[0] - 3 * reach - 6, centre[1] - 3 * reach - 6, centre[0] + 3 * reach + 6, centre[1] + 3 * reach + 6]);
          for (let k = 0; k < 24; k++) {
            const a = (2 * Math.PI * k) / 24;
            const p = (await call(page, { cmd: 'screenAt', point: [x + r * Math.cos(a), y + r * Math.sin(a), 0.1] })).pixel;
            const px = Math.round(p[0]), py = Math.round(p[1]);
            if (px < 2 || py < 2 || px >= after.width - 2 || py >= after.height - 2) continue;
            ringPoints++;
            let changed = false;
            for (let dy = -1; dy <= 1 && !changed; dy++) {
              for (let dx = -1; dx <= 1 && !changed; dx++) {
                const u = pixel(before, px + dx, py + dy), v = pixel(after, px + dx, py + dy);
                changed = Math.max(Math.abs(u[0] - v[0]), Math.abs(u[1] - v[1]), Math.abs(u[2] - v[2])) > 24;
              }
            }
            if (changed) ringChanged++;
          }
        }
        assert.ok(ringPoints >= 200, `only ${ringPoints} ring points in view`);
        assert.ok(ringChanged >= 0.8 * ringPoints, `the ring region changed at ${ringChanged} of ${ringPoints} points of the clearance rings`);
        // Away from the walkers (their rings and heading lines), nothing changed.
        let away = 0;
        for (let y = 0; y < after.height; y++) {
          for (let x = 0; x < after.width; x++) {
            if (ringBoxes.some((b) => inside(b, x, y))) continue;
            const u = pixel(before, x, y), v = pixel(after, x, y);
            if (Math.max(Math.abs(u[0] - v[0]), Math.abs(u[1] - v[1]), Math.abs(u[2] - v[2])) > 24) away++;
          }
        }
        assert.ok(away <= 20, `${away} pixels changed away from every walker`);
        assert.deepEqual(page.consoleErrors, []);
      } finally {
        await page.context().close();
      }
    },
  },
  {
    name: 'giving way: crossing (the page command) plays with nobody inside another at any frame, the walkers drawn where they are',
    timeoutMs: 300000,
    async run(ctx) {
      if (!demoStaged(ctx, 'crossing')) return { skipped: 'assets/scenes/crossing.json not staged: skipped' };
      const page = await pageWithFrameClock(ctx);
      try {
        await openAt(page, `${ctx.baseUrl}#demo=corridor`);
        const result = await page.evaluate(() => window.md5stage.pageAction('demo:crossing'));
        assert.ok(result.ok, JSON.stringify(result));
        assert.equal((await state(page)).instances.length, 40);
        assert.equal(await page.evaluate(() => window.location.hash), '#demo=crossing');
        await plainView(page);
        await engageClock(page);
        await page.evaluate(() => { window.frameClock.step = 125; });  // forty walkers draw slowly
        for (const time of [5, 10, 15, 20]) {
          await playTo(page, time);
          await assertWalkersWhereStateSays(ctx, page, `giving-way-crossing-${time}s`);
        }
        const clock = await assertNobodyOverlapped(page, 'crossing');
        console.log(`    crossing: ${clock.frames} frames, least separation minus clearances ${clock.least.toFixed(3)}`);
        assert.deepEqual(page.consoleErrors, []);
      } finally {
        await page.context().close();
      }
    },
  },
  {
    name: 'giving way: a share link of swap seeked to 7.5 s shows the picture playing to 7.5 s shows',
    timeoutMs: 240000,
    async run(ctx) {
      if (!demoStaged(ctx, 'swap')) return { skipped: 'assets/scenes/swap.json not staged: skipped' };
      // Played: from the demo's start, frame by frame, to 7.5 s.
      const played = await pageWithFrameClock(ctx);
      const seeker = await newInputPage(ctx.browser, { width: 1280, height: 720 });
      const linked = await newInputPage(ctx.browser, { width: 1280, height: 720 });
      try {
        await openAt(played, `${ctx.baseUrl}#demo=swap`);
        assert.ok((await call(played, { cmd: 'ui', panels: false })).ok);
        await engageClock(played);
        await playTo(played, 7.5);
        assert.ok((await call(played, { cmd: 'pauseScene' })).ok);
        await frames(played, 2);
        const playedState = await state(played);
        const playedImage = await grab(played, ctx.screenshotPath('giving-way-swap-played-7.5s'));

        // Seeked: another page opens the demo, pauses, sets 7.5 s and copies its link; a third
        // opens the link (paused at 7.5 s).
        await openAt(seeker, `${ctx.baseUrl}#demo=swap`);
        assert.ok((await call(seeker, { cmd: 'pauseScene' })).ok);
        assert.ok((await call(seeker, { cmd: 'setSceneTime', time: 7.5 })).ok);
        const url = await seeker.evaluate(() => window.md5stage.shareLink());
        assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/[^#]*#scene=[A-Za-z0-9_-]+$/);
        await openAt(linked, url);
        assert.ok((await call(linked, { cmd: 'ui', panels: false })).ok);
        await frames(linked, 2);
        const linkedState = await state(linked);
        assert.equal(linkedState.scene_time, 7.5);
        const linkedImage = await grab(linked, ctx.screenshotPath('giving-way-swap-link-7.5s'));

        assert.equal(linkedState.instances.length, playedState.instances.length);
        for (let i = 0; i < playedState.instances.length; i++) {
          const a = playedState.instances[i].position, b = linkedState.instances[i].position;
          assert.ok(Math.hypot(a[0] - b[0], a[1] - b[1]) < 1e-6, `walker ${i}: played ${a}, link ${b}`);
        }
        // The same picture, pixel for pixel: the positions, the paths and rings, and the limbs
        // (the walk cycle's phase, the idle's time and the crossfades are set from the crowd's
        // gait at the scene time, not moved by frames) all follow from the scene time, and the
        // software rasterizer draws the same input the same way. Before the gait, 2,517 pixels
        // differed by more than 24 in a channel (6,881 at all), the limbs in another phase.
        const different = countDifferentPixels(playedImage, linkedImage, 0);
        const limit = 0;
        console.log(`    swap at 7.5 s: ${different} pixels differ between played and link (limit ${limit})`);
        assert.ok(different <= limit, `${different} pixels differ between the played swap at 7.5 s and its link`);
        for (const page of [played, seeker, linked]) assert.deepEqual(page.consoleErrors, []);
      } finally {
        for (const page of [played, seeker, linked]) await page.context().close();
      }
    },
  },
];
