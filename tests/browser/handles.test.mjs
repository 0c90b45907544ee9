// Handles, not positions (issue 43), as a person meets them in the page: `turns` plus a model
// picked with the file picker that gets two characters; the first of them is selected and
// followed; removing the walker model (whose characters come before it) leaves the selection
// and the camera on that very character; a removed character's id is refused and changes
// nothing.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openViewer } from './lib/harness.mjs';
import { call, frames, newInputPage, state, waitUntil, grab, countWhere, BACKGROUND } from './lib/input.mjs';
import { guarded } from './share.test.mjs';

const LAMP = (ctx) => path.join(ctx.site, 'assets/models/lamp/lamp.md5mesh');

const differs = (p) => Math.abs(p[0] - BACKGROUND[0]) + Math.abs(p[1] - BACKGROUND[1]) + Math.abs(p[2] - BACKGROUND[2]) > 30;

export const tests = [
  {
    name: 'removing a model before the selected, followed character leaves the selection and the camera on it',
    run: guarded(async (ctx) => {
      const page = await newInputPage(ctx.browser, { width: 1280, height: 720 });
      try {
        await openViewer(page, ctx.baseUrl, '#demo=turns');
        assert.ok((await page.evaluate(() => window.md5stage.opened)).ok);
        const walkers = (await state(page)).instances.length;
        assert.ok(walkers >= 1);
        // The lamp, picked as a person picks files; then a second lamp.
        await page.setInputFiles('#file-picker', [LAMP(ctx)]);
        assert.ok(await waitUntil(page, (n) => window.md5stage.state().instances.length === n + 1, walkers),
                  'the picked lamp got no character');
        assert.ok((await call(page, { cmd: 'addInstance', model: 'lamp', position: [600, 300, 0] })).ok);
        let s = await state(page);
        const lamps = s.instances.filter((i) => i.model === 'lamp');
        assert.equal(lamps.length, 2);
        const first = lamps[0].id;
        assert.match(first, /^c\d+$/);
        // Select the first lamp by its id, and follow it.
        assert.ok((await call(page, { cmd: 'select', instance: first })).ok);
        assert.ok((await call(page, { cmd: 'follow', on: true })).ok);
        s = await state(page);
        assert.equal(s.selected_id, first);
        const labelBefore = s.instances[s.selected].label;

        assert.ok((await call(page, { cmd: 'removeModel', model: 'walker' })).ok);
        s = await state(page);
        assert.equal(s.instances.length, 2, 'the walkers are gone, the lamps stay');
        assert.equal(s.selected_id, first, 'the selection moved to another character');
        assert.equal(s.instances[s.selected].label, labelBefore);
        assert.equal(s.selected, 0, 'the same lamp, now first in the list');

        // The camera follows that lamp: placed far away, it is drawn at the middle of the view.
        assert.ok((await call(page, { cmd: 'setPlacement', instance: first, position: [-2000, 1500, 0] })).ok);
        await frames(page, 3);
        s = await state(page);
        assert.ok(Math.abs(s.camera.target[0] + 2000) < 1e-3 && Math.abs(s.camera.target[1] - 1500) < 1e-3,
                  `the camera's target ${s.camera.target} did not follow the selected lamp`);
        const bounds = await call(page, { cmd: 'screenBounds', instance: first });
        assert.ok(bounds.ok, JSON.stringify(bounds));
        const image = await grab(page);
        const box = bounds.rect || bounds.bounds;
        const drawn = countWhere(image, differs, box);
        assert.ok(drawn > 30, `only ${drawn} pixels of the followed lamp were drawn in its box ${box}`);

        // A removed character's id is refused, naming the field, and changes nothing.
        const gone = (await page.evaluate(() => window.md5stage.state())).instances.length;
        const stale = await call(page, { cmd: 'select', instance: 'c1' });
        assert.equal(stale.ok, false);
        assert.match(stale.error, /^select\.instance: expected the id of one of the scene's characters, found "c1" \(removed, or never here\)$/);
        s = await state(page);
        assert.equal(s.instances.length, gone);
        assert.equal(s.selected_id, first);
      } finally {
        await page.context().close();
      }
    }),
  },
];
