// One vocabulary (issue 43): window.md5stage is made from C++'s command table, not listed by hand.
// Every public command of the table (`commands`) is a function of window.md5stage and of a
// stage, and a method of the generated TypeScript declaration (build/site/md5stage.d.ts); the
// internal ones are neither; no hand-written wrapper of a command is left in web/; the
// generated functions take the declared arguments in order (or one object of fields).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openViewer } from './lib/harness.mjs';
import { call, newInputPage, state } from './lib/input.mjs';
import { guarded } from './share.test.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const tests = [
  {
    name: 'every public command of the table is a window.md5stage function and a declared method; none is written by hand in web/',
    run: guarded(async (ctx) => {
      const page = await newInputPage(ctx.browser, { width: 960, height: 540 });
      try {
        await openViewer(page, ctx.baseUrl, '#demo=turns');
        assert.ok((await page.evaluate(() => window.md5stage.opened)).ok);
        const table = await call(page, { cmd: 'commands' });
        assert.ok(Array.isArray(table.commands) && table.commands.length > 60, JSON.stringify(table).slice(0, 200));
        const declaration = fs.readFileSync(path.join(ctx.site, 'md5stage.d.ts'), 'utf8');
        const methods = declaration.slice(declaration.indexOf('export interface Md5StageCommands {'));
        const body = methods.slice(0, methods.indexOf('\n}\n'));
        const kinds = await page.evaluate((names) => {
          const stage = window.md5stage.createStage();
          const out = names.map((name) => [typeof window.md5stage[name], typeof stage[name]]);
          stage.close();
          return out;
        }, table.commands.map((c) => c.name));
        const sources = ['main.js', 'embed.js', 'md5stage-element.js', 'lib/runtime.js']
          .map((f) => fs.readFileSync(path.join(ROOT, 'web', f), 'utf8')).join('\n');
        const problems = [];
        table.commands.forEach((command, i) => {
          const declared = body.includes(`\n  ${command.name}(`);
          if (command.public) {
            if (kinds[i][0] !== 'function') problems.push(`${command.name}: not a window.md5stage function`);
            if (kinds[i][1] !== 'function') problems.push(`${command.name}: not a stage's function`);
            if (!declared) problems.push(`${command.name}: no method in md5stage.d.ts`);
          } else if (declared) {
            problems.push(`${command.name}: internal, yet declared`);
          }
          // A hand-written wrapper: `name: (...) => call({ cmd: 'name'`.
          const wrapper = new RegExp(`\\b${command.name}\\s*:\\s*\\([^)]*\\)\\s*=>\\s*(call|to)\\(`);
          if (wrapper.test(sources)) problems.push(`${command.name}: a hand-written wrapper in web/`);
        });
        for (const { alias, command } of table.aliases) {
          if (!(await page.evaluate((a) => typeof window.md5stage[a], alias) === 'function')) problems.push(`alias ${alias} missing`);
          if (!body.includes(`\n  ${alias}(`)) problems.push(`alias ${alias} (${command}) not declared`);
        }
        assert.deepEqual(problems, []);

        // The functions take the declared arguments: positional, with an id or a position, and
        // fields; an argument left out is the command's own missing-field error.
        const id = (await state(page)).instances[1].id;
        const reply = await page.evaluate((c) => window.md5stage.setTime(c, 0.25), id);
        assert.ok(reply.ok, JSON.stringify(reply));
        assert.equal((await state(page)).instances[1].time, 0.25);
        assert.ok((await page.evaluate(() => window.md5stage.display({ skeleton: true }))).ok);
        assert.equal((await state(page)).display.skeleton, true);
        const missing = await page.evaluate(() => window.md5stage.setTime(0));
        assert.match(missing.error, /^setTime\.time: expected a number in \[.*\], found nothing \(the field is missing\)$/);
        const json = await page.evaluate(() => window.md5stage.sceneJSON());
        assert.ok(json.instances && json.instances.length >= 1, 'sceneJSON (an alias of sceneJson) answers the scene');
      } finally {
        await page.context().close();
      }
    }),
  },
];
