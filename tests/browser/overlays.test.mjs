// Overlays judged by pixels at a fixed camera with the scene paused: a stretch of route tighter
// than the turning radius is drawn red where it projects, and the grid, routes, skeleton and
// wireframe toggles change the picture in their own regions only. The comment above each test
// names the failure it catches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadFromServer } from './lib/harness.mjs';
import {
  ROUTE_RED, SKELETON_CYAN, anyNear, call, changedPixels, contentMask, countColour, coverage, emptyViewer, frames,
  grab, grow, inside, pixel, projector, rectArea, state,
} from './lib/input.mjs';

// A kink route: two right-angle corners, each tighter than any turning radius.
const KINKS = [{ line: [[-200, -100], [0, -100]] }, { line: [[0, -100], [0, 150]] }, { line: [[0, 150], [-150, 150]] }];
const TOP_VIEW = { target: [-60, 25, 0], yaw: -90, pitch: 70, distance: 650 };
// A straight leg, a quarter circle of radius 30 (a cubic Bezier, handles 30 x 0.5523), a straight leg.
const ARC = [{ line: [[-200, -100], [0, -100]] },
             { bezier: [[0, -100], [16.569, -100], [30, -86.569], [30, -70]] },
             { line: [[30, -70], [30, 150]] }];
const ARC_VIEW = { target: [-40, 10, 0], yaw: -90, pitch: 70, distance: 480 };
const WALKER_VIEW = { target: [0, 0, 40], yaw: 30, pitch: 20, distance: 240 };

// The walker, paused, panels hidden (the 3D view alone is compared), at a fixed camera.
async function pausedWalker(ctx, camera) {
  if (!fs.existsSync(path.join(ctx.site, 'assets/models/walker/walker.md5mesh'))) return null;
  const page = await emptyViewer(ctx);
  const reply = await loadFromServer(page, ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim']
    .map((f) => `/assets/models/walker/${f}`));
  assert.deepEqual(reply.errors, []);
  await call(page, { cmd: 'ui', panels: false });
  await call(page, { cmd: 'pauseScene' });
  await call(page, Object.assign({ cmd: 'camera' }, camera));
  await frames(page, 2);
  return page;
}

// The walker on a route, standing at its start facing along it (no approach path drawn), with
// the given turning radius.
async function walkerOnRoute(page, segments, radius) {
  const set = await page.evaluate((r) => window.md5stage.setRoute(0, r), segments);
  assert.ok(set.ok, JSON.stringify(set));
  const start = await call(page, { cmd: 'sampleRoute', route: 0, distance: 0 });
  await call(page, { cmd: 'setSceneTime', time: 0 });
  await call(page, { cmd: 'setPlacement', instance: 0, position: [...start.position, 0], heading: start.heading });
  await page.evaluate((r) => window.md5stage.setTurnRadius(0, r), radius);
  assert.ok((await page.evaluate(() => window.md5stage.assignRoute(0, 0, 'loop'))).ok);
  await call(page, { cmd: 'pauseScene' });
}

// World points along route 0 every `step` units, between distances a and b (at the overlay's lift).
async function routePoints(page, a, b, step) {
  return page.evaluate(([from, to, by]) => {
    const points = [];
    for (let d = from; d <= to + 1e-9; d += by) {
      const sample = window.md5stage.call({ cmd: 'sampleRoute', route: 0, distance: d });
      points.push([sample.position[0], sample.position[1], 0.05]);
    }
    return points;
  }, [a, b, step]);
}

// A test `near(x, y)`: within `radius` pixels of any of the screen points.
function nearAny(screenPoints, radius) {
  const cell = Math.max(4, Math.ceil(radius));
  const buckets = new Map();
  for (const p of screenPoints) {
    if (!p) continue;
    const key = `${Math.floor(p[0] / cell)},${Math.floor(p[1] / cell)}`;
    if (!buckets.has(key)) buckets.set(key, []);
    buckets.get(key).push(p);
  }
  return (x, y) => {
    const cx = Math.floor(x / cell), cy = Math.floor(y / cell);
    for (let i = -1; i <= 1; i++) {
      for (let j = -1; j <= 1; j++) {
        for (const p of buckets.get(`${cx + i},${cy + j}`) || []) {
          if (Math.hypot(p[0] - x, p[1] - y) <= radius) return true;
        }
      }
    }
    return false;
  };
}

