// <md5-stage> given hostile attribute values (issue 46): every attribute the element observes is
// set, one value at a time, to values a careless or hostile page could give it: very long ones
// (5 MB for each, 50 MB for `scene`), javascript:, data: and file: URLs where URLs go, markup
// where text goes, non-finite and huge numbers, names the model does not have. Each is an
// `error` event naming the attribute, with a bounded message; no script runs, nothing is fetched
// from a scheme other than http(s), and that figure and the page's other figures draw on. Then
// 5 MB and 50 MB commands go straight through a figure's call() into the shared module (the
// runtime copies commands into the wasm heap, never onto its stack): refused, and the module
// keeps running every figure.
import assert from 'node:assert/strict';
import { countDifferentPixels } from './lib/png.mjs';
import { guarded, trackedPage } from './share.test.mjs';
import { assertDrawn, assertDrawsNow, recordErrors, scrollToFigure, staged, until, upperPicture } from './element.test.mjs';

const RAN = 'window.__hostileRan=1';
const MB = 1 << 20;
const long = (megabytes) => ({ repeat: 'A', length: megabytes * MB });
const DISPLAY = ['grid', 'skeleton', 'joint_names', 'bounds', 'wireframe', 'normals', 'routes', 'turn_circles', 'construction', 'clearance'];

// [figure, attribute, value]: `value` is a string or {repeat, length} (made in the page).
function hostileCases() {
  const cases = [];
  const add = (figure, attribute, ...values) => { for (const value of values) cases.push([figure, attribute, value]); };
  add('target', 'scene', long(5), long(50), `javascript:${RAN}`, `data:text/html,<script>${RAN}</script>`,
      `<img src=x onerror="${RAN}">`);
  add('target', 'src', long(5), `javascript:${RAN}//.md5mesh`, 'data:text/plain;base64,TVZlcnNpb24gMTA=', 'file:///etc/passwd');
  add('model', 'anims', long(5), `javascript:${RAN}`, 'data:text/plain,MD5Version%2010', 'file:///etc/passwd');
  add('model', 'materials', long(5), `javascript:${RAN}`, 'data:text/plain,table');
  add('model', 'mesh-pack', long(5), `javascript:${RAN}`, 'data:application/octet-stream,MD5PACK', 'file:///etc/passwd');
  add('target', 'poster', long(5), `javascript:${RAN}`, `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="${RAN}"/>`,
      'file:///etc/passwd');
  add('target', 'alt', long(5), `<img src=x onerror="${RAN}">`, 'x'.repeat(5000));
  add('target', 't', long(5), 'NaN', 'Infinity', '1e400', '-1', '1e300');
  add('target', 'loop', long(5), 'NaN-2', '0-1e400', '0-Infinity', '1e300-1e301');
  add('target', 'camera', long(5), 'NaN,0,100', 'Infinity,0,100', '1e400,0,100', '0,0,1e300', '0,0,100,1e9,0,0', `javascript:${RAN}`);
  add('target', 'autoplay', long(5), `javascript:${RAN}`);
  add('target', 'paused', long(5), `javascript:${RAN}`);
  for (const toggle of DISPLAY) add('target', toggle, long(5), `javascript:${RAN}`, 'NaN');
  add('target', 'avoidance', long(5), `javascript:${RAN}`, 'NaN');
  add('target', 'loading', long(5), `javascript:${RAN}`);
  add('target', 'ui', long(5), '<b>controls</b>');
  add('target', 'tool', long(5), `javascript:${RAN}`);
  add('target', 'animation', long(5), 'no_such_clip', `<script>${RAN}</script>`);
  add('target', 'camera-controls', long(5));
  add('target', 'auto-rotate', long(5), `javascript:${RAN}`, 'NaN');
  add('target', 'rotation-per-second', long(5), 'NaN', '1e400deg', 'Infinityrad', `javascript:${RAN}`);
  add('target', 'time-scale', long(5), 'NaN', 'Infinity', '-1', '1e300', `javascript:${RAN}`);
  add('target', 'interaction-prompt', long(5), '<b>none</b>');
  add('target', 'shadow-intensity', long(5), 'NaN', 'Infinity', '-1', '2', `javascript:${RAN}`);
  add('target', 'animation-crossfade-duration', long(5), 'NaN', '1e400', '-5', `javascript:${RAN}`);
  add('target', 'min-render-scale', long(5), 'NaN', '0.1', '2', 'Infinity', `javascript:${RAN}`);
  return cases;
}

