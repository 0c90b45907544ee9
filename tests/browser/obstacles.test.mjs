// Obstacles in the page: a circle drawn with the obstacle tool by a real mouse drag shows filled
// where it was drawn; a go-to across it plans round it, keeping the clearance (checked on the
// plan's own segments); the maze demo draws its walls and its three walkers walk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadFromServer, openViewer } from './lib/harness.mjs';
import { call, changedPixels, frames, grab, newInputPage, state, waitUntil } from './lib/input.mjs';

const WALKER = ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim'].map((f) => `/assets/models/walker/${f}`);

// Points along a planned path's segments (as state() reports them), every `step` units.
function samplePath(pathJson, step) {
  const points = [];
  for (const s of pathJson.segments) {
    const n = Math.max(1, Math.ceil(s.length / step));
    for (let i = 0; i <= n; i++) {
      const u = (s.length * i) / n;
      if (s.kind === 'line') {
        const h = s.start[2];
        points.push([s.start[0] + u * Math.cos(h), s.start[1] + u * Math.sin(h)]);
      } else {
        const a0 = Math.atan2(s.start[1] - s.centre[1], s.start[0] - s.centre[0]);
        const a = a0 + (s.length > 0 ? (s.sweep * u) / s.length : 0);
        points.push([s.centre[0] + s.radius * Math.cos(a), s.centre[1] + s.radius * Math.sin(a)]);
      }
    }
  }
  return points;
}

