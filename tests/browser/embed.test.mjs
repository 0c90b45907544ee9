// Embeds: embed.html shows the canvas with a small overlay and follows its URL options; a host
// page on another origin drives it through postMessage and hears its events, while other windows
// and origins are ignored; the documentation example runs two embeds from one line of HTML each
// and two more through md5stage-embed.js.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openViewer, serveDirectory, waitFrames } from './lib/harness.mjs';
import { countDifferentPixels, decodePng, distinctColours } from './lib/png.mjs';
import { guarded, noticeText, sceneTime, trackedPage } from './share.test.mjs';

function demosStaged(ctx, names) {
  return names.every((name) => fs.existsSync(path.join(ctx.site, 'assets', 'scenes', `${name}.json`)));
}

async function until(page, predicate, arg, timeout = 60000) {
  return page.waitForFunction(predicate, arg, { timeout, polling: 100 });
}

// A frame's md5stage, once the scene from its URL has opened.
async function openedIn(frame) {
  await frame.waitForFunction(() => window.md5stage && window.md5stage.opened, null, { timeout: 60000 });
  return frame.evaluate(() => window.md5stage.opened);
}

export const tests = [
  {
    name: 'embed.html: canvas and overlay only, URL options applied, play/pause and timeline work',
    run: guarded(async (ctx) => {
      if (!demosStaged(ctx, ['turns'])) return { skipped: 'assets/scenes/turns.json not staged yet' };
      const page = await trackedPage(ctx);
      await openViewer(page, ctx.baseUrl, 'embed.html#demo=turns&paused&t=2.5&camera=-40,35,650,0,90,35&skeleton=1&wireframe=1');
      const opened = await page.evaluate(() => window.md5stage.opened);
      assert.ok(opened.ok, JSON.stringify(opened));
      await waitFrames(page, 2);
      const state = await page.evaluate(() => window.md5stage.state());
      assert.equal(state.panels, false);
      assert.equal(state.scene_playing, false);
      assert.equal(state.scene_time, 2.5);
      assert.deepEqual([state.camera.yaw, state.camera.pitch, state.camera.distance], [-40, 35, 650]);
      assert.deepEqual(state.camera.target, [0, 90, 35]);
      assert.equal(state.display.skeleton, true);
      assert.equal(state.display.wireframe, true);
      assert.equal(state.instances.length, 3);
      assert.equal(await page.getAttribute('#embed-play', 'aria-label'), 'Play');
      assert.ok(Math.abs(Number(await page.inputValue('#embed-time')) - 2.5) < 1e-9);
      assert.ok(Math.abs(Number(await page.getAttribute('#embed-time', 'max')) - state.scene_end) < 1e-9,
                `timeline ends at ${await page.getAttribute('#embed-time', 'max')}, the scene at ${state.scene_end}`);
      assert.match(await page.getAttribute('#embed-open', 'href'), /\/index\.html#scene=[A-Za-z0-9_-]+$/);
      assert.match(await page.textContent('#embed-clock'), /^2\.5 s$/);
      const png = decodePng(await page.screenshot({ path: ctx.screenshotPath('embed-turns-options') }));
      assert.ok(distinctColours(png) > 8);
      // No ImGui: the page only holds the canvas, the overlay and hidden boxes.
      assert.equal(await page.evaluate(() => document.querySelectorAll('body > :not(script):not([hidden])').length), 2);

      await page.click('#embed-play');
      await until(page, () => window.md5stage.state().scene_time > 3.0);
      assert.equal(await page.getAttribute('#embed-play', 'aria-label'), 'Pause');
      await page.click('#embed-play');
      await until(page, () => !window.md5stage.state().scene_playing);
      await page.$eval('#embed-time', (input) => {
        input.value = '1.25';
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
      assert.equal(await sceneTime(page), 1.25);
      await waitFrames(page, 2);
      assert.match(await page.textContent('#embed-clock'), /^1\.3 s$|^1\.2 s$/);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    }),
  },
  {
    name: 'embed options: ui=none, loop=A-B, bad options reported, index.html?embed',
    run: guarded(async (ctx) => {
      if (!demosStaged(ctx, ['turns', 'default'])) return { skipped: 'demo scenes not staged yet' };
      const page = await trackedPage(ctx);
      await openViewer(page, ctx.baseUrl, 'embed.html#demo=turns&ui=none&loop=1-1.6&autoplay');
      assert.ok((await page.evaluate(() => window.md5stage.opened)).ok);
      assert.equal(await page.$('#embed-bar'), null);
      assert.equal(await noticeText(page), null);
      // The scene time at every frame until the clock has jumped back from B to A twice: counted
      // in frames, not sampled every so many milliseconds (a loaded machine draws fewer frames a
      // second, and samples far apart can miss a jump or straddle two). A frame steps at most
      // 0.25 s (src/app/app.cpp), so two loops of 0.6 s take at least 5 frames; 600 is a hang.
      const times = await page.evaluate(() => new Promise((resolve) => {
        const seen = [];
        let jumps = 0;
        const sample = () => {
          const t = window.md5stage.call({ cmd: 'clock' }).scene_time;
          if (seen.length > 0 && t < seen[seen.length - 1]) ++jumps;
          seen.push(t);
          if (jumps >= 2 || seen.length >= 600) resolve(seen);
          else requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      }));
      // A frame may step a little past B before the jump back to A.
      assert.ok(times.every((t) => t >= 1 && t < 2.2), JSON.stringify(times));
      const jumps = times.filter((t, i) => i > 0 && t < times[i - 1]).length;
      assert.equal(jumps, 2, `jumped back ${jumps} times in ${times.length} frames: ${JSON.stringify(times)}`);
      await page.screenshot({ path: ctx.screenshotPath('embed-ui-none') });
      await page.context().close();

      const bad = await trackedPage(ctx);
      await openViewer(bad, ctx.baseUrl, 'embed.html#demo=default&t=soon&camera=1,2&loop=9-3&ui=%3Cb%3E');
      assert.ok((await bad.evaluate(() => window.md5stage.opened)).ok);
      await until(bad, () => document.getElementById('notice') && !document.getElementById('notice').hidden);
      const said = await noticeText(bad);
      // Parsed in C++ (src/viewer/embed_options.cpp); each problem names its option.
      assert.ok(said.includes('embed: t: expected seconds >= 0, found "soon"'), said);
      assert.ok(said.includes('embed: camera: expected yaw,pitch,distance[,tx,ty,tz] (3 or 6 numbers'), said);
      assert.ok(said.includes('found "1,2"'), said);
      assert.ok(said.includes('embed: loop: expected A-B with 0 <= A < B <= 1000000 (seconds), or no value, found "9-3"'), said);
      assert.ok(said.includes('embed: ui: expected none or min, found "<b>"'), said);
      assert.equal(await bad.evaluate(() => document.querySelectorAll('b').length), 0);
      assert.equal((await bad.evaluate(() => window.md5stage.state())).instances.length, 1);
      await bad.screenshot({ path: ctx.screenshotPath('embed-bad-options') });
      assert.deepEqual(bad.consoleErrors, []);
      await bad.context().close();

      const viaIndex = await trackedPage(ctx);
      await openViewer(viaIndex, ctx.baseUrl, 'index.html?embed#demo=turns');
      assert.ok((await viaIndex.evaluate(() => window.md5stage.opened)).ok);
      assert.equal((await viaIndex.evaluate(() => window.md5stage.state())).panels, false);
      assert.ok(await viaIndex.isVisible('#embed-bar'));
      assert.deepEqual(viaIndex.consoleErrors, []);
      await viaIndex.context().close();
    }),
  },
  {
    name: 'postMessage: a host on another origin gets events and drives the embed; other windows and origins are ignored',
    run: guarded(async (ctx) => {
      if (!demosStaged(ctx, ['turns', 'default'])) return { skipped: 'demo scenes not staged yet' };
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md5stage-host-'));
      const evilDir = fs.mkdtempSync(path.join(os.tmpdir(), 'md5stage-evil-'));
      const host = await serveDirectory(dir);
      const evil = await serveDirectory(evilDir);
      try {
        const embed = `${ctx.baseUrl}embed.html`;
        fs.writeFileSync(path.join(evilDir, 'evil.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script>
          window.got = [];
          addEventListener('message', (e) => window.got.push(e.data));
          window.attack = () => {
            parent.frames[0].postMessage({ md5stage: 'play', id: 'evil' }, '*');
            parent.frames[1].postMessage({ md5stage: 'pause', id: 'evil' }, '*');
          };
        </script>`);
        fs.writeFileSync(path.join(dir, 'host.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
          <iframe id="embed" src="${embed}#demo=turns" width="480" height="270"></iframe>
          <iframe id="strict" src="${embed}#demo=default&amp;origin=https://docs.example.test" width="320" height="180"></iframe>
          <iframe id="evil" src="${evil.url}evil.html" width="100" height="100"></iframe>
          <script>
            window.events = [];
            addEventListener('message', (e) => {
              if (!e.data || typeof e.data.md5stage !== 'string') return;
              const frame = Array.from(document.querySelectorAll('iframe')).find((f) => f.contentWindow === e.source);
              window.events.push({ frame: frame ? frame.id : null, origin: e.origin, data: e.data });
            });
            window.send = (id, message) => {
              const frame = document.getElementById(id);
              frame.contentWindow.postMessage(message, new URL(frame.src).origin);
            };
          </script>`);
        const page = await trackedPage(ctx);
        await page.goto(`${host.url}host.html`);
        const embedOrigin = new URL(ctx.baseUrl).origin;
        const waitEvent = (match) => until(page, (m) => window.events.some((e) =>
          Object.entries(m).every(([k, v]) => (k === 'frame' ? e.frame === v : e.data[k] === v))), match);
        const events = () => page.evaluate(() => window.events);
        await waitEvent({ frame: 'embed', md5stage: 'loaded' });
        const first = (await events()).filter((e) => e.frame === 'embed');
        assert.deepEqual(first.map((e) => e.data.md5stage).slice(0, 2), ['ready', 'loaded']);
        assert.ok(first.every((e) => e.origin === embedOrigin));
        const loaded = first[1].data;
        assert.equal(loaded.from, 'url');
        assert.equal(loaded.instances, 3);
        assert.deepEqual(loaded.models, ['walker']);
        assert.ok(loaded.scene_end > 1, JSON.stringify(loaded));
        const frame = page.frames().find((f) => f.url().startsWith(`${embed}#demo=turns`));
        const strict = page.frames().find((f) => f.url().includes('origin='));
        const evilFrame = page.frames().find((f) => f.url().includes('evil.html'));
        assert.ok((await openedIn(strict)).ok);
        const embedState = () => frame.evaluate(() => window.md5stage.call({ cmd: 'clock' }));
        const command = async (message) => {
          await page.evaluate((m) => window.send('embed', m), message);
          await waitEvent({ frame: 'embed', md5stage: 'reply', id: message.id });
          return (await events()).find((e) => e.data.md5stage === 'reply' && e.data.id === message.id).data;
        };

        let reply = await command({ md5stage: 'pause', id: 1 });
        assert.deepEqual(reply, { md5stage: 'reply', command: 'pause', id: 1, ok: true });
        assert.equal((await embedState()).scene_playing, false);
        reply = await command({ md5stage: 'seek', time: 3.25, id: 2 });
        assert.equal(reply.ok, true);
        assert.equal((await embedState()).scene_time, 3.25);
        reply = await command({ md5stage: 'state', id: 's' });
        assert.equal(reply.scene_time, 3.25);
        assert.equal(reply.scene_playing, false);

        // Another window (a frame of a third origin) and another origin (the strict embed only
        // accepts https://docs.example.test) are ignored: no effect, no answer, no events.
        await evilFrame.evaluate(() => window.attack());
        await page.evaluate((m) => window.send('strict', m), { md5stage: 'pause', id: 'host-to-strict' });
        await page.waitForTimeout(1500);
        assert.equal((await embedState()).scene_playing, false, 'the embed obeyed another window');
        assert.equal(await strict.evaluate(() => window.md5stage.call({ cmd: 'clock' }).scene_playing), true,
                     'the strict embed obeyed a page of another origin');
        assert.deepEqual(await evilFrame.evaluate(() => window.got), []);
        assert.ok((await events()).every((e) => e.frame !== 'strict' && e.data.id !== 'evil' && e.data.id !== 'host-to-strict'));

        reply = await command({ md5stage: 'seek', time: 'soon', id: 3 });
        assert.equal(reply.ok, false);
        assert.match(reply.error, /seek needs \{time: seconds >= 0\}/);
        reply = await command({ md5stage: 'launch', id: 4 });
        assert.match(reply.error, /unknown command 'launch'/);
        await page.evaluate(() => window.send('embed', 'pause'));  // not an object: ignored

        // Finished: play from just before the last walker arrives.
        await command({ md5stage: 'seek', time: Math.max(0, loaded.scene_end - 0.3), id: 5 });
        reply = await command({ md5stage: 'play', id: 6 });
        assert.equal(reply.ok, true);
        await waitEvent({ frame: 'embed', md5stage: 'finished' });
        const finished = (await events()).find((e) => e.data.md5stage === 'finished');
        assert.ok(finished.data.time >= loaded.scene_end - 1e-6, JSON.stringify(finished.data));

        // New scenes: a demo, a scene object, a share link; a hostile one is refused.
        reply = await command({ md5stage: 'setScene', demo: 'default', id: 7 });
        assert.equal(reply.ok, true, JSON.stringify(reply));
        let state = await frame.evaluate(() => window.md5stage.state());
        assert.deepEqual([state.instances.length, state.routes.map((r) => r.name)], [1, ['figure8']]);
        assert.ok((await events()).some((e) => e.data.md5stage === 'loaded' && e.data.from === 'api' && e.data.instances === 1));
        const turns = JSON.parse(fs.readFileSync(path.join(ctx.site, 'assets', 'scenes', 'turns.json'), 'utf8'));
        reply = await command({ md5stage: 'setScene', scene: turns, id: 8 });
        assert.equal(reply.ok, true, JSON.stringify(reply));
        assert.equal((await frame.evaluate(() => window.md5stage.state())).instances.length, 3);
        const link = await strict.evaluate(() => window.md5stage.shareLink());
        reply = await command({ md5stage: 'setScene', link, id: 9 });
        assert.equal(reply.ok, true, JSON.stringify(reply));
        state = await frame.evaluate(() => window.md5stage.state());
        assert.deepEqual(state.routes.map((r) => r.name), ['figure8']);
        reply = await command({ md5stage: 'setScene', demo: '<script>alert(1)</script>', id: 10 });
        assert.equal(reply.ok, false);
        assert.match(reply.error, /is not a demo name/);
        assert.ok((await events()).some((e) => e.data.md5stage === 'error' && /is not a demo name/.test(e.data.message)));
        reply = await command({ md5stage: 'setScene', scene: { version: 1, models: [{ name: 'm', mesh: 'javascript:alert(1)' }] }, id: 11 });
        assert.equal(reply.ok, false);
        assert.match(reply.error, /expected an assets-relative path or an https:\/\/ URL/);
        reply = await command({ md5stage: 'setScene', demo: 'turns', scene: {}, id: 12 });
        assert.match(reply.error, /setScene needs one of/);
        // The last good scene still runs.
        state = await frame.evaluate(() => window.md5stage.state());
        assert.deepEqual(state.routes.map((r) => r.name), ['figure8']);
        const t0 = (await embedState()).scene_time;
        // Until it moves on (however many frames a second the machine draws).
        await until(frame, (t) => window.md5stage.call({ cmd: 'clock' }).scene_time > t, t0);
        await page.screenshot({ path: ctx.screenshotPath('embed-host-page') });
        assert.deepEqual(page.consoleErrors, []);
        await page.context().close();
      } finally {
        host.server.close();
        evil.server.close();
        fs.rmSync(dir, { recursive: true, force: true });
        fs.rmSync(evilDir, { recursive: true, force: true });
      }
    }),
  },
  {
    name: 'docs example: two running embeds from one line of HTML each, two more through the script tag',
    run: guarded(async (ctx) => {
      if (!demosStaged(ctx, ['turns', 'attach'])) return { skipped: 'demo scenes not staged yet' };
      const page = await trackedPage(ctx, { width: 1100, height: 1400 });
      await page.goto(`${ctx.baseUrl}embed-example.html`);
      await until(page, () => document.querySelectorAll('iframe').length === 4);
      const titles = await page.$$eval('iframe', (frames) => frames.map((f) => f.title));
      assert.deepEqual(titles, ['turns', 'attach', 'turns (script tag)', 'attach (script tag)']);
      const srcs = await page.$$eval('#scripted iframe', (frames) => frames.map((f) => f.src));
      const origin = new URL(ctx.baseUrl).origin;
      assert.deepEqual(srcs, [`${origin}/embed.html#demo=turns&origin=${encodeURIComponent(origin)}`,
                              `${origin}/embed.html#demo=attach&skeleton=1&origin=${encodeURIComponent(origin)}`]);
      const handles = await page.$$('iframe');
      const frames = [];
      for (let i = 0; i < handles.length; i++) {
        const frame = await handles[i].contentFrame();
        const opened = await openedIn(frame);
        assert.ok(opened.ok, `${titles[i]}: ${JSON.stringify(opened)}`);
        const state = await frame.evaluate(() => window.md5stage.state());
        assert.equal(state.panels, false, titles[i]);
        assert.ok(state.instances.length > 0, titles[i]);
        assert.equal(state.last_error, null, titles[i]);
        assert.equal(state.display.skeleton, titles[i].startsWith('attach'), `${titles[i]}: skeleton=1 not applied`);
        frames.push(frame);
      }
      // Running: the picture inside each iframe (all four in view) changes and is not blank.
      const rects = [];
      for (const handle of handles) {
        const box = await handle.boundingBox();
        rects.push([Math.ceil(box.x), Math.ceil(box.y), Math.floor(box.x + box.width), Math.floor(box.y + box.height - 40)]);
      }
      // From just after the walkers set off (the scenes have played a while by now).
      for (const frame of frames) await frame.evaluate(() => window.md5stage.setSceneTime(1.2));
      await waitFrames(frames[frames.length - 1], 2);
      const times0 = await Promise.all(frames.map((f) => sceneTime(f)));
      const before = decodePng(await page.screenshot());
      await page.waitForTimeout(1500);
      for (let i = 0; i < frames.length; i++) {
        await until(frames[i], (t) => window.md5stage.call({ cmd: 'clock' }).scene_time > t + 0.3, times0[i]);
      }
      const after = decodePng(await page.screenshot({ path: ctx.screenshotPath('embed-docs-page') }));
      for (let i = 0; i < rects.length; i++) {
        assert.ok(distinctColours(after, ...rects[i]) > 8, `${titles[i]}: blank`);
        const changed = countDifferentPixels(before, after, 24, rects[i]);
        assert.ok(changed > 100, `${titles[i]}: only ${changed} pixels changed`);
      }
      // The page's buttons talk to the first embed; events come back to the page.
      await page.click('button[data-command="pause"]');
      const turns = frames[0];
      await until(turns, () => !window.md5stage.call({ cmd: 'clock' }).scene_playing);
      await until(page, () => window.md5stageEvents.some((e) => e.md5stage === 'reply' && e.command === 'pause' && e.ok));
      const events = await page.evaluate(() => window.md5stageEvents);
      for (const title of titles) {
        assert.ok(events.some((e) => e.frame === title && e.md5stage === 'ready'), `${title}: no ready event`);
        assert.ok(events.some((e) => e.frame === title && e.md5stage === 'loaded'), `${title}: no loaded event`);
      }
      assert.match(await page.textContent('#events'), /"md5stage":"loaded"/);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    }),
  },
  {
    name: 'md5stage-embed.js accepts demo names and share links only, and never writes markup',
    run: guarded(async (ctx) => {
      const page = await trackedPage(ctx);
      page.dialogs = [];
      page.on('dialog', (dialog) => { page.dialogs.push(dialog.message()); dialog.dismiss().catch(() => {}); });
      // A page of this site with only the script tag (no embeds to start).
      const blank = `${ctx.baseUrl}embed-script-test.html`;
      await page.route(blank, (route) => route.fulfill({
        status: 200, contentType: 'text/html', body: '<!doctype html><p>script only</p><script src="md5stage-embed.js"></script>' }));
      await page.goto(blank);
      await until(page, () => window.md5stageEmbed !== undefined);
      const results = await page.evaluate(() => {
        const u = window.md5stageEmbed.embedUrl;
        return {
          demo: u('crowd', 'paused&t=2&onload=alert(1)&camera=10,20,300'),
          link: u('http://elsewhere.example/#scene=AbC-_9'),
          hash: u('#scene=AbC-_9'),
          quote: u('#scene=AB"onload="alert(1)'),
          script: u('<script>alert(1)</script>'),
          url: u('javascript:alert(1)'),
          empty: u(''),
        };
      });
      const origin = encodeURIComponent(new URL(ctx.baseUrl).origin);
      assert.equal(results.demo.url, `${ctx.baseUrl}embed.html#demo=crowd&paused=&t=2&camera=10%2C20%2C300&origin=${origin}`);
      assert.equal(results.link.url, `${ctx.baseUrl}embed.html#scene=AbC-_9&origin=${origin}`);
      assert.equal(results.hash.url, results.link.url);
      assert.match(results.quote.error, /characters a share link never has/);
      assert.match(results.script.error, /is neither a demo name nor a #scene= link/);
      assert.match(results.url.error, /is neither a demo name nor a #scene= link/);
      assert.ok(results.empty.error);
      // A hostile value becomes a text message in the element; no iframe, no markup, no script.
      const outcome = await page.evaluate(() => {
        const element = document.createElement('div');
        element.setAttribute('data-md5stage-scene', '<img src=x onerror=alert(1)>');
        document.body.appendChild(element);
        const made = window.md5stageEmbed.scan(element.parentNode);
        return { made: made.length, text: element.textContent, children: element.children.length,
                 images: document.querySelectorAll('img').length };
      });
      assert.equal(outcome.children, 0);
      assert.equal(outcome.images, 0);
      assert.match(outcome.text, /^md5stage: '<img src=x onerror=alert\(1\)>' is neither a demo name/);
      await page.waitForTimeout(300);
      assert.deepEqual(page.dialogs, []);
      await page.context().close();
    }),
  },
];