export const tests = [
  {
    name: 'hostile attributes: each is an error event naming it, nothing runs or is fetched but http(s), every figure draws on; 5 and 50 MB commands leave the module running',
    timeoutMs: 300000,
    run: guarded(async (ctx) => {
      if (!staged(ctx)) return { skipped: 'the figures module is not staged' };
      const page = await trackedPage(ctx, { width: 1100, height: 600 });
      await recordErrors(page);
      const requests = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.addInitScript(() => {
        window.fetched = [];
        const fetchAsGiven = window.fetch.bind(window);
        window.fetch = (input, init) => {
          window.fetched.push(String(input && input.url ? input.url : input));
          return fetchAsGiven(input, init);
        };
      });
      const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <md5-stage id="target" scene="turns" autoplay loading="eager" style="width:360px;height:240px"></md5-stage>
        <md5-stage id="model" src="assets/models/walker/walker.md5mesh" anims="assets/models/walker/walk.md5anim"
                   autoplay loading="eager" style="width:360px;height:240px"></md5-stage>
        <md5-stage id="other" scene="turns" autoplay loading="eager" style="width:360px;height:240px"></md5-stage>
        <script src="md5stage-element.js"></script></body></html>`;
      await page.route(`${ctx.baseUrl}hostile.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
      await page.goto(`${ctx.baseUrl}hostile.html`);
      for (const id of ['target', 'model', 'other']) await scrollToFigure(page, id);
      const before = {};
      for (const id of ['target', 'model', 'other']) before[id] = await upperPicture(page, `#${id}`);
      assert.deepEqual(await page.evaluate(() => window.figureErrors), []);

      // Each value in turn: the attribute is set, an error event naming it is awaited, then the
      // attribute gets its value from before back.
      const cases = hostileCases();
      const outcomes = await page.evaluate(async (list) => {
        const results = [];
        for (const [id, attribute, spec] of list) {
          const figure = document.getElementById(id);
          const value = typeof spec === 'string' ? spec : spec.repeat.repeat(spec.length);
          const previous = figure.getAttribute(attribute);
          const errors = [];
          const listen = (event) => { if (event.detail.attribute === attribute) errors.push(event.detail); };
          figure.addEventListener('error', listen);
          let threw = null;
          try {
            figure.setAttribute(attribute, value);
          } catch (error) {
            threw = String(error);
          }
          const start = performance.now();
          while (!errors.length && performance.now() - start < 10000) await new Promise((resolve) => setTimeout(resolve, 20));
          const poster = figure.shadowRoot.querySelector('img');
          results.push({ id, attribute, value: value.length > 60 ? `${value.length} characters` : value, threw,
                         errors: errors.map((e) => e.message.length > 80 ? `${e.message.slice(0, 80)}... (${e.message.length})` : e.message),
                         longest: Math.max(0, ...errors.map((e) => e.message.length)),
                         posterSrc: poster.getAttribute('src'), posterHidden: poster.hidden, label: figure.getAttribute('aria-label') });
          figure.removeEventListener('error', listen);
          if (previous === null) figure.removeAttribute(attribute);
          else figure.setAttribute(attribute, previous);
        }
        return results;
      }, cases);
      const problems = [];
      for (const outcome of outcomes) {
        const what = `${outcome.id} ${outcome.attribute}="${outcome.value}"`;
        if (outcome.threw) problems.push(`${what}: setAttribute threw ${outcome.threw}`);
        if (!outcome.errors.length) problems.push(`${what}: no error event naming it`);
        if (outcome.longest > 601) problems.push(`${what}: an error message of ${outcome.longest} characters`);
        if (outcome.posterSrc && !/^https?:/.test(outcome.posterSrc)) problems.push(`${what}: the poster loads ${outcome.posterSrc.slice(0, 60)}`);
        if (outcome.label && outcome.label.length > 1000) problems.push(`${what}: an aria-label of ${outcome.label.length} characters`);
      }
      assert.deepEqual(problems, [], JSON.stringify(outcomes.filter((o) => !o.errors.length || o.threw), null, 1));
      // Markup in alt is read out as it was written.
      const markup = outcomes.find((o) => o.attribute === 'alt' && o.value.startsWith('<img'));
      assert.equal(markup.label, `<img src=x onerror="${RAN}">`);
      // Every value was tried and refused.
      assert.equal(outcomes.length, cases.length);
      assert.ok(cases.length >= 70, `${cases.length} cases`);

      // Nothing ran, and every request and fetch was the test server's, over http.
      await page.waitForTimeout(500);
      assert.equal(await page.evaluate(() => window.__hostileRan), undefined, 'a hostile value ran script');
      const fetched = await page.evaluate(() => window.fetched);
      const foreign = [...requests, ...fetched].filter((url) => !url.startsWith(ctx.baseUrl));
      assert.deepEqual(foreign, [], 'fetched from elsewhere');
      assert.ok(fetched.some((url) => url.endsWith('walk.md5anim')), 'the figures fetched nothing through fetch()');

      // Straight into the module: a 5 MB and a 50 MB command, copied into the wasm heap (never
      // onto its 5 MB stack, which the 50 MB one would pass ten times); each is refused.
      const direct = await page.evaluate(() => [5, 50].map((megabytes) => {
        const reply = document.getElementById('target').call({ cmd: 'openLink', payload: 'A'.repeat(megabytes << 20) });
        return { ok: reply.ok, error: String(reply.error).slice(0, 200) };
      }));
      for (const reply of direct) {
        assert.equal(reply.ok, false);
        assert.match(reply.error, /at most \d+/, reply.error);
      }

      // Every figure draws on (new pictures, different from those before the values) and answers.
      await page.evaluate(() => {
        document.getElementById('target').play();
        document.getElementById('model').play();
      });
      for (const id of ['target', 'model', 'other']) {
        const now = await assertDrawsNow(page, id, before[id], 'after the hostile values');
        assertDrawn(now, id);
      }
      const states = await page.evaluate(() => ['target', 'model', 'other'].map((id) => {
        const state = document.getElementById(id).state();
        return state && state.ok !== false ? state.instances.length : -1;
      }));
      assert.deepEqual(states, [3, 1, 3], 'a figure lost its scene or stopped answering');
      // The target's scene is still `turns` and it still takes a good value.
      await page.evaluate(() => document.getElementById('target').setAttribute('skeleton', '1'));
      await until(page, () => document.getElementById('target').state().display.skeleton === true);
      const after = await upperPicture(page, '#target');
      assert.ok(countDifferentPixels(before.target, after, 12) > 20);
      await page.screenshot({ path: ctx.screenshotPath('element-hostile') });
    }),
  },
];
