// Makes one page script for staging (build_wasm.sh, bundle_script): the given sources (the page
// runtime, then the page's own script) in one function scope, so a page still loads one script and
// nothing of the runtime becomes a global. Comments are for readers of web/ and stay there: they
// were a fifth of the element's gzipped bytes, which come before a documentation page's first
// picture. Acorn (Debian's node-acorn, which emcc needs too) finds them, so nothing inside a
// string, a template or a regular expression is touched; the result is parsed again before it
// is written.
//
// With --mangle (the element's bundle, whose bytes come before a documentation page's first
// picture) the names local to the bundle are shortened and the whitespace dropped, by the terser
// that Debian's emscripten ships for emcc's own JS (its AST and name mangler only, no
// compressor): no property, global or string changes, so the code does what web/ says.
//
//   node tools/bundle_script.js [--mangle] OUT SOURCE...
'use strict';

const fs = require('fs');
const path = require('path');
const acorn = require('acorn');  // NODE_PATH=/usr/share/nodejs (build_wasm.sh exports it)

const PARSE = { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true };

// The text without its comments: a comment alone on its lines goes with those lines, one after
// code goes with the blanks before it, one between tokens becomes a space.
function withoutComments(text, file) {
  const comments = [];
  try {
    acorn.parse(text, Object.assign({ onComment: (block, value, start, end) => comments.push({ start, end }) }, PARSE));
  } catch (error) {
    throw new Error(`${file}: ${error.message}`);
  }
  comments.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { start, end } of comments) {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const newline = text.indexOf('\n', end);
    const lineEnd = newline < 0 ? text.length : newline;
    const before = text.slice(lineStart, start);
    const after = text.slice(end, lineEnd);
    if (!/\S/.test(before) && !/\S/.test(after)) {
      out += text.slice(at, Math.max(at, lineStart));
      at = Math.min(text.length, lineEnd + 1);
    } else if (!/\S/.test(after)) {
      out += text.slice(at, start).replace(/[ \t]+$/, '');
      at = end;
    } else {
      out += `${text.slice(at, start)} `;
      at = end;
    }
  }
  return out + text.slice(at);
}

// The bundle with its local names shortened and without whitespace (terser's printer).
function mangled(bundle) {
  const root = process.env.EMSCRIPTEN_ROOT || '/usr/share/emscripten';
  const terser = require(path.join(root, 'third_party', 'terser', 'terser.js'));
  const ast = terser.AST_Node.from_mozilla_ast(acorn.parse(bundle, Object.assign({ locations: true }, PARSE)));
  ast.figure_out_scope({});
  ast.compute_char_frequency({});
  ast.mangle_names({});
  return `${bundle.slice(0, bundle.indexOf('\n') + 1)}${ast.print_to_string({ beautify: false })}\n`;
}

function main() {
  const args = process.argv.slice(2);
  const mangle = args[0] === '--mangle';
  const [out, ...sources] = mangle ? args.slice(1) : args;
  if (!out || !sources.length) {
    console.error('usage: node tools/bundle_script.js OUT SOURCE...');
    process.exit(2);
  }
  const root = path.dirname(__dirname);
  const names = sources.map((source) => path.relative(root, path.resolve(source)));
  const parts = sources.map((source) => withoutComments(fs.readFileSync(source, 'utf8'), source));
  const bundle = `// ${path.basename(out)}: ${names.join(' + ')} in one scope, without their comments ` +
    '(build_wasm.sh, bundle_script).\n(function () {\n' + parts.join('\n') + '})();\n';
  acorn.parse(bundle, PARSE);
  const text = mangle ? mangled(bundle) : bundle;
  acorn.parse(text, PARSE);
  fs.writeFileSync(`${out}.part`, text);
  fs.renameSync(`${out}.part`, out);
}

main();
