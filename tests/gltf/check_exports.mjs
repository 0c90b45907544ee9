// Independent checks of `md5stage export` on every model of assets/ and ../shared/md5 (with the
// anims of its folder), one kind per run, as ctest tests:
//   --check validator  the Khronos glTF-Validator (npm gltf-validator) reports 0 errors, for the
//                      .glb and for the .gltf + .bin of each model
//   --check poses      gltf_eval.mjs's skinning of the .glb at frames of each anim (and the bind
//                      pose) equals `md5stage pose --normalize` within 1e-4 of the model's extent
//                      plus the 4-weight truncation bound the export warning states
//   --check assimp     `assimp info` imports each .glb with the expected mesh, animation and
//                      embedded texture counts (the images of base colour and normal textures)
//   --check uv         the exported TEXCOORD_0, read against the embedded PNG with glTF's
//                      top-left origin, puts triangles on painted texels: on atlases with an
//                      empty background, far fewer triangle centres land on it than with v flipped
// Exit 0 pass, 1 fail, 77 skip (a missing tool or ../shared; under CI=true those fail instead).
import {execFileSync, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

import {evaluateNodes, readAccessor, readGlb, skinnedPositions} from './gltf_eval.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const cli = option('--cli', null);
const check = option('--check', null);
const root = option('--root', path.resolve(here, '../..'));
const shared = option('--shared', path.resolve(root, '../shared'));
const out = option('--out', fs.mkdtempSync('/tmp/md5stage-gltf-'));
const onlyFilter = option('--filter', '');
const ci = process.env.CI === 'true';

function skip(reason) {
  if (ci) {
    console.error(`FAIL: ${reason} (under CI=true this is required)`);
    process.exit(1);
  }
  console.log(`SKIP: ${reason}`);
  process.exit(77);
}

if (!cli || !['validator', 'poses', 'assimp', 'uv'].includes(check)) {
  console.error('usage: check_exports.mjs --cli MD5STAGE --check validator|poses|assimp|uv');
  process.exit(2);
}
fs.mkdirSync(out, {recursive: true});

// Every model: each .md5mesh with the .md5anim files of its folder and of an `animation/`
// subfolder. The refused samples (assimp_invalid, MD5Version 11/12 under extensions/) are left out.
function listMeshes(dir) {
  const found = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, {withFileTypes: true}).sort((a, b) =>
      a.name < b.name ? -1 : 1)) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'assimp_invalid' && entry.name !== 'extensions') walk(full);
      } else if (entry.name.endsWith('.md5mesh')) {
        found.push(full);
      }
    }
  };
  walk(dir);
  return found;
}

function animsFor(mesh) {
  const dir = path.dirname(mesh);
  const anims = [];
  for (const d of [dir, path.join(dir, 'animation')]) {
    if (!fs.existsSync(d)) continue;
    for (const name of fs.readdirSync(d).sort()) {
      if (name.endsWith('.md5anim')) anims.push(path.join(d, name));
    }
  }
  return anims;
}

const models = listMeshes(path.join(root, 'assets/models'));
const haveShared = fs.existsSync(path.join(shared, 'md5'));
if (haveShared) models.push(...listMeshes(path.join(shared, 'md5')));
const selected = models.filter((m) => m.includes(onlyFilter));

function label(mesh) {
  const rel = path.relative(haveShared && mesh.startsWith(shared) ? shared : root, mesh);
  return rel;
}

function exportModel(mesh, anims, extension) {
  const name = label(mesh).replace(/[\/\\]/g, '_').replace(/\.md5mesh$/, '');
  const file = path.join(out, `${name}.${extension}`);
  const run = spawnSync(cli, ['export', mesh, ...anims, '-o', file], {encoding: 'utf8'});
  if (run.status !== 0) throw new Error(`export failed (${run.status}): ${run.stderr}`);
  return {file, stderr: run.stderr, stdout: run.stdout};
}