export const tests = [
  {
    name: 'a circle drawn with the obstacle tool shows filled, and go-to plans round it',
    async run(ctx) {
      if (!fs.existsSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'))) {
        return { skipped: 'assets/models/walker missing: skipped' };
      }
      const page = await newInputPage(ctx.browser);
      await openViewer(page, ctx.baseUrl + '?scene=none');
      await page.evaluate(() => window.md5stage.opened);
      assert.deepEqual((await loadFromServer(page, WALKER)).errors, []);
      await call(page, { cmd: 'ui', panels: false });
      await call(page, { cmd: 'camera', target: [150, 0, 0], yaw: -90, pitch: 80, distance: 700 });
      await call(page, { cmd: 'setTurnRadius', instance: 0, radius: 30 });
      await frames(page, 2);
      const before = await grab(page);
      // Drag out a circle from its centre (150, 0) to a rim point 60 units away.
      const centre = (await call(page, { cmd: 'screenAt', point: [150, 0, 0] })).pixel;
      const rim = (await call(page, { cmd: 'screenAt', point: [210, 0, 0] })).pixel;
      assert.ok((await call(page, { cmd: 'tool', tool: 'obstacle', shape: 'circle' })).ok);
      await page.mouse.move(centre[0], centre[1]);
      await page.mouse.down();
      await page.mouse.move(rim[0], rim[1], { steps: 8 });
      await page.mouse.up();
      await frames(page, 2);
      const drawn = await state(page);
      assert.equal(drawn.obstacles.length, 1, JSON.stringify(drawn.obstacles));
      const circle = drawn.obstacles[0].circle;
      assert.ok(circle, 'a circle');
      assert.ok(Math.hypot(circle.centre[0] - 150, circle.centre[1]) < 3, `centre ${circle.centre}`);
      assert.ok(Math.abs(circle.radius - 60) < 3, `radius ${circle.radius}`);
      const after = await grab(page, ctx.screenshotPath('obstacle-circle'));
      // Inside the circle's screen disc (its inner 70 %), most pixels changed colour: filled.
      const r = Math.hypot(rim[0] - centre[0], rim[1] - centre[1]);
      const disc = (x, y) => Math.hypot(x - centre[0], y - centre[1]) < 0.7 * r;
      let total = 0;
      for (let y = Math.floor(centre[1] - r); y < centre[1] + r; y++) {
        for (let x = Math.floor(centre[0] - r); x < centre[0] + r; x++) total += disc(x, y) ? 1 : 0;
      }
      const changed = changedPixels(before, after, 24, disc).length;
      assert.ok(changed > 0.8 * total, `${changed} of ${total} pixels in the disc changed`);
      // Beyond it (away from the idling walker), the picture is as it was.
      const far = changedPixels(before, after, 24, (x, y) => x > centre[0] + 2 * r && y > 40 && y < 680).length;
      assert.ok(far < 200, `${far} pixels changed far from the circle`);
      // Go to the other side of it: the plan goes round, keeping the walker's clearance.
      assert.ok((await call(page, { cmd: 'tool', tool: 'camera' })).ok);
      const go = await call(page, { cmd: 'goTo', instance: 0, x: 320, y: 0 });
      assert.ok(go.ok, JSON.stringify(go));
      assert.equal(go.path.type, 'planned');
      const walker = (await state(page)).instances[0];
      const clearance = walker.clearance;
      assert.ok(clearance > 10, `clearance ${clearance}`);
      let nearest = Infinity;
      for (const [x, y] of samplePath(go.path, 1)) {
        // The circle as drawn (its centre and radius are within 3 of 150,0 and 60): the plan may
        // run along the clearance exactly, so the nominal circle is not precise enough here.
        nearest = Math.min(nearest, Math.hypot(x - circle.centre[0], y - circle.centre[1]) - circle.radius);
      }
      assert.ok(nearest >= clearance - 1e-6, `the path comes within ${nearest} of the circle`);
      const end = samplePath(go.path, 1000).pop();
      assert.ok(Math.hypot(end[0] - 320, end[1]) < 1e-6, `ends at ${end}`);
      // And it walks it.
      assert.ok(await waitUntil(page, () => window.md5stage.state().instances[0].position[0] > 60, null, 20000),
                'the walker did not set off');
      const walking = (await state(page)).instances[0];
      assert.ok(Math.hypot(walking.position[0] - 150, walking.position[1]) >= 60 + clearance - 1e-6);
      assert.deepEqual(page.consoleErrors, []);
      await page.close();
    },
  },
  {
    name: '#demo=maze draws its walls and its three walkers walk their own ways',
    async run(ctx) {
      if (!fs.existsSync(path.join(ctx.site, 'assets/scenes/maze.json'))) {
        return { skipped: 'assets/scenes/maze.json missing: skipped' };
      }
      const page = await newInputPage(ctx.browser);
      await openViewer(page, ctx.baseUrl, '#demo=maze');
      const opened = await page.evaluate(() => window.md5stage.opened);
      assert.ok(opened.ok, JSON.stringify(opened));
      await call(page, { cmd: 'ui', panels: false });
      const first = await state(page);
      assert.equal(first.instances.length, 3);
      assert.ok(first.obstacles.length >= 8, `${first.obstacles.length} obstacles`);
      for (const instance of first.instances) {
        assert.equal(instance.plan_message, null, instance.label);
        assert.equal(instance.path.type, 'planned', instance.label);
      }
      // Where each plan passes the dividing wall (x = -220): the tightest turner (radius 25)
      // through the narrow gap, the middle one (50) over the top, the widest (110) round the bottom.
      const crossings = first.instances.map((instance) => {
        const points = samplePath(instance.path, 0.5);
        for (let k = 1; k < points.length; k++) {
          if (points[k - 1][0] < -220 && points[k][0] >= -220) return points[k][1];
        }
        return NaN;
      });
      assert.deepEqual(first.instances.map((i) => i.turn_radius), [25, 50, 110]);
      assert.ok(Math.abs(crossings[0]) < 32 && crossings[1] > 200 && crossings[2] < -250,
                `crossings of the wall at y = ${crossings}`);
      // The walls: pixels on a wall's centre line are wall-coloured (red fill), not the ground's.
      await frames(page, 2);
      const image = await grab(page, ctx.screenshotPath('maze-start'));
      let red = 0, samples = 0;
      // The middle of the dividing wall below the gap and of the wall behind it.
      const wallPoints = [];
      for (let y = -230; y <= -50; y += 20) wallPoints.push([-220, y]);
      for (let y = -130; y <= 130; y += 20) wallPoints.push([-120, y]);
      for (const [wx, wy] of wallPoints) {
        const p = (await call(page, { cmd: 'screenAt', point: [wx, wy, 0] })).pixel;
        const x = Math.round(p[0]), yy = Math.round(p[1]);
        if (x < 0 || yy < 0 || x >= image.width || yy >= image.height) continue;
        samples++;
        const isRed = (px, py) => {
          const i = (py * image.width + px) * 4;
          return image.data[i] > image.data[i + 1] + 60 && image.data[i] > image.data[i + 2] + 60;
        };
        // Red at the wall's middle or right next to it (the walls are a few pixels wide).
        if (isRed(x, yy) || isRed(x - 1, yy) || isRed(x + 1, yy)) red++;
      }
      assert.ok(samples >= 8 && red >= 0.8 * samples, `${red} of ${samples} wall samples red`);
      // They move (the scene starts them after a second).
      const start = first.instances.map((i) => i.position);
      assert.ok(await waitUntil(page, (p) => window.md5stage.state().instances.every(
        (i, k) => Math.hypot(i.position[0] - p[k][0], i.position[1] - p[k][1]) > 40), start, 30000),
                'the walkers did not move');
      await frames(page, 2);
      await page.screenshot({ path: ctx.screenshotPath('maze') });
      // The maze travels in a share link: its walls and the walkers' targets come back.
      const link = await call(page, { cmd: 'shareLink' });
      assert.ok(link.ok, JSON.stringify(link));
      const decoded = await call(page, { cmd: 'decodeLink', payload: link.payload });
      assert.ok(decoded.ok, JSON.stringify(decoded));
      assert.deepEqual(decoded.scene.obstacles, first.obstacles);
      assert.equal(decoded.scene.instances.filter((i) => i.target).length, 3);

      // The maze has avoidance on (its walkers take slots round their one goal): a go-to is
      // planned with the room the crowd's plans keep (kCrowdPlanClearanceFactor), so the plan
      // drawn is the one the crowd walks.
      // A go-to by a click through the maze: the tight turner, sent with the go-to tool to the
      // upper room beyond the walls, plans round them (the straight way crosses a wall); the plan
      // is drawn where it runs and the walker walks it.
      const goal = [80, 290];
      assert.ok((await call(page, { cmd: 'select', instance: 0 })).ok);
      assert.ok((await call(page, { cmd: 'tool', tool: 'goto' })).ok);
      const beforeClick = await grab(page);
      const goalPixel = (await call(page, { cmd: 'screenAt', point: [goal[0], goal[1], 0] })).pixel;
      await page.mouse.move(goalPixel[0], goalPixel[1]);
      await page.mouse.down();
      await page.mouse.up();
      const endOf = (instance) => instance.path && instance.path.segments ? samplePath(instance.path, 1e9).pop() : null;
      let sent = null;
      for (let tries = 0; tries < 100 && !sent; tries++) {
        const walker = (await state(page)).instances[0];
        const end = endOf(walker);
        if (end && Math.hypot(end[0] - goal[0], end[1] - goal[1]) < 6) sent = walker;
        else await frames(page, 1);
      }
      assert.ok(sent, `the click at ${goalPixel} did not send the walker to ${goal}: tool ${(await state(page)).tool}, end ${endOf((await state(page)).instances[0])}, selected ${JSON.stringify((await state(page)).selected)}`);
      assert.equal(sent.path.type, 'planned', JSON.stringify(sent.path));
      assert.equal(sent.plan_message, null);
      assert.ok(sent.plan && sent.plan.expansions > 0 && sent.plan.direct === false, JSON.stringify(sent.plan));
      const planned = samplePath(sent.path, 4);
      // Drawn: near the plan's points away from the walkers (which move anyway), the picture changed.
      await frames(page, 2);
      const afterClick = await grab(page, ctx.screenshotPath('maze-goto'));
      const walkers = (await state(page)).instances.map((i) => i.position);
      let drawnSamples = 0, changedSamples = 0;
      for (const [wx, wy] of planned) {
        if (walkers.some((w) => Math.hypot(w[0] - wx, w[1] - wy) < 80)) continue;
        const p = (await call(page, { cmd: 'screenAt', point: [wx, wy, 0] })).pixel;
        const [x, y] = [Math.round(p[0]), Math.round(p[1])];
        if (x < 2 || y < 2 || x >= afterClick.width - 2 || y >= afterClick.height - 2) continue;
        drawnSamples++;
        const near = (px, py) => Math.abs(px - x) <= 1 && Math.abs(py - y) <= 1;
        if (changedPixels(beforeClick, afterClick, 24, near).length > 0) changedSamples++;
      }
      assert.ok(drawnSamples >= 30 && changedSamples >= 0.8 * drawnSamples,
                `${changedSamples} of ${drawnSamples} points of the plan drawn`);
      // Walked: the walker goes along the plan, coming nearer the goal.
      // The distance to the plan's polyline (its samples 4 apart, joined).
      const onPlanLine = (q) => {
        let best = Infinity;
        for (let k = 1; k < planned.length; ++k) {
          const [ax, ay] = planned[k - 1], [bx, by] = planned[k];
          const dx = bx - ax, dy = by - ay, length2 = dx * dx + dy * dy;
          const t = length2 > 0 ? Math.max(0, Math.min(1, ((q[0] - ax) * dx + (q[1] - ay) * dy) / length2)) : 0;
          best = Math.min(best, Math.hypot(ax + t * dx - q[0], ay + t * dy - q[1]));
        }
        return best;
      };
      const from = Math.hypot(sent.position[0] - goal[0], sent.position[1] - goal[1]);
      assert.ok(await waitUntil(page, ([g, d]) => {
        const q = window.md5stage.state().instances[0].position;
        return Math.hypot(q[0] - g[0], q[1] - g[1]) < d - 150;
      }, [goal, from], 20000), 'the walker did not come 150 nearer the goal');
      const walked = (await state(page)).instances[0];
      // Giving way (the maze's avoidance is on) may take it off its plan, by less than its
      // clearance: farther, the crowd would plan again from where it is.
      const offPlan = onPlanLine(walked.position);
      assert.ok(offPlan < walked.clearance,
                `the walker is ${offPlan} off its plan (clearance ${walked.clearance})`);
      assert.equal(walked.path.type, 'planned');
      assert.deepEqual(page.consoleErrors, []);
      await page.close();
    },
  },
];
