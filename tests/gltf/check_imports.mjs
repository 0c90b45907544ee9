// Independent check of `md5stage convert` on the skinned glTF files of ../shared/gltf: each is
// converted, then every frame of every converted md5anim (and the bind pose), skinned by
// `md5stage pose --normalize`, must match gltf_eval.mjs's evaluation of the glTF itself (its own
// reader, sampler and skinning, no code shared with the C++ importer) within 1e-5 of the model's
// extent. Exit 0 pass, 1 fail, 77 skip (no ../shared; under CI=true that fails instead).
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {evaluateNodes, readAccessor, readGlb, skinnedPositions} from './gltf_eval.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const cli = option('--cli', null);
const shared = option('--shared', null);
const out = option('--out', fs.mkdtempSync('/tmp/md5stage-import-'));
if (!cli || !shared) {
  console.error('usage: check_imports.mjs --cli MD5STAGE --shared DIR [--out DIR]');
  process.exit(2);
}
const files = ['RiggedSimple/RiggedSimple.glb', 'SimpleSkin/SimpleSkin.gltf'].map(
    (f) => path.join(shared, 'gltf', f));
if (!files.every((f) => fs.existsSync(f))) {
  const reason = `${path.join(shared, 'gltf')} not found`;
  if (process.env.CI === 'true') {
    console.error(`FAIL: ${reason} (under CI=true it is required)`);
    process.exit(1);
  }
  console.log(`SKIP: ${reason}`);
  process.exit(77);
}

// A .gltf with its buffers (data: URIs or files beside it), in readGlb's form.
function readGltf(file) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const buffers = (json.buffers || []).map((b) => {
    const data = /^data:[^,]*;base64,(.*)$/.exec(b.uri);
    const bytes = data ? Buffer.from(data[1], 'base64')
                       : fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(b.uri)));
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  });
  return {json, buffers};
}

function readObjPositions(file) {
  const positions = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('v ')) {
      const [x, y, z] = line.slice(2).trim().split(/\s+/).map(Number);
      positions.push([x, z, -y]);  // MD5 Z-up back to glTF Y-up: the importer's mapping undone
    }
  }
  return positions;
}

let failures = 0;
for (const file of files) {
  const name = path.basename(file).replace(/\.(glb|gltf)$/, '');
  const dir = path.join(out, name);
  fs.rmSync(dir, {recursive: true, force: true});
  const stdout = execFileSync(cli, ['convert', file, '-o', dir], {encoding: 'utf8', stdio: 'pipe'});
  const gltf = file.endsWith('.glb') ? readGlb(new Uint8Array(fs.readFileSync(file))) : readGltf(file);
  const mesh = path.join(dir, `${name}.md5mesh`);
  const obj = path.join(dir, 'pose.obj');
  const pose = (extra) => {
    execFileSync(cli, ['pose', mesh, ...extra, '--normalize', '--obj', obj], {stdio: 'pipe'});
    return readObjPositions(obj);
  };
  // The bind pose is the mesh as stored: glTF POSITION, every primitive of the skinned nodes.
  const stored = [];
  gltf.json.nodes.forEach((node) => {
    if (node.mesh === undefined || node.skin !== 0) return;
    for (const p of gltf.json.meshes[node.mesh].primitives) {
      stored.push(...readAccessor(gltf, p.attributes.POSITION));
    }
  });
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const p of stored) for (let c = 0; c < 3; ++c) {
    lo[c] = Math.min(lo[c], p[c]);
    hi[c] = Math.max(hi[c], p[c]);
  }
  const extent = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const tolerance = 1e-5 * extent;
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
  compare(stored, pose([]), 'bind pose');
  const animations = gltf.json.animations || [];
  const anims = [...stdout.matchAll(/^(.*\.md5anim): (\d+) frames at ([0-9.e+-]+) fps/gm)];
  if (anims.length !== animations.length) {
    worst = {error: Infinity, where: `${anims.length} md5anims for ${animations.length} animations`};
  }
  anims.forEach(([, anim, frameText, rateText], a) => {
    const frames = Number(frameText);
    const rate = Number(rateText);
    let start = Infinity;
    for (const s of animations[a].samplers) {
      start = Math.min(start, readAccessor(gltf, s.input)[0][0]);
    }
    for (let f = 0; f < frames; ++f) {
      compare(skinnedPositions(gltf, evaluateNodes(gltf, a, start + f / rate)),
              pose([anim, '--frame', String(f)]), `${path.basename(anim)} frame ${f}`);
    }
  });
  const ok = worst.error <= tolerance;
  if (!ok) ++failures;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${compared} poses, max error ` +
              `${worst.error.toExponential(3)} (${(worst.error / extent).toExponential(3)} of extent ` +
              `${extent.toFixed(3)}; tolerance ${tolerance.toExponential(3)}) at ${worst.where}`);
}
process.exit(failures > 0 ? 1 : 0);
