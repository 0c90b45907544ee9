// <md5-stage> from TypeScript, React and servers (issue 46). The package's declarations
// (md5stage-element.d.ts and md5stage-element-react.d.ts, generated from src/viewer/element_spec.cpp)
// are fed to the registry's TypeScript compiler (tests/browser/package-lock.json pins it, with
// React 19's types): a TSX page that uses the element's attributes, properties, methods and
// events compiles, and pages with a wrong event detail type, a misspelled method or a value an
// attribute does not take are each rejected at their line. The element in the browser has every
// attribute, property and method the declaration names. Importing the script where there is no
// window (node, as a server renders) does nothing and throws nothing.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { guarded, trackedPage } from './share.test.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const TSC = path.join(here, 'node_modules', 'typescript', 'bin', 'tsc');

function packageDir(ctx) {
  return path.join(ctx.site, '..', 'dist', 'md5stage-element');
}

// A page using everything the element declares.
const ACCEPTED = `import type {} from 'md5stage-element/md5stage-element-react';
import type { Md5StageElement, Md5StageErrorDetail, Reply } from 'md5stage-element';
import { useRef } from 'react';

export function Figures() {
  const figure = useRef<Md5StageElement>(null);
  const onError = (event: CustomEvent<Md5StageErrorDetail>) => {
    const attribute: string | undefined = event.detail.attribute;
    console.warn(attribute, event.detail.message.toUpperCase(), event.detail.type);
  };
  const act = () => {
    const element = figure.current;
    if (!element) return;
    element.play();
    element.seek(1.5);
    element.currentTime = 2;
    element.paused = !element.paused;
    const reply: Reply = element.call({ cmd: 'setSceneTime', time: 3 });
    console.log(reply.ok, element.state(), element.loaded, element.frames, element.firstPictureTime);
  };
  return (
    <div>
      <md5-stage ref={figure} id="turns" scene="turns" alt="Three walkers" camera-controls loading="eager"
                 ui="timeline" t={2.5} loop="1-4" skeleton grid="0" camera="30,10,300" tool="goto" autoplay
                 style={{ width: 480, height: 270 }} onerror={onError}
                 onload={(event) => console.log(event.detail.warnings.length)}
                 onprogress={(event) => console.log(event.detail.progress.toFixed(2), event.detail.file)}
                 onfinished={(event) => console.log(event.detail.time.toFixed(1))}
                 onrestored={(event) => console.log(event.detail)} />
      <md5-stage src="models/imp.md5mesh" anims="models/idle.md5anim models/walk.md5anim" animation="walk"
                 poster="imp.png" paused />
      <button type="button" onClick={act}>Play</button>
    </div>
  );
}

const element = document.querySelector('md5-stage');
element?.addEventListener('error', (event) => {
  const message: string = event.detail.message;
  console.log(message);
});
element?.addEventListener('load', (event) => console.log(event.detail.warnings.join(', ')));
element?.addEventListener('click', (event) => console.log(event.clientX));
void element?.ready.then((figure) => figure.pause());
`;

// Pages tsc must refuse: [file, source, line of the error, the error's code].
const REJECTED = [
  ['wrong_jsx_detail.tsx', `import type {} from 'md5stage-element/md5stage-element-react';

export const Page = () => (
  <md5-stage scene="turns" onerror={(event: CustomEvent<{ code: number }>) => console.log(event.detail.code)} />
);
`, 4, 'TS2322'],
  ['wrong_listener_detail.ts', `import type {} from 'md5stage-element';

const element = document.querySelector('md5-stage');
element?.addEventListener('load', (event) => {
  const warnings: number = event.detail.warnings;
  console.log(warnings);
});
`, 5, 'TS2322'],
  ['misspelled_method.ts', `import type {} from 'md5stage-element';

const element = document.querySelector('md5-stage');
element?.plya();
`, 4, 'TS2339'],
  ['wrong_attribute_value.tsx', `import type {} from 'md5stage-element/md5stage-element-react';

export const Page = () => <md5-stage scene="turns" loading="soon" />;
`, 3, 'TS2322'],
];

// A project folder for tsc: the staged package and React's types as installed modules.
function project(ctx) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'md5stage-types-'));
  const modules = path.join(folder, 'node_modules');
  fs.mkdirSync(path.join(modules, '@types'), { recursive: true });
  // Copied, not linked: the declarations find 'react' from where they are installed.
  fs.mkdirSync(path.join(modules, 'md5stage-element'));
  for (const file of ['package.json', 'md5stage-element.d.ts', 'md5stage-element-react.d.ts']) {
    fs.copyFileSync(path.join(packageDir(ctx), file), path.join(modules, 'md5stage-element', file));
  }
  fs.symlinkSync(path.join(here, 'node_modules', '@types', 'react'), path.join(modules, '@types', 'react'));
  fs.symlinkSync(path.join(here, 'node_modules', 'csstype'), path.join(modules, 'csstype'));
  return folder;
}