// Route colours as drawn (one pixel wide, blended by coverage over the clear colour): a tight
// stretch (255, 70, 60) or its ring (255, 60, 50); a loose stretch (255, 210, 80).
const isRed = (p) => coverage(p, ROUTE_RED, { tolerance: 12 }) > 0 || coverage(p, [255, 60, 50], { tolerance: 12 }) > 0;
const isYellow = (p) => coverage(p, [255, 210, 80], { tolerance: 14 }) > 0;

// The projection in JS agrees with the viewer's own picking: groundAt(pixel) projects back onto
// that pixel. (A wrong projector would put every expected region in the wrong place.)
async function checkProjector(page, project) {
  for (const [x, y] of [[400, 300], [900, 500], [640, 360]]) {
    const ground = await call(page, { cmd: 'groundAt', x, y });
    assert.ok(ground.ok, JSON.stringify(ground));
    const p = project([ground.point[0], ground.point[1], 0]);
    assert.ok(p && Math.hypot(p[0] - x, p[1] - y) < 1.5, `projector: ground under (${x}, ${y}) projects to ${p}`);
  }
}

export const tests = [
  {
    // Catches: a tight stretch not drawn red, red drawn elsewhere than where the tight stretch
    // projects, or red without any tight stretch (turning radius 0 is the control). The route has
    // a quarter circle of radius 30 between two straight legs: with a turning radius of 60 the
    // whole arc, and only the arc, is too tight.
    name: 'a route tighter than the turning radius is drawn red where the tight stretch projects',
    async run(ctx) {
      const page = await pausedWalker(ctx, ARC_VIEW);
      if (!page) return { skipped: 'assets/models/walker missing: skipped' };
      await walkerOnRoute(page, ARC, 0);
      await frames(page, 2);
      const loose = await grab(page, ctx.screenshotPath('overlays-route-radius0'));
      assert.deepEqual((await page.evaluate(() => window.md5stage.getRoutes()))[0].tight, []);
      await page.evaluate(() => window.md5stage.setTurnRadius(0, 60));
      await frames(page, 2);
      const tightImage = await grab(page, ctx.screenshotPath('overlays-route-tight'));
      const route = (await page.evaluate(() => window.md5stage.getRoutes()))[0];
      assert.equal(route.tight.length, 1, JSON.stringify(route.tight));
      const stretch = route.tight[0];
      // The arc: from 200 to 200 + 15 pi (47.1) along the route.
      assert.ok(Math.abs(stretch.start - 200) < 3 && Math.abs(stretch.end - 247.1) < 3, JSON.stringify(stretch));
      const s = await state(page);
      const project = projector(s.camera, s.canvas);
      await checkProjector(page, project);
      const problems = [];
      const fraction = (image, points, test) =>
        points.filter((p) => anyNear(image, p[0], p[1], 2, test)).length / points.length;
      // Along the tight stretch: red with the radius, yellow (and no red) without.
      const onArc = (await routePoints(page, stretch.start + 2, stretch.end - 2, 2)).map(project);
      const redNow = fraction(tightImage, onArc, isRed), redBefore = fraction(loose, onArc, isRed);
      const yellowBefore = fraction(loose, onArc, isYellow);
      if (redNow < 0.8) problems.push(`only ${(100 * redNow).toFixed(0)}% of the tight stretch is drawn red`);
      if (redBefore > 0.05) problems.push(`${(100 * redBefore).toFixed(0)}% of the arc is red with turning radius 0`);
      if (yellowBefore < 0.8) problems.push(`only ${(100 * yellowBefore).toFixed(0)}% of the arc is route yellow with turning radius 0`);
      // The straight legs, away from the arc (and its ring): yellow, never red.
      const legs = (await routePoints(page, 10, stretch.start - 15, 5))
        .concat(await routePoints(page, stretch.end + 15, route.length - 10, 5)).map(project);
      const redLegs = fraction(tightImage, legs, isRed), yellowLegs = fraction(tightImage, legs, isYellow);
      if (redLegs > 0.02) problems.push(`${(100 * redLegs).toFixed(0)}% of the loose legs are drawn red`);
      if (yellowLegs < 0.8) problems.push(`only ${(100 * yellowLegs).toFixed(0)}% of the loose legs are route yellow`);
      // Every pixel that turned red lies on the stretch or its ring (length / 80 around its
      // tightest point), as projected.
      const ring = Math.max(route.length / 80, 1);
      const around = (await routePoints(page, stretch.start - ring, stretch.end + ring, 1)).map(project);
      const ringPixels = Math.hypot(...[0, 1].map((k) => project([ring, 0, 0])[k] - project([0, 0, 0])[k]));
      const nearStretch = nearAny(around, ringPixels + 6);
      let stray = 0, total = 0;
      for (let y = 0; y < tightImage.height; y++) {
        for (let x = 0; x < tightImage.width; x++) {
          if (!isRed(pixel(tightImage, x, y)) || isRed(pixel(loose, x, y))) continue;
          total++;
          if (!nearStretch(x, y)) stray++;
        }
      }
      if (total < 20) problems.push(`only ${total} pixels turned red`);
      if (stray > 0.02 * total) problems.push(`${stray} of ${total} pixels that turned red lie away from the tight stretch`);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
      assert.ok(problems.length === 0, problems.join('\n'));
    },
  },
  {
    // Catches: the grid toggle not changing the ground, or changing the character's own pixels
    // (grid drawn over the mesh instead of depth-tested behind it, or the toggle redrawing it).
    name: 'grid off changes the ground far from the character, not the character',
    async run(ctx) {
      const page = await pausedWalker(ctx, WALKER_VIEW);
      if (!page) return { skipped: 'assets/models/walker missing: skipped' };
      const rect = (await call(page, { cmd: 'screenBounds', instance: 0 })).rect;
      const gridOn = await grab(page, ctx.screenshotPath('overlays-grid-on'));
      await page.evaluate(() => window.md5stage.display({ grid: false }));
      await frames(page, 2);
      const gridOff = await grab(page, ctx.screenshotPath('overlays-grid-off'));
      // Grid off: the walker is all that is not the clear colour; its pixels, less the edges.
      const mask = contentMask(gridOff, 10, 2);
      let maskPixels = 0;
      for (const v of mask) maskPixels += v;
      assert.ok(maskPixels > 0.1 * rectArea(rect), `the walker covers only ${maskPixels} pixels`);
      const far = grow(rect, 30);
      const changed = changedPixels(gridOn, gridOff, 24);
      const ground = changed.filter(([x, y]) => !inside(far, x, y)).length;
      const onWalker = changed.filter(([x, y]) => mask[y * gridOff.width + x]).length;
      assert.ok(ground > 3000, `grid off changed only ${ground} ground pixels away from the walker`);
      assert.ok(onWalker <= 0.002 * maskPixels, `grid off changed ${onWalker} of the walker's ${maskPixels} pixels`);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    // Catches: the routes toggle not hiding the route, or changing pixels away from where the
    // route projects (the character, the grid).
    name: 'routes off removes the route where it projects and nothing else',
    async run(ctx) {
      const page = await pausedWalker(ctx, TOP_VIEW);
      if (!page) return { skipped: 'assets/models/walker missing: skipped' };
      await walkerOnRoute(page, KINKS, 0);
      await frames(page, 2);
      const routesOn = await grab(page, ctx.screenshotPath('overlays-routes-on'));
      await page.evaluate(() => window.md5stage.display({ routes: false }));
      await frames(page, 2);
      const routesOff = await grab(page, ctx.screenshotPath('overlays-routes-off'));
      const s = await state(page);
      const project = projector(s.camera, s.canvas);
      await checkProjector(page, project);
      const route = (await page.evaluate(() => window.md5stage.getRoutes()))[0];
      const screen = (await routePoints(page, 0, route.length, 1)).map(project);
      // Ticks and arrows reach about 0.25 x step (route length / 20) beside the line.
      const near = nearAny(screen, 12);
      const changed = changedPixels(routesOn, routesOff, 24);
      const away = changed.filter(([x, y]) => !near(x, y)).length;
      assert.ok(changed.length > 800, `routes off changed only ${changed.length} pixels`);
      assert.ok(away <= 0.01 * changed.length, `${away} of ${changed.length} changed pixels are away from the route`);
      // Along the route the line is gone: route yellow near every fifth sample before, none after.
      const samples = screen.filter((_, i) => i % 5 === 0);
      const shown = samples.filter((p) => anyNear(routesOn, p[0], p[1], 2, isYellow)).length;
      const left = samples.filter((p) => anyNear(routesOff, p[0], p[1], 2, isYellow)).length;
      assert.ok(shown >= 0.8 * samples.length, `the route was drawn at only ${shown} of ${samples.length} samples`);
      assert.equal(left, 0, `${left} of ${samples.length} samples still show the route with routes off`);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    // Catches: the skeleton toggle drawing nothing, drawing it away from the character, or
    // changing pixels outside the character's screen box.
    name: 'skeleton on adds cyan bones inside the character\'s screen box only',
    async run(ctx) {
      const page = await pausedWalker(ctx, WALKER_VIEW);
      if (!page) return { skipped: 'assets/models/walker missing: skipped' };
      const rect = (await call(page, { cmd: 'screenBounds', instance: 0 })).rect;
      const box = grow(rect, 6);
      const off = await grab(page, ctx.screenshotPath('overlays-skeleton-off'));
      await page.evaluate(() => window.md5stage.display({ skeleton: true }));
      await frames(page, 2);
      const on = await grab(page, ctx.screenshotPath('overlays-skeleton-on'));
      const changed = changedPixels(off, on, 24);
      const outside = changed.filter(([x, y]) => !inside(box, x, y)).length;
      const cyanOff = countColour(off, SKELETON_CYAN, 40, box), cyanOn = countColour(on, SKELETON_CYAN, 40, box);
      assert.ok(changed.length > 150, `skeleton on changed only ${changed.length} pixels`);
      assert.ok(cyanOn >= cyanOff + 80, `skeleton-cyan pixels in the character's box: ${cyanOff} -> ${cyanOn}`);
      assert.equal(outside, 0, `skeleton on changed ${outside} pixels outside the character's box ${box}`);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
  {
    // Catches: the wireframe toggle not changing the mesh, or changing pixels outside the
    // character's screen box (the grid, the background).
    name: 'wireframe changes the character\'s pixels only',
    async run(ctx) {
      const page = await pausedWalker(ctx, WALKER_VIEW);
      if (!page) return { skipped: 'assets/models/walker missing: skipped' };
      const rect = (await call(page, { cmd: 'screenBounds', instance: 0 })).rect;
      const box = grow(rect, 4);
      const solid = await grab(page, ctx.screenshotPath('overlays-wireframe-off'));
      await page.evaluate(() => window.md5stage.display({ wireframe: true }));
      await frames(page, 2);
      const wire = await grab(page, ctx.screenshotPath('overlays-wireframe-on'));
      const changed = changedPixels(solid, wire, 24);
      const inBox = changed.filter(([x, y]) => inside(box, x, y)).length;
      assert.ok(inBox > 0.05 * rectArea(rect), `wireframe changed only ${inBox} of ${rectArea(rect)} pixels of the character's box`);
      assert.equal(changed.length - inBox, 0, `wireframe changed ${changed.length - inBox} pixels outside the character's box`);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    },
  },
];