let failures = 0;
function report(ok, line) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
  if (!ok) ++failures;
}

async function checkValidator() {
  const require = createRequire(path.join(root, 'tests/browser/package.json'));
  let validator;
  try {
    validator = require('gltf-validator');
  } catch (e) {
    skip('npm package gltf-validator is not installed in tests/browser (npm ci there)');
  }
  for (const mesh of selected) {
    const anims = animsFor(mesh);
    for (const extension of ['glb', 'gltf']) {
      const {file} = exportModel(mesh, anims, extension);
      const bytes = new Uint8Array(fs.readFileSync(file));
      const result = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0,
        externalResourceFunction: (uri) =>
          new Promise((resolve, reject) => {
            try {
              resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file),
                                                               decodeURIComponent(uri)))));
            } catch (e) {
              reject(e.message);
            }
          }),
      });
      const issues = result.issues;
      const errors = issues.messages.filter((m) => m.severity === 0);
      const warnings = issues.messages.filter((m) => m.severity === 1);
      const codes = [...new Set(issues.messages.filter((m) => m.severity <= 2).map((m) => m.code))];
      report(issues.numErrors === 0,
             `${label(mesh)} .${extension} (${anims.length} anims): ${issues.numErrors} errors, ` +
                 `${issues.numWarnings} warnings, ${issues.numInfos} infos` +
                 (codes.length ? ` [${codes.join(', ')}]` : ''));
      for (const m of errors.slice(0, 5)) console.log(`     ${m.code} ${m.pointer || ''}: ${m.message}`);
      for (const m of warnings.slice(0, 3)) console.log(`     ${m.code} ${m.pointer || ''}: ${m.message}`);
    }
  }
}

function readObjPositions(file) {
  const positions = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('v ')) {
      const [x, y, z] = line.slice(2).trim().split(/\s+/).map(Number);
      positions.push([x, z, -y]);  // MD5 Z-up -> glTF Y-up, the mapping the export promises
    }
  }
  return positions;
}

function posePositions(mesh, anim, frame) {
  const obj = path.join(out, 'pose.obj');
  const extra = anim ? [anim, '--frame', String(frame)] : [];
  execFileSync(cli, ['pose', mesh, ...extra, '--normalize', '--obj', obj], {stdio: 'pipe'});
  return readObjPositions(obj);
}

function checkPoses() {
  for (const mesh of selected) {
    const anims = animsFor(mesh);
    const {file, stderr} = exportModel(mesh, anims, 'glb');
    const gltf = readGlb(new Uint8Array(fs.readFileSync(file)));
    // The export's own statement of how far keeping 4 weights moves a vertex, if it made one.
    const stated = /moves a vertex by at most ([0-9.eE+-]+) units/.exec(stderr);
    const truncation = stated ? Number(stated[1]) : 0;
    const bind = posePositions(mesh, null, 0);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (const p of bind) for (let c = 0; c < 3; ++c) {
      lo[c] = Math.min(lo[c], p[c]);
      hi[c] = Math.max(hi[c], p[c]);
    }
    const extent = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    const tolerance = 1e-4 * extent + truncation * 1.01;
    let worst = {error: 0, where: 'bind pose'};
    let compared = 0;
    const compare = (expected, actual, where) => {
      if (expected.length !== actual.length) {
        worst = {error: Infinity, where: `${where}: ${actual.length} vertices, expected ${expected.length}`};
        return;
      }
      for (let v = 0; v < expected.length; ++v) {
        const e = Math.hypot(expected[v][0] - actual[v][0], expected[v][1] - actual[v][1],
                             expected[v][2] - actual[v][2]);
        if (!(e <= worst.error)) worst = {error: e, where: `${where} vertex ${v}`};
      }
      ++compared;
    };
    compare(bind, skinnedPositions(gltf, evaluateNodes(gltf, -1, 0)), 'bind pose');
    const animations = gltf.json.animations || [];
    anims.forEach((anim, a) => {
      const glAnim = animations.findIndex((x) => x.name === path.basename(anim, '.md5anim'));
      if (glAnim < 0) {
        worst = {error: Infinity, where: `no glTF animation named ${path.basename(anim)}`};
        return;
      }
      const times = gltf.json.accessors[animations[glAnim].samplers[0].input];
      const frames = times.count;
      const rate = frames > 1 ? (frames - 1) / times.max[0] : 1;
      for (const f of [...new Set([0, 1, frames >> 1, frames - 1])].filter((f) => f < frames)) {
        compare(posePositions(mesh, anim, f),
                skinnedPositions(gltf, evaluateNodes(gltf, glAnim, f / rate)),
                `${path.basename(anim)} frame ${f}`);
      }
    });
    report(worst.error <= tolerance,
           `${label(mesh)}: ${compared} poses, max error ${worst.error.toExponential(3)} ` +
               `(${(worst.error / extent).toExponential(3)} of extent ${extent.toFixed(3)}; ` +
               `tolerance ${tolerance.toExponential(3)}${stated ? `, incl. stated 4-weight bound ${truncation}` : ''}) at ${worst.where}`);
  }
}

