// Routes in the viewer: drawing with real pointer events, characters following at constant speed
// by arc length, click-to-go with a turning radius (checked against the md5stage command), tight
// stretches flagged, and corner rounding clearing them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadFromServer, newPage, openViewer, waitFrames } from './lib/harness.mjs';

const WALKER = ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim'].map((f) => `/assets/models/walker/${f}`);

async function walkerScene(ctx) {
  if (!fs.existsSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'))) return null;
  const page = await newPage(ctx.browser);
  await openViewer(page, ctx.baseUrl + '?scene=none');
  const reply = await loadFromServer(page, WALKER);
  assert.deepEqual(reply.errors, []);
  await page.evaluate(() => window.md5stage.camera({ target: [0, 0, 0], yaw: -90, pitch: 60, distance: 700 }));
  await waitFrames(page, 2);
  return page;
}

const call = (page, command) => page.evaluate((c) => window.md5stage.call(c), command);
const near = (a, b, tolerance) => Math.abs(a - b) <= tolerance;
const angleGap = (a, b) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));

export const tests = [
  {
    name: 'a route drawn with the mouse is followed at constant speed by arc length',
    async run(ctx) {
      const page = await walkerScene(ctx);
      if (!page) return { skipped: 'assets/models/walker missing: skipped' };
      assert.ok((await call(page, { cmd: 'tool', tool: 'route', route: -1 })).ok);
      // Three plain clicks (corners), then a press-drag-release (a smooth point with handles).
      const clicks = [[500, 420], [780, 430], [800, 250]];
      const grounds = [];
      for (const [x, y] of clicks) {
        grounds.push((await call(page, { cmd: 'groundAt', x, y })).point);
        await page.mouse.click(x, y);
        await waitFrames(page, 1);
      }
      grounds.push((await call(page, { cmd: 'groundAt', x: 560, y: 230 })).point);
      await page.mouse.move(560, 230);
      await page.mouse.down();
      await page.mouse.move(480, 260, { steps: 6 });
      await page.mouse.up();
      await waitFrames(page, 2);
      const routes = await page.evaluate(() => window.md5stage.getRoutes());
      assert.equal(routes.length, 1);
      const segments = routes[0].segments;
      assert.equal(segments.length, 3, JSON.stringify(segments));
      assert.ok(segments[0].line && segments[1].line, 'corners make line segments');
      assert.ok(segments[2].bezier, 'the dragged point makes a Bezier');
      const starts = segments.map((s) => (s.line || s.bezier)[0]).concat([segments[2].bezier[3]]);
      for (let i = 0; i < 4; i++) {
        assert.ok(near(starts[i][0], grounds[i][0], 0.02) && near(starts[i][1], grounds[i][1], 0.02),
                  `point ${i}: ${starts[i]} vs clicked ${grounds[i]}`);
      }
      await page.screenshot({ path: ctx.screenshotPath('routes-drawn') });
      // Put the walker on the route's start facing along it, then follow the route once.
      const start = await call(page, { cmd: 'sampleRoute', route: 0, distance: 0 });
      await call(page, { cmd: 'tool', tool: 'camera' });
      await call(page, { cmd: 'pauseScene' });
      await call(page, { cmd: 'setSceneTime', time: 0 });
      await call(page, { cmd: 'setPlacement', instance: 0, position: [...start.position, 0], heading: start.heading });
      await page.evaluate(() => window.md5stage.setSpeed(0, 60));
      assert.ok((await page.evaluate(() => window.md5stage.assignRoute(0, 0, 'once'))).ok);
      const length = routes[0].length;
      for (const t of [0.5, 2.0, 3.7, length / 60 * 0.9]) {
        await page.evaluate((time) => window.md5stage.setSceneTime(time), t);
        await waitFrames(page, 1);
        const instance = (await page.evaluate(() => window.md5stage.state())).instances[0];
        const expected = await call(page, { cmd: 'sampleRoute', route: 0, distance: 60 * t });
        assert.ok(near(instance.distance, 60 * t, 1e-6), `distance ${instance.distance} at t=${t}`);
        const gap = Math.hypot(instance.position[0] - expected.position[0], instance.position[1] - expected.position[1]);
        assert.ok(gap < 1e-3 * length, `t=${t}: ${gap} units off the route`);
        assert.ok(angleGap(instance.heading, expected.heading) < 1e-4, `t=${t}: heading`);
        assert.ok(instance.moving && instance.animation === 'walk', `t=${t}: not walking`);
      }
      // Past the end of a "once" route it stops and blends to idle.
      await page.evaluate((time) => window.md5stage.setSceneTime(time), length / 60 + 1);
      await call(page, { cmd: 'playScene' });
      await waitFrames(page, 3);
      const stopped = (await page.evaluate(() => window.md5stage.state())).instances[0];
      assert.equal(stopped.moving, false);
      assert.equal(stopped.animation, 'idle');
      await page.context().close();
    },
  },
  {
    name: 'goTo a point behind: heading turns continuously; the length equals md5stage turn',
    async run(ctx) {
      const page = await walkerScene(ctx);
      if (!page) return { skipped: 'assets/models/walker missing: skipped' };
      await call(page, { cmd: 'pauseScene' });
      await call(page, { cmd: 'setSceneTime', time: 0 });
      await call(page, { cmd: 'setPlacement', instance: 0, position: [0, 0, 0], heading: 0 });
      await page.evaluate(() => { window.md5stage.setTurnRadius(0, 40); window.md5stage.setSpeed(0, 55); });
      const reply = await page.evaluate(() => window.md5stage.goTo(0, -100, 0));
      assert.ok(reply.ok, JSON.stringify(reply));
      const cli = path.join(ctx.sourceDir, 'build/native/md5stage');
      if (fs.existsSync(cli)) {
        const out = JSON.parse(execFileSync(cli, ['turn', '--from', '0,0,0', '--to', '-100,0', '--radius', '40', '--json']).toString());
        assert.equal(reply.path.type, out.type);
        assert.ok(near(reply.path.length, out.length, 1e-9 * out.length), `${reply.path.length} vs ${out.length}`);
      }
      let previous = null;
      const total = reply.path.length / 55;
      for (let i = 0; i <= 40; i++) {
        await page.evaluate((time) => window.md5stage.setSceneTime(time), (total * i) / 40);
        const instance = (await page.evaluate(() => window.md5stage.state())).instances[0];
        if (previous) {
          const step = Math.hypot(instance.position[0] - previous.position[0], instance.position[1] - previous.position[1]);
          assert.ok(step <= 55 * total / 40 + 1e-6, `position jumped by ${step}`);
          // Travelling s = speed * dt units on a 40-unit circle turns the heading by at most s / 40.
          const travelled = 55 * total / 40;
          assert.ok(angleGap(instance.heading, previous.heading) <= travelled / 40 + 1e-9, `heading jumped at step ${i}`);
        }
        previous = instance;
        if (i === 20) {
          await call(page, { cmd: 'camera', target: [-20, 30, 0], yaw: -90, pitch: 55, distance: 420 });
          await waitFrames(page, 2);
          await page.screenshot({ path: ctx.screenshotPath('routes-mid-turn') });
        }
      }
      assert.ok(Math.hypot(previous.position[0] + 100, previous.position[1]) < 1e-6, 'did not arrive');
      // A new target while moving starts from the current pose: no jump.
      await page.evaluate((time) => window.md5stage.setSceneTime(time), total / 2);
      const before = (await page.evaluate(() => window.md5stage.state())).instances[0];
      await page.evaluate(() => window.md5stage.goTo(0, 200, 200, Math.PI / 2));
      const after = (await page.evaluate(() => window.md5stage.state())).instances[0];
      assert.ok(Math.hypot(before.position[0] - after.position[0], before.position[1] - after.position[1]) < 1e-6);
      assert.ok(angleGap(before.heading, after.heading) < 1e-6);
      assert.ok(['LSL', 'LSR', 'RSL', 'RSR', 'RLR', 'LRL'].includes(after.path.type), after.path.type);
      await page.context().close();
    },
  },
  {
    name: 'a kink is flagged; with corner rounding nothing is',
    async run(ctx) {
      const page = await walkerScene(ctx);
      if (!page) return { skipped: 'assets/models/walker missing: skipped' };
      await page.evaluate(() => window.md5stage.setTurnRadius(0, 40));
      const set = await page.evaluate(() => window.md5stage.setRoute(0, [
        { line: [[-200, -100], [0, -100]] }, { line: [[0, -100], [0, 150]] }, { line: [[0, 150], [-150, 150]] }]));
      assert.ok(set.ok, JSON.stringify(set));
      await page.evaluate(() => window.md5stage.assignRoute(0, 0, 'loop'));
      let routes = await page.evaluate(() => window.md5stage.getRoutes());
      assert.equal(routes[0].check_radius, 40);
      assert.ok(routes[0].tight.length >= 2, JSON.stringify(routes[0].tight));
      assert.ok(routes[0].tight.every((t) => t.min_radius < 40));
      await call(page, { cmd: 'camera', target: [-60, 25, 0], yaw: -90, pitch: 70, distance: 650 });
      await waitFrames(page, 3);
      await page.screenshot({ path: ctx.screenshotPath('routes-kinks-flagged') });
      assert.ok((await call(page, { cmd: 'tool', tool: 'route', route: 0, round: true })).ok);
      routes = await page.evaluate(() => window.md5stage.getRoutes());
      assert.deepEqual(routes[0].tight, [], JSON.stringify(routes[0].tight));
      assert.ok(routes[0].segments.some((s) => s.bezier), 'no fillet arcs');
      await waitFrames(page, 3);
      await page.screenshot({ path: ctx.screenshotPath('routes-rounded') });
      await page.context().close();
    },
  },
];
