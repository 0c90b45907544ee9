// Doom 3 folders written by browser tests: RLE TGAs as Doom 3's tools write them, and the walker
// as a mod ships it (materials/walker.mtr naming _d, _local and _s TGAs under models/characters/).
import fs from 'node:fs';
import path from 'node:path';
import { decodePng } from './png.mjs';

// An image (decodePng's { width, height, data: RGBA }) as an RLE-compressed 32-bit TGA with a
// top-left origin, as Doom 3's tools write them: runs of equal pixels packed, the rest raw.
export function rleTga(image) {
  const header = Buffer.alloc(18);
  header[2] = 10;
  header.writeUInt16LE(image.width, 12);
  header.writeUInt16LE(image.height, 14);
  header[16] = 32;
  header[17] = 0x28;  // 8 alpha bits, top-left origin
  const out = [header];
  const pixel = (i) => [image.data[i * 4 + 2], image.data[i * 4 + 1], image.data[i * 4], image.data[i * 4 + 3]];
  const same = (a, b) => a.every((v, k) => v === b[k]);
  for (let row = 0; row < image.height; row++) {
    let x = 0;
    while (x < image.width) {
      const at = row * image.width + x;
      let run = 1;
      while (x + run < image.width && run < 128 && same(pixel(at), pixel(at + run))) run++;
      if (run > 1) {
        out.push(Buffer.from([0x80 | (run - 1), ...pixel(at)]));
      } else {
        let raw = 1;
        while (x + raw < image.width && raw < 128 && !same(pixel(at + raw - 1), pixel(at + raw))) raw++;
        out.push(Buffer.from([raw - 1, ...Array.from({ length: raw }, (_, k) => pixel(at + k)).flat()]));
        run = raw;
      }
      x += run;
    }
  }
  return Buffer.concat(out);
}

// The walker (mesh, idle and walk) with its assetgen PNG maps as TGAs, in a new folder under
// ctx.outDir: { root (to remove), folder (to drop) }.
export function writeWalkerMod(ctx) {
  const walker = path.join(ctx.site, 'assets/models/walker');
  const root = fs.mkdtempSync(path.join(ctx.outDir, 'doom-mod-'));
  const folder = path.join(root, 'walkermod');
  const models = path.join(folder, 'models/characters/walker');
  fs.mkdirSync(models, { recursive: true });
  fs.mkdirSync(path.join(folder, 'materials'), { recursive: true });
  for (const file of ['walker.md5mesh', 'idle.md5anim', 'walk.md5anim']) {
    fs.copyFileSync(path.join(walker, file), path.join(models, file));
  }
  const maps = { walker: '_d', walker_local: '_local', walker_s: '_s' };
  for (const [png, suffix] of Object.entries(maps)) {
    const image = decodePng(fs.readFileSync(path.join(walker, `${png}.png`)));
    fs.writeFileSync(path.join(models, `walker${suffix}.tga`), rleTga(image));
  }
  fs.writeFileSync(path.join(folder, 'materials/walker.mtr'), `// a Doom 3 mod's material for the walker
models/walker/walker
{
\tqer_editorimage\tmodels/characters/walker/walker_d.tga
\tdiffusemap\tmodels/characters/walker/walker_d.tga
\tbumpmap\t\tmodels/characters/walker/walker_local.tga
\tspecularmap\tmodels/characters/walker/walker_s.tga
}
`);
  return { root, folder };
}