function checkAssimp() {
  const probe = spawnSync('assimp', ['version'], {encoding: 'utf8'});
  if (probe.error) skip('the assimp command is not installed (assimp-utils)');
  for (const mesh of selected) {
    const anims = animsFor(mesh);
    const {file, stdout} = exportModel(mesh, anims, 'glb');
    const parts = Number(/ (\d+) mesh parts/.exec(stdout)[1]);
    // Assimp loads an image only when a material it reads names it: base colour and normal
    // textures, not KHR_materials_specular's.
    const json = readGlb(fs.readFileSync(file)).json;
    const read = new Set();
    for (const material of json.materials || []) {
      for (const info of [material.pbrMetallicRoughness?.baseColorTexture, material.normalTexture]) {
        if (info) read.add(json.textures[info.index].source);
      }
    }
    const images = read.size;
    const reported = Number(/ (\d+) images/.exec(stdout)[1]);
    const run = spawnSync('assimp', ['info', file], {encoding: 'utf8'});
    const field = (name) => {
      const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(run.stdout || '');
      return m ? Number(m[1]) : NaN;
    };
    const got = {meshes: field('Meshes'), animations: field('Animations'),
                 textures: field('Textures \\(embed\\.\\)'), bones: field('Bones')};
    const ok = run.status === 0 && got.meshes === parts && got.animations === anims.length &&
               got.textures === images && got.bones >= 1 &&
               reported === (json.images || []).length;
    report(ok, `${label(mesh)}: assimp exit ${run.status}, meshes ${got.meshes}/${parts}, ` +
                   `animations ${got.animations}/${anims.length}, embedded textures ` +
                   `${got.textures}/${images}, bones ${got.bones}, images ${reported} reported, ` +
                   `${(json.images || []).length} in the file`);
    if (run.status !== 0) console.log(`     ${(run.stderr || '').slice(0, 400)}`);
  }
}

// 8-bit RGB/RGBA non-interlaced PNG (what the textured test models use) to {width, height, at}.
function decodePng(bytes) {
  const buf = Buffer.from(bytes);
  let offset = 8;
  let width = 0, height = 0, colorType = -1, depth = 0, interlace = 0;
  const data = [];
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('ascii', offset + 4, offset + 8);
    const chunk = buf.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = chunk.readUInt32BE(0);
      height = chunk.readUInt32BE(4);
      depth = chunk[8];
      colorType = chunk[9];
      interlace = chunk[12];
    } else if (type === 'IDAT') {
      data.push(chunk);
    }
    offset += 12 + length;
  }
  if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) return null;
  const bpp = colorType === 6 ? 4 : 3;
  const stride = width * bpp;
  const raw = zlib.inflateSync(Buffer.concat(data));
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; ++x) {
      const a = x >= bpp ? px[y * stride + x - bpp] : 0;
      const b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp] : 0;
      let v = raw[y * (stride + 1) + 1 + x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      px[y * stride + x] = v & 255;
    }
  }
  // A texel's class: transparent, or its colour at 4 bits per channel.
  const at = (x, y) => {
    const i = (y * width + x) * bpp;
    return bpp === 4 && px[i + 3] === 0 ? -1 : ((px[i] >> 4) << 8) | ((px[i + 1] >> 4) << 4) | (px[i + 2] >> 4);
  };
  return {width, height, at};
}