// tsc --noEmit on one file; {status, output}.
function typeCheck(folder, file, source) {
  fs.writeFileSync(path.join(folder, file), source);
  fs.writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, jsx: 'react-jsx', target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [], skipLibCheck: false,
    },
    files: [file],
  }));
  const run = spawnSync(process.execPath, [TSC, '--noEmit', '-p', 'tsconfig.json', '--pretty', 'false'],
                        { cwd: folder, encoding: 'utf8', timeout: 120000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

// The names the generated declaration gives an interface's members.
function declaredNames(declaration, header) {
  const start = declaration.indexOf(header);
  assert.ok(start >= 0, `${header} is not in the declaration`);
  const body = declaration.slice(start + header.length, declaration.indexOf('\n}\n', start));
  return [...body.matchAll(/^ {2}(?:readonly )?'?([A-Za-z_-]+)'?\??(?:\(|:)/gm)].map((m) => m[1]);
}

export const tests = [
  {
    name: 'TypeScript: tsc --noEmit accepts a TSX page using the element and React 19 JSX; rejects a wrong event detail, a misspelled method, a wrong attribute value',
    timeoutMs: 240000,
    run: guarded(async (ctx) => {
      if (!fs.existsSync(path.join(packageDir(ctx), 'md5stage-element.d.ts'))) return { skipped: 'build/dist/md5stage-element is not staged' };
      if (!fs.existsSync(TSC)) return { skipped: 'typescript is not installed (./build_wasm.sh setup)' };
      const folder = project(ctx);
      try {
        const accepted = typeCheck(folder, 'page.tsx', ACCEPTED);
        assert.equal(accepted.status, 0, `the page was refused:\n${accepted.output}`);
        assert.equal(accepted.output, '');
        for (const [file, source, line, code] of REJECTED) {
          const refused = typeCheck(folder, file, source);
          assert.equal(refused.status, 2, `${file}: tsc exited ${refused.status}:\n${refused.output}`);
          const errors = refused.output.split('\n').filter((text) => /error TS\d+/.test(text));
          assert.equal(errors.length, 1, `${file}: ${refused.output}`);
          assert.match(errors[0], new RegExp(`^${file.replace('.', '\\.')}\\(${line},\\d+\\): error ${code}:`), `${file}: ${errors[0]}`);
        }
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    }),
  },
  {
    name: 'the element has every attribute, property and method its declaration names',
    run: guarded(async (ctx) => {
      const file = path.join(ctx.site, 'md5stage-element.d.ts');
      if (!fs.existsSync(file)) return { skipped: 'md5stage-element.d.ts is not staged' };
      const declaration = fs.readFileSync(file, 'utf8');
      const attributes = declaredNames(declaration, 'export interface Md5StageAttributes {');
      const members = declaredNames(declaration, 'export interface Md5StageElement extends HTMLElement {')
        .filter((name) => !/EventListener$/.test(name));
      assert.ok(attributes.length >= 25 && members.length >= 11, `${attributes} / ${members}`);
      const page = await trackedPage(ctx, { width: 400, height: 300 });
      await page.route(`${ctx.baseUrl}types.html`, (route) => route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html><head><link rel="icon" href="data:,"></head><body><md5-stage></md5-stage><script src="md5stage-element.js"></script></body></html>',
      }));
      await page.goto(`${ctx.baseUrl}types.html`);
      const seen = await page.evaluate((names) => {
        const element = document.querySelector('md5-stage');
        return { observed: customElements.get('md5-stage').observedAttributes, missing: names.filter((name) => !(name in element)) };
      }, members);
      assert.deepEqual([...seen.observed].sort(), [...attributes].sort());
      assert.deepEqual(seen.missing, []);
    }),
  },
  {
    name: 'importing the element script without a window (node, server rendering) does nothing and throws nothing',
    run: guarded(async (ctx) => {
      const scripts = [path.join(ctx.site, 'md5stage-element.js'), path.join(packageDir(ctx), 'md5stage-element.js')]
        .filter((file) => fs.existsSync(file));
      if (!scripts.length) return { skipped: 'md5stage-element.js is not staged' };
      const probe = `
        const before = new Set(Object.getOwnPropertyNames(globalThis));
        const file = process.argv[1];
        require(file);
        import(require('node:url').pathToFileURL(file).href).then(() => {
          const added = Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name));
          process.stdout.write(JSON.stringify({ added, window: typeof window, customElements: typeof customElements }));
        });`;
      for (const script of scripts) {
        const output = execFileSync(process.execPath, ['-e', probe, script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        assert.deepEqual(JSON.parse(output), { added: [], window: 'undefined', customElements: 'undefined' }, script);
      }
    }),
  },
];
