// Decodes the 8-bit, non-interlaced PNGs Chromium writes for screenshots, so tests can look at
// real pixels. Uses only node's zlib.
import { inflateSync } from 'node:zlib';

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// Returns {width, height, data} with data as RGBA bytes.
export function decodePng(buffer) {
  let offset = 8;
  let width = 0, height = 0, colorType = 0, bitDepth = 0, interlace = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      bitDepth = body[8];
      colorType = body[9];
      interlace = body[12];
    } else if (type === 'IDAT') {
      idat.push(body);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  if (bitDepth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) {
    throw new Error(`unsupported PNG: depth ${bitDepth}, colour type ${colorType}`);
  }
  const channels = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : null;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels] : 0;
      const b = prev ? prev[x] : 0;
      const c = prev && x >= channels ? prev[x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) v += paeth(a, b, c);
      out[x] = v & 255;
    }
  }
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    data[i * 4] = pixels[j];
    data[i * 4 + 1] = pixels[j + 1];
    data[i * 4 + 2] = pixels[j + 2];
    data[i * 4 + 3] = channels === 4 ? pixels[j + 3] : 255;
  }
  return { width, height, data };
}

// How many distinct colours a rectangle of the image holds (quantised to 4 bits per channel).
export function distinctColours(image, x0 = 0, y0 = 0, x1 = image.width, y1 = image.height) {
  const seen = new Set();
  for (let y = Math.max(0, y0); y < Math.min(image.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(image.width, x1); x++) {
      const i = (y * image.width + x) * 4;
      seen.add(((image.data[i] >> 4) << 8) | ((image.data[i + 1] >> 4) << 4) | (image.data[i + 2] >> 4));
    }
  }
  return seen.size;
}

// The number of pixels that differ by more than `threshold` in any channel.
export function countDifferentPixels(a, b, threshold = 24, rect = null) {
  if (a.width !== b.width || a.height !== b.height) throw new Error('image sizes differ');
  const [x0, y0, x1, y1] = rect || [0, 0, a.width, a.height];
  let count = 0;
  for (let y = Math.max(0, y0); y < Math.min(a.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(a.width, x1); x++) {
      const i = (y * a.width + x) * 4;
      if (Math.abs(a.data[i] - b.data[i]) > threshold || Math.abs(a.data[i + 1] - b.data[i + 1]) > threshold ||
          Math.abs(a.data[i + 2] - b.data[i + 2]) > threshold) count++;
    }
  }
  return count;
}

// Each 16 x 16 (`size`) block's difference between two pictures of one size: the sum over RGB of
// the absolute differences of the block's mean colours (0-765). Where two pictures place things
// differently, not how their edges are smoothed.
export function blockDifferences(a, b, size = 16) {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`pictures of different sizes: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  }
  const differences = [];
  for (let by = 0; by + size <= a.height; by += size) {
    for (let bx = 0; bx + size <= a.width; bx += size) {
      let d = 0;
      for (let c = 0; c < 3; ++c) {
        let ma = 0, mb = 0;
        for (let y = by; y < by + size; ++y) {
          for (let x = bx; x < bx + size; ++x) {
            ma += a.data[(y * a.width + x) * 4 + c];
            mb += b.data[(y * b.width + x) * 4 + c];
          }
        }
        d += Math.abs(ma - mb) / (size * size);
      }
      differences.push(d);
    }
  }
  return differences;
}