function checkUv() {
  let informative = 0;
  for (const mesh of selected) {
    const {file} = exportModel(mesh, [], 'glb');
    const gltf = readGlb(new Uint8Array(fs.readFileSync(file)));
    for (const [m, glMesh] of (gltf.json.meshes || []).entries()) {
      const primitive = glMesh.primitives[0];
      const material = gltf.json.materials[primitive.material];
      const texture = material.pbrMetallicRoughness?.baseColorTexture;
      if (!texture) continue;
      const image = gltf.json.images[gltf.json.textures[texture.index].source];
      if (image.mimeType !== 'image/png') continue;
      const view = gltf.json.bufferViews[image.bufferView];
      const png = decodePng(gltf.buffers[0].subarray(view.byteOffset, view.byteOffset + view.byteLength));
      if (!png) continue;
      const counts = new Map();
      for (let y = 0; y < png.height; ++y) for (let x = 0; x < png.width; ++x) {
        const k = png.at(x, y);
        counts.set(k, (counts.get(k) || 0) + 1);
      }
      const [background, area] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
      const share = area / (png.width * png.height);
      const uv = readAccessor(gltf, primitive.attributes.TEXCOORD_0);
      const indices = readAccessor(gltf, primitive.indices).map((v) => v[0]);
      const onBackground = (flip) => {
        let hits = 0;
        for (let t = 0; t < indices.length; t += 3) {
          let u = 0, v = 0;
          for (let k = 0; k < 3; ++k) {
            u += uv[indices[t + k]][0] / 3;
            v += uv[indices[t + k]][1] / 3;
          }
          if (flip) v = 1 - v;
          const x = Math.min(png.width - 1, Math.floor((u - Math.floor(u)) * png.width));
          const y = Math.min(png.height - 1, Math.floor((v - Math.floor(v)) * png.height));
          if (png.at(x, y) === background) ++hits;
        }
        return hits / (indices.length / 3);
      };
      const asIs = onBackground(false);
      const flipped = onBackground(true);
      const line = `${label(mesh)} mesh ${m} (${image.name}): ${(100 * asIs).toFixed(1)}% of ` +
                   `triangle centres on the background (${(100 * share).toFixed(1)}% of the image) ` +
                   `with v as exported, ${(100 * flipped).toFixed(1)}% with v flipped`;
      // Only where one of the two is far from chance (the background's share of the image) do
      // they tell the conventions apart: an atlas with a large empty background.
      if (Math.max(Math.abs(asIs - share), Math.abs(flipped - share)) < 0.15) {
        console.log(`info ${line} (not informative)`);
        continue;
      }
      ++informative;
      report(asIs < 0.5 * flipped, line);
    }
  }
  if (haveShared && informative < 2) report(false, `only ${informative} informative textured models`);
}

if (check === 'validator') await checkValidator();
else if (check === 'poses') checkPoses();
else if (check === 'uv') checkUv();
else checkAssimp();
console.log(`${selected.length} models${haveShared ? '' : ' (../shared not found: assets/ only)'}, ` +
            `${failures} failed`);
if (failures > 0) process.exit(1);
if (!haveShared) skip('../shared/md5 not found: only assets/ models were checked');
