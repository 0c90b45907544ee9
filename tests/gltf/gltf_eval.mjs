// An independent glTF 2.0 reader and evaluator for the export checks (no code shared with the
// C++ exporter): GLB chunks, accessors, node TRS with animation channels (LINEAR, STEP), node
// hierarchy, and linear-blend skinning by the spec's formula
// v' = sum_k w_k * (global(joint_k) * inverseBind_k) * v.

export function readGlb(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0x46546c67) throw new Error('not a GLB (magic)');
  if (view.getUint32(4, true) !== 2) throw new Error('GLB version is not 2');
  if (view.getUint32(8, true) !== bytes.byteLength) throw new Error('GLB length field is wrong');
  let offset = 12;
  let json = null;
  let bin = null;
  while (offset < bytes.byteLength) {
    const length = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    const chunk = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(chunk));
    if (type === 0x004e4942) bin = chunk;
    offset += 8 + length;
  }
  if (!json) throw new Error('GLB has no JSON chunk');
  return {json, buffers: [bin]};
}

const kComponents = {SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16};
const kReaders = {
  5121: [1, (v, o) => v.getUint8(o)],
  5123: [2, (v, o) => v.getUint16(o, true)],
  5125: [4, (v, o) => v.getUint32(o, true)],
  5126: [4, (v, o) => v.getFloat32(o, true)],
};

// An accessor as an array of tuples (arrays of numbers).
export function readAccessor(gltf, index) {
  const accessor = gltf.json.accessors[index];
  const bufferView = gltf.json.bufferViews[accessor.bufferView];
  const buffer = gltf.buffers[bufferView.buffer];
  const [size, read] = kReaders[accessor.componentType];
  const components = kComponents[accessor.type];
  const stride = bufferView.byteStride || size * components;
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const base = (bufferView.byteOffset || 0) + (accessor.byteOffset || 0);
  const out = [];
  for (let i = 0; i < accessor.count; ++i) {
    const tuple = [];
    for (let c = 0; c < components; ++c) tuple.push(read(view, base + i * stride + c * size));
    out.push(tuple);
  }
  return out;
}

// Column-major 4x4 matrices as flat arrays of 16.
function multiply(a, b) {
  const r = new Array(16).fill(0);
  for (let c = 0; c < 4; ++c) {
    for (let row = 0; row < 4; ++row) {
      let sum = 0;
      for (let k = 0; k < 4; ++k) sum += a[k * 4 + row] * b[c * 4 + k];
      r[c * 4 + row] = sum;
    }
  }
  return r;
}

function compose(t, q, s) {
  const [x, y, z, w] = q;
  const m = [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
    t[0], t[1], t[2], 1,
  ];
  for (let c = 0; c < 3; ++c) for (let r = 0; r < 3; ++r) m[c * 4 + r] *= s[c];
  return m;
}

function slerp(a, b, t) {
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let bb = b;
  if (dot < 0) {
    dot = -dot;
    bb = b.map((v) => -v);
  }
  let wa, wb;
  if (dot > 0.9995) {
    wa = 1 - t;
    wb = t;
  } else {
    const theta = Math.acos(dot);
    wa = Math.sin((1 - t) * theta) / Math.sin(theta);
    wb = Math.sin(t * theta) / Math.sin(theta);
  }
  const r = a.map((v, i) => wa * v + wb * bb[i]);
  const n = Math.hypot(...r);
  return r.map((v) => v / n);
}

// The value of one sampler at time t (clamped to its key range).
function sample(gltf, sampler, path, t) {
  const times = readAccessor(gltf, sampler.input).map((v) => v[0]);
  const values = readAccessor(gltf, sampler.output);
  const interpolation = sampler.interpolation || 'LINEAR';
  if (interpolation === 'CUBICSPLINE') throw new Error('CUBICSPLINE is not evaluated here');
  if (t <= times[0]) return values[0];
  if (t >= times[times.length - 1]) return values[values.length - 1];
  let lo = 0;
  let hi = times.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  if (interpolation === 'STEP') return values[lo];
  const u = (t - times[lo]) / (times[hi] - times[lo]);
  if (path === 'rotation') return slerp(values[lo], values[hi], u);
  return values[lo].map((v, i) => v + u * (values[hi][i] - v));
}

// World matrices of every node of the default scene, with animation `animationIndex` (or none:
// -1) applied at time t.
export function evaluateNodes(gltf, animationIndex, t) {
  const nodes = gltf.json.nodes;
  const trs = nodes.map((n) => ({
    t: n.translation || [0, 0, 0],
    r: n.rotation || [0, 0, 0, 1],
    s: n.scale || [1, 1, 1],
  }));
  if (animationIndex >= 0) {
    const animation = gltf.json.animations[animationIndex];
    for (const channel of animation.channels) {
      const value = sample(gltf, animation.samplers[channel.sampler], channel.target.path, t);
      const target = trs[channel.target.node];
      if (channel.target.path === 'translation') target.t = value;
      else if (channel.target.path === 'rotation') target.r = value;
      else if (channel.target.path === 'scale') target.s = value;
    }
  }
  const world = new Array(nodes.length).fill(null);
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const visit = (index, parent, depth) => {
    if (depth > nodes.length) throw new Error('node graph has a cycle');
    const n = nodes[index];
    const local = n.matrix || compose(trs[index].t, trs[index].r, trs[index].s);
    world[index] = multiply(parent, local);
    for (const child of n.children || []) visit(child, world[index], depth + 1);
  };
  const scene = gltf.json.scenes[gltf.json.scene || 0];
  for (const root of scene.nodes) visit(root, identity, 0);
  return world;
}

// Skinned positions of every skinned mesh node (scene order of nodes), concatenated.
export function skinnedPositions(gltf, world) {
  const out = [];
  gltf.json.nodes.forEach((node) => {
    if (node.mesh === undefined || node.skin === undefined) return;
    const skin = gltf.json.skins[node.skin];
    const inverseBinds = readAccessor(gltf, skin.inverseBindMatrices);
    const palette = skin.joints.map((j, i) => multiply(world[j], inverseBinds[i]));
    for (const primitive of gltf.json.meshes[node.mesh].primitives) {
      const positions = readAccessor(gltf, primitive.attributes.POSITION);
      const joints = readAccessor(gltf, primitive.attributes.JOINTS_0);
      const weights = readAccessor(gltf, primitive.attributes.WEIGHTS_0);
      for (let v = 0; v < positions.length; ++v) {
        const p = positions[v];
        const r = [0, 0, 0];
        for (let k = 0; k < 4; ++k) {
          const w = weights[v][k];
          if (w === 0) continue;
          const m = palette[joints[v][k]];
          for (let row = 0; row < 3; ++row) {
            r[row] += w * (m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row]);
          }
        }
        out.push(r);
      }
    }
  });
  return out;
}
