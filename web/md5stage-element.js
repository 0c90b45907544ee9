// <md5-stage>: live md5stage figures for documentation pages, from one script tag. Every element
// of the page is a stage of one shared wasm module (md5stage-figures.wasm, found next to this
// script) drawn with one WebGL2 context and copied into the element's own canvas.
//
//   <md5-stage scene="turns" alt="Three turning radii" camera-controls></md5-stage>
//   <md5-stage src="models/imp.md5mesh" anims="models/idle.md5anim models/walk.md5anim"></md5-stage>
//   <script src="md5stage-element.js"></script>
//
// Attributes (the iframe embed's option names, docs/embedding.md): scene | src + anims +
// materials (+ mesh-pack, the mesh's compact form); animation, autoplay, paused, t, loop;
// camera, camera-controls, grid, skeleton, joint_names, bounds, wireframe, normals, routes,
// turn_circles, construction, clearance; avoidance; model-viewer's auto-rotate,
// rotation-per-second, time-scale, interaction-prompt, shadow-intensity,
// animation-crossfade-duration, min-render-scale; loading (lazy | eager), poster, alt, ui
// (none | timeline | controls), tool (camera | goto: clicks on the ground send the character
// there). Children with slot="hotspot-NAME" (data-joint, data-character, data-position,
// data-construction, data-surface, data-camera) are placed over it. Methods
// play(), pause(), seek(t), state(), call(), positionOf(), toBlob(); properties currentTime,
// paused, ready; events load, progress, error {message, attribute?, type?}, finished, play,
// pause, camera-change {source}.
// This file only moves bytes, events and attribute values into the module's exported functions;
// what a value means is decided in C++ (src/viewer/embed_options.h, src/app/figures_main.cpp).
'use strict';

(function () {
  const { withHeap, callModule, answerFetch, linkPayload, TimelineBar } = md5stageRuntime;
  // Without a window (a server rendering the page, node importing the package) there is nothing
  // to define: the script does nothing.
  if (typeof window === 'undefined' || !window.customElements || window.customElements.get('md5-stage')) return;
  const script = document.currentScript;
  const base = new URL('.', script && script.src ? script.src : window.location.href);

  // The attributes by who reads them (md5stageElementTable, generated from C++'s element table,
  // src/viewer/element_spec.cpp, and bundled before this file): those that open the scene, the
  // embed's URL options that go to the stage, and the element's own.
  const named = (role) => md5stageElementTable.attributes.filter((entry) => entry[1] === role).map((entry) => entry[0]);
  const SOURCE = named('source');
  const OPTIONS = named('option');
  const PAGE = named('page');
  const DEMO = /^[A-Za-z0-9_-]{1,64}$/;
  const PAYLOAD = /^[A-Za-z0-9_-]+$/;
  const MAX_SIDE = 4096;  // device pixels of one figure, at most
  // The longest attribute value handed on, in characters: the embed parser's whole URL
  // (kMaxEmbedUrlChars), four times a share link's largest payload. A longer one is refused here,
  // so that a page's stray value never grows the memory every figure of the page shares.
  const MAX_VALUE = 4 << 20;
  // model-viewer's names that go back to its default when removed (the others keep the stage as
  // it is): the value sent for a removed attribute.
  const REMOVED = { 'auto-rotate': '0', 'time-scale': '1' };
  // An error event's message is at most this long (a message may quote the value it refuses).
  const MAX_MESSAGE = 600;
  // Scenes name their files by assets-relative paths or https:// URLs only, the sources that
  // travel in share links (docs/scene-format.md). A page's own file (src, anims, materials on a
  // page served over http, as local docs servers are) travels as `_page/` + its path on the page's
  // origin, which only this script's fetch reads back.
  const PAGE_PREFIX = '_page/';
  function pageSource(text, attribute) {
    let url;
    try {
      url = new URL(text, document.baseURI);
    } catch (error) {
      return { error: `${attribute}: '${text.slice(0, 80)}' is not a URL` };
    }
    if (url.protocol === 'https:' && url.origin !== window.location.origin) return { url: url.href };
    if (url.origin === window.location.origin && /^https?:$/.test(url.protocol)) return { url: PAGE_PREFIX + url.pathname.slice(1) };
    return { error: `${attribute}: '${text.slice(0, 80)}' is neither on this page's origin nor an https:// URL` };
  }
  // A poster: any http(s) URL (relative ones against the page); other schemes are never loaded.
  function posterUrl(text) {
    let url = null;
    try {
      url = new URL(text, document.baseURI);
    } catch (error) {
      url = null;
    }
    if (url && /^https?:$/.test(url.protocol)) return { url: url.href };
    return { error: `poster: expected an http(s) image URL, found '${text.slice(0, 80)}'` };
  }
  // Markup in alt is read out as written: alt is plain text, as an img's is.
  const MARKUP = /<[A-Za-z!\/?]/;
  const MAX_ALT = 1000;  // characters of alt text, as aria-label
  const reducedMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)');

  // ---- the page's one module, canvas and frame loop ------------------------------------------------
  const runtime = {
    module: null,
    starting: null,   // the promise of the module, once something asked for it
    canvas: null,     // the shared WebGL2 canvas, out of sight
    lost: false,
    stages: new Map(),  // stage id -> element
    elements: new Set(),
    frame: 0,
    // The page's last frame, in ms: all of it, its update + render (the figures moved on, their
    // GL commands issued) and its copies (which wait for the GL queue to be drawn).
    lastFrame: { ms: 0, render: 0, copy: 0, figures: 0, spots: 0 },
    spots: 0,  // ms this frame placing hotspots (part of its copies)
    // Dynamic resolution (C++'s RenderScaleController, src/viewer/render_scale.h): the scale the
    // page's figures draw at, from the frames' times; each figure draws at no less than its
    // min-render-scale. Tests of pixels fix it at 1 (window.md5stageFixedRenderScale).
    renderScale: 1,
    fixedScale: window.md5stageFixedRenderScale === true,
    minimumsChanged: true,  // a figure's min-render-scale changed, or figures came or went
    bytes: new Map(),  // absolute URL -> Promise of an ArrayBuffer: each file fetched once a page
  };

  function loadScript(url) {
    return new Promise((resolve, reject) => {
      const tag = document.createElement('script');
      tag.src = url;
      tag.async = true;
      tag.onload = () => resolve();
      tag.onerror = () => reject(new Error(`md5-stage: could not load ${url}`));
      document.head.appendChild(tag);
    });
  }

  // The page's one WebGL canvas, out of sight: figures are drawn there and copied out.
  function sharedCanvas() {
    const canvas = document.createElement('canvas');
    canvas.id = `md5stage-figures-${Math.random().toString(36).slice(2)}`;
    canvas.width = 16;
    canvas.height = 16;
    canvas.setAttribute('aria-hidden', 'true');
    canvas.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;opacity:0;pointer-events:none;';
    document.body.appendChild(canvas);
    return canvas;
  }

  function startModule() {
    if (runtime.starting) return runtime.starting;
    runtime.starting = (async () => {
      if (typeof window.createMd5StageFigures !== 'function') await loadScript(new URL('md5stage-figures.js', base).href);
      const module = await window.createMd5StageFigures({
        locateFile: (file) => new URL(file, base).href,
        print: (text) => console.log(text),
        printErr: (text) => console.warn(text),
      });
      module.md5stageFetch = (stage, request, url, label, index, count) => fetchForStage(module, stage, request, url, label, index, count);
      // Events arrive from inside a C++ call (an opening ends in md5stage_fetched, or at once in
      // md5stage_call when C++ refuses the scene): handled after that call returns, never inside.
      module.md5stageEvent = (name, detailJson, stage) => {
        const detail = JSON.parse(detailJson);
        queueMicrotask(() => {
          const element = runtime.stages.get(stage);
          if (element) element._onStageEvent(name, detail);
        });
      };
      // "" when the context is made on the canvas, else why not.
      const start = (canvas, antialias) => withHeap(module, [`#${canvas.id}`],
        (selector) => module.UTF8ToString(module._md5stage_figures_start(selector, antialias)), () => 'out of memory');
      let canvas = sharedCanvas();
      let error = start(canvas, 1);
      if (!error && module._md5stage_figures_software()) {
        // A CPU rasterizer: without multisampling a page of figures draws 2.6x as fast there. A
        // canvas keeps its first context's attributes, so the context moves to a new one.
        canvas.remove();
        canvas = sharedCanvas();
        error = start(canvas, 0);
      }
      if (error) throw new Error(error);
      canvas.addEventListener('webglcontextlost', onContextLost);
      canvas.addEventListener('webglcontextrestored', onContextRestored);
      runtime.module = module;
      runtime.canvas = canvas;
      return module;
    })();
    return runtime.starting;
  }

  const call = (command) => callModule(runtime.module, command);

  // A stage asks for a file: relative URLs are the package's own (demo scenes and their models),
  // `_page/PATH` a file of the page's own origin (see pageSource), https:// URLs as they are.
  function fetchForStage(module, stage, request, url, label, index, count) {
    const element = runtime.stages.get(stage);
    if (element) element._progress(index, count, label);
    const absolute = absoluteSource(url);
    // The mesh's pack (mesh-pack) in its place, under the mesh's name: C++ tells the two apart by
    // their first bytes; the MD5 text is the fallback when the pack cannot be fetched.
    const pack = element && element._meshPack && element._meshPack.mesh === absolute ? element._meshPack.pack : null;
    const bytes = pack ? fetchBytes(pack).catch(() => fetchBytes(absolute)) : fetchBytes(absolute);
    answerFetch(module, stage, request, bytes, () => runtime.stages.has(stage)).then(wake);
    return 1;
  }

  // The URL a stage's file name stands for: C++ asks for a scene's assets-relative source under
  // assets/ (the site's layout).
  function absoluteSource(url) {
    const pageFile = url.startsWith(`assets/${PAGE_PREFIX}`) ? url.slice(7) : url;
    return pageFile.startsWith(PAGE_PREFIX)
      ? new URL(pageFile.slice(PAGE_PREFIX.length - 1), window.location.href).href : new URL(url, base).href;
  }

  // A file's bytes, fetched once for every figure of the page.
  function fetchBytes(absolute) {
    let bytes = runtime.bytes.get(absolute);
    if (!bytes) {
      bytes = fetch(absolute).then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.arrayBuffer();
      });
      runtime.bytes.set(absolute, bytes);
      bytes.catch(() => runtime.bytes.delete(absolute));  // a failed fetch may be tried again
    }
    return bytes;
  }

  function wake() {
    if (!runtime.frame && runtime.module && !runtime.lost) runtime.frame = requestAnimationFrame(drawFrame);
  }

  // One frame of the page: every visible figure whose picture changes is moved on and prepared
  // for its own region of the shared canvas (rows of figures side by side), all are drawn in one
  // call (one upload of their palettes and lines), then copied out, so the GL queue is flushed
  // once a frame rather than once a figure.
  function drawFrame(now) {
    runtime.frame = 0;
    if (runtime.lost) return;
    const due = [];
    for (const element of runtime.elements) if (element._due()) due.push(element);
    if (!due.length) return;
    const start = performance.now();
    let x = 0, y = 0, row = 0, width = 1, height = 1;
    for (const element of due) {
      const { width: w, height: h } = element._shot || element._pixels;
      if (x > 0 && x + w > MAX_SIDE) {
        x = 0;
        y += row;
        row = 0;
      }
      if (y + h > MAX_SIDE) {  // no room left this frame: it draws in the next one
        element._slot = null;
        continue;
      }
      element._slot = { x, y };
      x += w;
      row = Math.max(row, h);
      width = Math.max(width, x);
      height = Math.max(height, y + row);
    }
    // The canvas only grows (a new size reallocates its buffers), up to what a frame needs.
    if (width > runtime.canvas.width) runtime.canvas.width = width;
    if (height > runtime.canvas.height) runtime.canvas.height = height;
    let again = false;
    const drawn = [];
    for (const element of due) {
      if (!element._slot) {
        again = true;
        continue;
      }
      if (element._draw(now)) drawn.push(element);
      again = element._keepsChanging() || again;
    }
    if (drawn.length) runtime.module._md5stage_figures_draw(runtime.canvas.width, runtime.canvas.height);
    const rendered = performance.now();
    // The hotspots after every copy, moved together: in a frame where one of the page's hotspots
    // must move (_readSpots), each that moved at all is written; in the others none is. Whether it
    // moves one or twelve, a frame that writes one costs the page a style recalculation and a new
    // layering of its paint, which a frame without writes does not (bench/README.md, issue 46).
    runtime.spots = 0;
    let moving = false;
    for (const element of drawn) moving = element._copy() || moving;
    const copied = performance.now();
    runtime.moves = 0;
    for (const element of drawn) element._moveSpots(moving);
    const end = performance.now();
    runtime.spots += end - copied;
    runtime.lastFrame = { ms: end - start, render: rendered - start, copy: end - rendered, figures: due.length, spots: runtime.spots, moves: runtime.moves };
    if (drawn.length) observeFrameTime(end - start);
    if (again) wake();
  }

  // The frame's time to the controller; a new scale resizes every figure's drawing.
  function observeFrameTime(ms) {
    if (runtime.fixedScale) return;
    const module = runtime.module;
    if (runtime.minimumsChanged) {
      runtime.minimumsChanged = false;
      let lowest = 1;
      for (const element of runtime.elements) lowest = Math.min(lowest, element._minScale);
      module._md5stage_figures_min_render_scale(lowest);
    }
    const scale = module._md5stage_figures_frame_time(ms);
    if (scale === runtime.renderScale) return;
    runtime.renderScale = scale;
    for (const element of runtime.elements) element._resized();
  }

  function onContextLost(event) {
    event.preventDefault();  // without it the browser never restores the context
    runtime.lost = true;
    if (runtime.frame) cancelAnimationFrame(runtime.frame);
    runtime.frame = 0;
    runtime.module._md5stage_context_lost();
    for (const element of runtime.elements) {
      element._fail('the WebGL context was lost; the figure comes back when the browser restores it', null, 'webglcontextlost');
    }
  }

  function onContextRestored() {
    const ok = runtime.module._md5stage_context_restored();
    if (!ok) {
      for (const element of runtime.elements) element._fail('the WebGL context could not be rebuilt', null, 'webglcontextrestored');
      return;
    }
    runtime.lost = false;
    for (const element of runtime.elements) {
      element._dirty = true;
      element.dispatchEvent(new CustomEvent('restored'));
    }
    wake();
  }

  // Near the viewport: lazy figures start once they are within a screen of it.
  const nearObserver = new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) entry.target._near();
  }, { rootMargin: '100% 0px' });
  // Visible: only these are drawn; a hidden figure's clock waits.
  const visibleObserver = new IntersectionObserver((entries) => {
    for (const entry of entries) entry.target._setVisible(entry.isIntersecting);
  });
  const resizeObserver = new ResizeObserver((entries) => {
    for (const entry of entries) entry.target._resized();
  });

  // ---- ui="controls": one character's clip -------------------------------------------------------
  // A character picker (shown when the scene has several), the clip, play/pause, the previous
  // and next frame, the speed and a scrubbable timeline of the clip, each a native control with
  // its label, so Tab, arrows, Space and Enter work as on any form. They act through the page
  // API's commands (setAnimation, play, pause, step, setRate, setTime) and show its `clip` reply.
  const SPEEDS = [-1, 0, 0.25, 0.5, 1, 1.5, 2];
  class ControlsBar {
    constructor(call, changed) {
      this.call = call;
      this.changed = changed;
      this.instance = 0;
      this.shown = { clips: '', characters: '' };
      this.element = document.createElement('div');
      const control = (tag, label, properties) => {
        const node = Object.assign(document.createElement(tag), properties);
        node.setAttribute('aria-label', label);
        this.element.append(node);
        return node;
      };
      this.character = control('select', 'Character', { hidden: true });
      this.clip = control('select', 'Clip');
      this.button = control('button', 'Play', { type: 'button', textContent: '\u25b6' });
      this.back = control('button', 'Previous frame', { type: 'button', textContent: '|\u25c0' });
      this.forward = control('button', 'Next frame', { type: 'button', textContent: '\u25b6|' });
      this.speed = control('select', 'Speed');
      for (const rate of SPEEDS) this.speed.append(new Option(`${rate}\u00d7`, String(rate)));
      this.range = control('input', 'Clip time', { type: 'range', min: '0', max: '1', step: '0.01', value: '0' });
      this.time = control('span', 'Clip time in seconds', { textContent: '0.00 s' });
      this.character.addEventListener('change', () => {
        this.instance = Number(this.character.value);
        this.update();
      });
      this.clip.addEventListener('change', () => this.act('setAnimation', { name: this.clip.value }));
      this.button.addEventListener('click', () => this.act(this.reply && this.reply.playing ? 'pause' : 'play', {}));
      this.back.addEventListener('click', () => this.act('step', { frames: -1 }));
      this.forward.addEventListener('click', () => this.act('step', { frames: 1 }));
      this.speed.addEventListener('change', () => this.act('setRate', { rate: Number(this.speed.value) }));
      this.range.addEventListener('input', () => this.act('setTime', { time: Number(this.range.value) }));
    }

    act(cmd, fields) {
      this.call(Object.assign({ cmd, instance: this.instance }, fields));
      this.changed();
      this.update();
    }

    // Fills a select with [value, text] pairs when they changed since the last time.
    static fill(select, entries, key, shown) {
      const text = JSON.stringify(entries);
      if (shown[key] === text) return;
      shown[key] = text;
      select.replaceChildren(...entries.map(([value, label]) => new Option(label, value)));
    }

    // The scene's characters, after a scene opened.
    measure(state) {
      const instances = state && Array.isArray(state.instances) ? state.instances : [];
      if (this.instance >= instances.length) this.instance = 0;
      ControlsBar.fill(this.character, instances.map((c, i) => [String(i), c.label || c.id]), 'characters', this.shown);
      this.character.hidden = instances.length < 2;
      this.character.value = String(this.instance);
      this.update();
    }

    // Shows the character's clip (one `clip` command a frame, not the state).
    update() {
      const reply = this.call({ cmd: 'clip', instance: this.instance });
      if (!reply.ok) return;
      this.reply = reply;
      ControlsBar.fill(this.clip, reply.animations.map((name) => [name, name]), 'clips', this.shown);
      if (reply.animation !== null && this.clip.value !== reply.animation) this.clip.value = reply.animation;
      const label = reply.playing ? 'Pause' : 'Play';
      if (this.button.getAttribute('aria-label') !== label) {
        this.button.setAttribute('aria-label', label);
        this.button.textContent = reply.playing ? '\u275a\u275a' : '\u25b6';
      }
      if (String(reply.rate) !== this.speed.value) {
        if (!SPEEDS.includes(reply.rate)) this.speed.append(new Option(`${reply.rate}\u00d7`, String(reply.rate)));
        this.speed.value = String(reply.rate);
      }
      // The last step before the end: a looping clip at its duration is at its start again, so
      // End would show 0 once a frame has run (and the reader would see the bar jump back).
      this.range.max = String(Math.max(reply.duration - 0.01, 0.01));
      if (this.element.getRootNode().activeElement !== this.range) this.range.value = String(reply.time);
      this.time.textContent = `${reply.time.toFixed(2)} s`;
    }
  }

  // ---- hotspots: what a hotspot points at, as a `locate` command ------------------------------
  // {joint, character} | {position: "x y z" or [x, y, z]} | {construction}; camera "yaw,pitch,
  // distance". Numbers must be finite and within the scenes' bound; names are C++'s to check.
  const SPOT_ATTRIBUTES = ['slot', 'data-joint', 'data-character', 'data-position', 'data-construction', 'data-surface', 'data-camera'];
  const numbers = (value, count, attribute) => {
    const list = Array.isArray(value) ? value.map(Number) : String(value).trim().split(/[\s,]+/).map(Number);
    if (list.length !== count || !list.every((n) => Number.isFinite(n) && Math.abs(n) <= 1e6)) {
      throw { error: `${attribute}: expected ${count} finite numbers, found '${String(value).slice(0, 80)}'`, attribute };
    }
    return list;
  };
  // data-surface (model-viewer's): "PART TRIANGLE B0 B1 B2", a triangle of the character's mesh
  // part and barycentric weights; C++ checks the triangle and the weights.
  function spotCommand({ joint, character, position, construction, surface, camera }) {
    try {
      const command = { cmd: 'locate' };
      const text = (value, attribute) => {
        if (String(value).length > 256) throw { error: `${attribute}: expected a name of at most 256 characters`, attribute };
        return String(value);
      };
      if (joint != null) {
        command.joint = text(joint, 'data-joint');
        command.instance = character == null ? 0 : /^\d+$/.test(character) ? Number(character) : text(character, 'data-character');
      } else if (position != null) {
        command.point = numbers(position, 3, 'data-position');
      } else if (construction != null) {
        command.construction = text(construction, 'data-construction');
      } else if (surface != null) {
        command.surface = numbers(surface, 5, 'data-surface');
        command.instance = character == null ? 0 : /^\d+$/.test(character) ? Number(character) : text(character, 'data-character');
      } else if (camera == null) {
        throw { error: 'hotspot: expected data-joint, data-position, data-construction or data-surface', attribute: 'data-position' };
      }
      const view = camera == null ? null : numbers(camera, 3, 'data-camera');
      if (view && (Math.abs(view[1]) > 89 || view[2] < 1 || view[2] > 1e5)) {
        throw { error: `data-camera: expected yaw, pitch in [-89, 89] and distance in [1, 100000], found '${camera}'`, attribute: 'data-camera' };
      }
      return { command: command.joint || command.point || command.construction || command.surface ? command : null, camera: view };
    } catch (problem) {
      return problem;
    }
  }

  // A hotspot is moved when it is this far off its point (CSS pixels), and then with every other
  // of the page's hotspots that moved at all (drawFrame): a walker's hand 10 px/s across a small
  // figure moves a quarter pixel a frame, and was written every frame.
  const SPOT_SLACK = 1;
  // A moving hotspot is written ahead of its point along its last frame's motion, by that
  // motion's next SPOT_LEAD_FRAMES frames but no more than SPOT_LEAD of the slack, so that it
  // stays within the slack for longer (behind its point only after the point passed it): in
  // steady motion one write every 1.75 slacks of motion instead of every slack.
  const SPOT_LEAD = 0.75;
  const SPOT_LEAD_FRAMES = 4;
  // Moves a hotspot's frame to (x, y) CSS pixels: with CSS Typed OM where the browser has it (a
  // transform set without writing and parsing its text), else by its style's text.
  function mover(frame) {
    if (typeof CSSTranslate === 'function' && frame.attributeStyleMap) {
      const x = CSS.px(0), y = CSS.px(0);
      const transform = new CSSTransformValue([new CSSTranslate(x, y)]);
      return (left, top) => {
        x.value = left;
        y.value = top;
        frame.attributeStyleMap.set('transform', transform);
      };
    }
    return (left, top) => { frame.style.transform = `translate(${left}px,${top}px)`; };
  }

  // ---- the element --------------------------------------------------------------------------
  const STYLE = `
    :host { display: inline-block; position: relative; width: 480px; height: 270px; contain: content;
            background: #212329; outline-offset: 2px; }
    :host([hidden]) { display: none; }
    .frame { position: absolute; inset: 0; }
    canvas { width: 100%; height: 100%; display: block; touch-action: pan-y; }
    :host([camera-controls]) canvas { touch-action: none; cursor: grab; }
    img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
    img[hidden], .bar[hidden] { display: none; }
    .bar { position: absolute; left: 0; right: 0; bottom: 0; display: flex; gap: 6px; align-items: center;
           padding: 4px 8px; background: rgba(16, 17, 20, 0.72); color: #eee; font: 12px system-ui, sans-serif; }
    .bar button, .bar select { min-width: 28px; font: inherit; background: #3a3d45; color: #eee; border: 0; border-radius: 3px; }
    .bar :focus-visible { outline: 2px solid #6ea8ff; }
    .bar input { flex: 1; }
    .prompt { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); padding: 6px 10px;
              border-radius: 14px; background: rgba(16, 17, 20, 0.72); color: #eee; font: 13px system-ui, sans-serif;
              pointer-events: none; }
    .prompt[hidden] { display: none; }
    .spots { position: absolute; inset: 0; overflow: hidden; pointer-events: none; }
    .spot { position: absolute; left: 0; top: 0; }
    .spot[hidden] { display: none; }
    ::slotted(*) { position: absolute; transform: translate(-50%, -50%); pointer-events: auto; }
  `;

  class Md5Stage extends HTMLElement {
    static get observedAttributes() { return [...SOURCE, ...OPTIONS, ...PAGE]; }

    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML = `<style>${STYLE}</style><div class="frame"><canvas part="canvas"></canvas>` +
        '<img part="poster" alt="" hidden>' +
        '<div class="prompt" part="interaction-prompt" aria-hidden="true" hidden>\u27f2 Drag to turn</div></div>';
      this._prompt = root.querySelector('.prompt');
      this._interacted = false;  // the reader acted on the figure: the prompt is gone for good
      // ui="timeline": the timeline bar (runtime.js); what it does to the clock is drawn next frame.
      this._bar = new TimelineBar((command) => this._call(command), () => this._changed());
      this._bar.element.className = 'bar';
      this._bar.element.setAttribute('part', 'timeline');
      this._bar.element.hidden = true;
      // ui="controls": the controls bar, for one character's clip.
      this._controls = new ControlsBar((command) => this._call(command), () => this._changed());
      this._controls.element.className = 'bar';
      this._controls.element.setAttribute('part', 'controls');
      this._controls.element.hidden = true;
      // Hotspots (children with slot="hotspot-NAME"): each in a slot of this layer, moved by a
      // transform every frame; after the figure in tab order.
      this._spotLayer = Object.assign(document.createElement('div'), { className: 'spots' });
      this._spots = [];
      root.append(this._spotLayer, this._bar.element, this._controls.element);
      new MutationObserver(() => this._findSpots()).observe(this, { childList: true, subtree: true, attributeFilter: SPOT_ATTRIBUTES });
      this._canvas = root.querySelector('canvas');
      this._context2d = this._canvas.getContext('2d', { alpha: false });
      this._poster = root.querySelector('img');
      this._stage = -1;
      this._opening = 0;        // the opening id C++ answered with, until its sceneOpened
      this._loaded = false;     // a scene of this element has opened
      this._drawn = false;      // a picture has been copied into the canvas
      this._dirty = true;
      this._animating = false;
      this._hasTexts = false;
      this._visible = false;
      this._started = false;
      this._last = 0;           // time of the last frame drawn (ms), 0: the clock restarts
      this._pixels = { width: 0, height: 0, ratio: 1 };  // what it draws: its canvas times its scale
      this._deviceRatio = 1;    // its canvas's device pixels per CSS pixel
      this._minScale = 0.5;     // min-render-scale (model-viewer's default)
      this._frames = 0;
      this._slot = null;        // where it draws in the shared canvas this frame
      this._progressValue = 0;  // of the opening under way
      this._ready = new Promise((resolve, reject) => { this._resolveReady = resolve; this._rejectReady = reject; });
      this._ready.catch(() => {});
      this._bindInput();
    }

    get ready() { return this._ready; }
    get loaded() { return this._loaded; }
    // Pictures copied into this figure so far (tests and the bench read it).
    get frames() { return this._frames; }
    // performance.now() when the first picture of an opened scene was copied (null before).
    get firstPictureTime() { return this._drawn ? this._firstPictureAt : null; }
    get currentTime() {
      const clock = this._clock();
      return clock ? clock.scene_time : 0;
    }
    set currentTime(value) { this.seek(value); }
    get paused() {
      const clock = this._clock();
      return clock ? !clock.scene_playing : !this.hasAttribute('autoplay');
    }
    // Sets or removes the paused attribute (React 19 sets a prop the element has as a property).
    set paused(value) {
      if (value) this.setAttribute('paused', '');
      else this.removeAttribute('paused');
    }
    play() { this._command({ cmd: 'playScene' }); }
    pause() { this._command({ cmd: 'pauseScene' }); }
    seek(time) { this._command({ cmd: 'setSceneTime', time: Number(time) }); }
    state() { return this._stage >= 0 ? call({ cmd: 'state', stage: this._stage }) : null; }
    // A picture of the current view as a Blob (a promise, as model-viewer's toBlob): PNG unless
    // `type` says otherwise, `width` x `height` device pixels (the figure's own by default),
    // drawn for that size in the next frame, with the figure's texts.
    toBlob({ type = 'image/png', width, height } = {}) {
      const size = (value, name, own) => {
        const n = value === undefined ? own : Number(value);
        if (!Number.isInteger(n) || n < 1 || n > MAX_SIDE) throw new RangeError(`toBlob: ${name}: expected an integer in [1, ${MAX_SIDE}], found ${String(value).slice(0, 40)}`);
        return n;
      };
      try {
        const shot = { type: String(type), width: size(width, 'width', this._canvas.width), height: size(height, 'height', this._canvas.height) };
        // One picture at a time: a second call waits for the first.
        const result = (this._shots || Promise.resolve()).then(() => this._ready).then(() => new Promise((resolve) => {
          this._shot = Object.assign(shot, { ratio: this._deviceRatio, resolve });
          this._changed();
        }));
        this._shots = result.catch(() => {});
        return result;
      } catch (error) {
        return Promise.reject(error);
      }
    }
    // Where a joint ({joint, character}), world point ({position: [x, y, z]}) or construction
    // point ({construction: 'Q'}) shows, in the element's CSS pixels; null off the figure.
    positionOf(target) {
      const made = spotCommand(target || {});
      const at = made.error ? null : this._locate(made.command);
      return at && at.inside ? { x: at.x, y: at.y } : null;
    }
    // Any page command (README, "Page API") on this figure's stage.
    // Any command of the stage; the figure is drawn again, since a command may change what it shows
    // (a paused figure is otherwise drawn only when something acts on it).
    call(command) {
      const reply = this._call(command);
      this._changed();
      return reply;
    }

    // A command of this figure's stage, without drawing it again (the figure's own reads and
    // the commands after which it marks itself changed).
    _call(command) {
      return this._stage >= 0 ? call(Object.assign({}, command, { stage: this._stage })) : { ok: false, error: 'the figure has not started' };
    }

    // The attribute's value, or null when absent or longer than MAX_VALUE (then an error event
    // names it, and the figure acts as if it had no such attribute).
    _attribute(name) {
      const value = this.getAttribute(name);
      if (value === null || value.length <= MAX_VALUE) return value;
      this._fail(`${name}: expected a value of at most ${MAX_VALUE} characters, found ${value.length}`, name);
      return null;
    }

    connectedCallback() {
      runtime.elements.add(this);
      runtime.minimumsChanged = true;
      if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
      if (!this.hasAttribute('role')) this.setAttribute('role', 'img');
      this._applyPage();
      nearObserver.observe(this);
      visibleObserver.observe(this);
      resizeObserver.observe(this);
      if (this._loading() === 'eager') this._near();
      this._findSpots();
    }

    disconnectedCallback() {
      runtime.elements.delete(this);
      runtime.minimumsChanged = true;
      nearObserver.unobserve(this);
      visibleObserver.unobserve(this);
      resizeObserver.unobserve(this);
      if (this._stage >= 0) {
        call({ cmd: 'closeStage', id: this._stage });
        runtime.stages.delete(this._stage);
        this._stage = -1;
        this._started = false;
        this._loaded = false;
      }
    }

    attributeChangedCallback(name, previous, value) {
      if (previous === value) return;
      if (PAGE.includes(name)) this._applyPage(name);
      if (this._stage < 0) return;
      if (SOURCE.includes(name)) {
        this._open();
      } else if (OPTIONS.includes(name) && this._loaded) {
        this._applyOptions([name], false);
      }
    }

    // ---- the stage's life ----------------------------------------------------------------------
    _loading() {
      const value = (this.getAttribute('loading') || 'lazy').trim();
      return value === 'eager' ? 'eager' : 'lazy';
    }

    _near() {
      if (this._started || !this.isConnected) return;
      this._started = true;
      startModule().then(() => {
        if (!this.isConnected) return;
        const reply = call({ cmd: 'createStage' });
        if (!reply.ok) {
          this._fail(reply.error, null);
          this._rejectReady(new Error(reply.error));
          return;
        }
        this._stage = reply.stage;
        runtime.stages.set(this._stage, this);
        this._resized();
        this._open();
        wake();
      }, (error) => {
        const message = String(error && error.message || error);
        this._fail(message, null);
        this._rejectReady(error);
      });
    }

    // Opens what scene or src names; a value that names nothing is an error naming the attribute,
    // and the figure keeps what it shows.
    _open() {
      const made = this._openCommand();
      if (made.error) {
        this._fail(made.error, made.attribute);
        if (!this._loaded) this._rejectReady(new Error(made.error));
        return;
      }
      const reply = call(Object.assign(made.command, { stage: this._stage }));
      if (!reply.ok) {
        this._fail(reply.error, made.attribute);
        return;
      }
      this._opening = reply.opening;
      this._progressValue = 0;
      this._openedFrom = made.attribute;
      this._changed();
    }

    _openCommand() {
      for (const attribute of SOURCE) {
        const value = this.getAttribute(attribute);
        if (value !== null && value.length > MAX_VALUE) {
          return { error: `${attribute}: expected a value of at most ${MAX_VALUE} characters, found ${value.length}`, attribute };
        }
      }
      const src = (this.getAttribute('src') || '').trim();
      const scene = (this.getAttribute('scene') || '').trim();
      if (src) {
        const mesh = pageSource(src, 'src');
        if (mesh.error) return { error: mesh.error, attribute: 'src' };
        const lists = {};
        for (const attribute of ['anims', 'materials']) {
          lists[attribute] = [];
          for (const item of (this.getAttribute(attribute) || '').split(/[\s,]+/).filter(Boolean)) {
            const source = pageSource(item, attribute);
            if (source.error) return { error: source.error, attribute };
            lists[attribute].push(source.url);
          }
        }
        const { anims, materials } = lists;
        const packText = (this.getAttribute('mesh-pack') || '').trim();
        this._meshPack = null;
        if (packText) {
          const pack = pageSource(packText, 'mesh-pack');
          if (pack.error) return { error: pack.error, attribute: 'mesh-pack' };
          this._meshPack = { mesh: absoluteSource(mesh.url), pack: absoluteSource(pack.url) };
        }
        const command = { cmd: 'openModel', mesh: mesh.url, anims };
        if (materials.length) command.materials = materials;
        return { command, attribute: 'src' };
      }
      if (!scene) return { command: { cmd: 'openDemo', name: 'default' }, attribute: 'scene' };
      if (DEMO.test(scene)) return { command: { cmd: 'openDemo', name: scene }, attribute: 'scene' };
      const payload = linkPayload(scene);
      if (!payload || !PAYLOAD.test(payload)) {
        return { error: `scene: expected a demo name, a share link or its #scene= payload, found '${scene.slice(0, 64)}'`, attribute: 'scene' };
      }
      return { command: { cmd: 'openLink', payload }, attribute: 'scene' };
    }

    // The embed's URL options from the attributes `names` (all of them once a scene opened);
    // each problem C++ finds is an error event naming its attribute, and the rest still applies.
    _applyOptions(names, opening) {
      const fragment = new URLSearchParams();
      const add = (name) => {
        const value = this._attribute(name);
        if (value !== null) fragment.append(name, value);
        else if (!opening && name in REMOVED) fragment.append(name, REMOVED[name]);
      };
      for (const name of names) add(name);
      if (!names.includes('loop')) add('loop');  // the loop range is part of every options set
      // Reduced motion starts a figure paused unless autoplay says otherwise (as the embed does).
      const command = { cmd: 'embed', fragment: fragment.toString().replace(/=(?=&|$)/g, ''), apply_to_scene: true };
      if (opening && reducedMotion && reducedMotion.matches) command.reduced_motion = true;
      const reply = this._call(command);
      const problems = reply.ok ? reply.problems : [reply.error];
      for (const problem of problems) {
        const match = /^(?:embed: )?([a-z_-]+):/.exec(problem);
        const attribute = match && OPTIONS.includes(match[1]) ? match[1] : null;
        this._fail(problem, attribute);
      }
      if (names.includes('paused') && !this.hasAttribute('paused') && !opening) this.play();
      if (opening) this._setAnimation(this._attribute('animation'));
      this._changed();
    }

    _setAnimation(name) {
      if (!name) return;
      const state = this.state();
      const instances = state && Array.isArray(state.instances) ? state.instances : [];
      if (!instances.length) return;
      for (let i = 0; i < instances.length; ++i) {
        const reply = this._call({ cmd: 'setAnimation', instance: i, name });
        if (!reply.ok) {
          this._fail(`animation: ${reply.error}`, 'animation');
          return;
        }
      }
    }

    _onStageEvent(name, detail) {
      if (name === 'sceneOpened') {
        if (detail.id !== this._opening) return;
        this._opening = 0;
        if (!detail.ok) {
          this._fail(detail.error, this._openedFrom || 'scene');
          if (!this._loaded) this._rejectReady(new Error(detail.error));
          this._changed();
          return;
        }
        for (const warning of detail.warnings || []) console.warn(`md5-stage: ${warning}`);
        this._spotsSent = false;  // the hotspots name this scene's characters
        this._applyOptions(OPTIONS.filter((option) => option !== 'loop'), true);
        this._applyTool();
        this._bar.measure(this._call({ cmd: 'clock' }));
        if (!this._controls.element.hidden) this._controls.measure(this.state());
        const first = !this._loaded;
        this._loaded = true;
        this._applyPrompt();
        this.dispatchEvent(new CustomEvent('progress', { detail: { progress: 1 } }));
        this.dispatchEvent(new CustomEvent('load', { detail: { warnings: detail.warnings || [] } }));
        if (first) this._resolveReady(this);
      } else if (name === 'finished') {
        this.dispatchEvent(new CustomEvent('finished', { detail }));
      } else if (name === 'seeked') {
        this._changed();
      } else if (name === 'play' || name === 'pause') {
        this.dispatchEvent(new CustomEvent(name));
      } else if (name === 'cameraChange') {
        this.dispatchEvent(new CustomEvent('camera-change', { detail }));
      }
    }

    // Files are asked for in batches (the scene's, then images its models lack), each counted from
    // 0: the figure's progress only rises, from 0 at the opening to 1 when it ends.
    _progress(index, count, label) {
      const progress = Math.max(this._progressValue, count > 0 ? Math.min(1, index / count) : 0);
      this._progressValue = progress;
      this.dispatchEvent(new CustomEvent('progress', { detail: { progress, file: label } }));
    }

    _fail(message, attribute, type) {
      const text = String(message);
      const detail = { message: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}\u2026` : text };
      if (attribute) detail.attribute = attribute;
      if (type) detail.type = type;
      if (!type) console.warn(`md5-stage${attribute ? ` [${attribute}]` : ''}: ${detail.message}`);
      this.dispatchEvent(new CustomEvent('error', { detail }));
    }

    _command(command) {
      if (this._stage < 0) return;
      this._call(command);
      this._changed();
    }

    // Something changed the picture: it is drawn again next frame.
    _changed() {
      this._dirty = true;
      wake();
    }

    _clock() {
      if (this._stage < 0) return null;
      const clock = this._call({ cmd: 'clock' });
      return clock.ok ? clock : null;
    }

    // ---- drawing -----------------------------------------------------------------------------
    _setVisible(visible) {
      this._visible = visible;
      this._last = 0;  // the clock waited while hidden: it resumes where it was
      if (visible) this._changed();
    }

    // Its canvas at the device's pixels, and what it draws: that times the page's render scale
    // (no less than its min-render-scale), stretched over the canvas when copied.
    _resized() {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const width = Math.max(1, Math.min(MAX_SIDE, Math.round(this._canvas.clientWidth * ratio)));
      const height = Math.max(1, Math.min(MAX_SIDE, Math.round(this._canvas.clientHeight * ratio)));
      this._deviceRatio = ratio;
      if (width !== this._canvas.width || height !== this._canvas.height) {
        this._canvas.width = width;
        this._canvas.height = height;
        this._pixels = { width: 0, height: 0, ratio: 1 };  // the canvas was cleared: draw again
      }
      const scale = Math.max(runtime.renderScale, this._minScale);
      const drawn = { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)), ratio: ratio * scale };
      if (drawn.width === this._pixels.width && drawn.height === this._pixels.height && drawn.ratio === this._pixels.ratio) return;
      this._pixels = drawn;
      this._changed();
    }

    _due() {
      return this._stage >= 0 && (this._visible && (this._dirty || this._animating || this._opening !== 0 || !!this._tween) ||
                                  !!this._shot && this._loaded);
    }

    // Moves the stage on and prepares its picture for its slot of the shared canvas (drawn with
    // the frame's other figures by md5stage_figures_draw); true if it has one.
    _draw(now) {
      if (this._tween) this._stepCamera(now);
      const dt = this._last ? Math.min(0.1, (now - this._last) / 1000) : 0;
      this._last = now;
      const { width, height, ratio } = this._shot || this._pixels;
      const module = runtime.module;
      // Bit 1: drawn; 2: the picture changes with time alone; 4: it has texts (figures_main.cpp).
      const result = module._md5stage_figure_frame(this._stage, dt, this._slot.x, this._slot.y, width, height, ratio,
                                                   runtime.canvas.height);
      this._dirty = false;
      this._animating = (result & 2) !== 0;
      this._hasTexts = (result & 4) !== 0;
      return (result & 1) !== 0;
    }

    _keepsChanging() { return this._animating || this._opening !== 0 || !!this._tween; }

    // Copies its slot of the shared canvas into its own canvas (the same frame's drawing buffer).
    _copy() {
      const shot = this._shot;
      if (shot) {
        // toBlob's picture, in a canvas of its own; the figure draws at its size again next frame.
        this._shot = null;
        const canvas = Object.assign(document.createElement('canvas'), { width: shot.width, height: shot.height });
        const context = canvas.getContext('2d');
        context.drawImage(runtime.canvas, this._slot.x, this._slot.y, shot.width, shot.height, 0, 0, shot.width, shot.height);
        this._drawTexts(context, shot.ratio);
        canvas.toBlob(shot.resolve, shot.type);
        this._changed();
        return;
      }
      const { width, height } = this._pixels;
      const canvas = this._canvas;
      this._context2d.drawImage(runtime.canvas, this._slot.x, this._slot.y, width, height, 0, 0, canvas.width, canvas.height);
      this._drawTexts(this._context2d, this._pixels.ratio, canvas.width / width);
      ++this._frames;
      if (this._loaded && !this._drawn) {
        this._drawn = true;
        this._firstPictureAt = performance.now();
        this._poster.hidden = true;
      }
      if (!this._bar.element.hidden) this._bar.update();
      if (!this._controls.element.hidden) this._controls.update();
      return this._readSpots();
    }

    // ---- hotspots ------------------------------------------------------------------------------
    // The `locate` reply in CSS pixels: {x, y, inside, visible}, or null behind the camera.
    _locate(command) {
      const reply = this._call(command);
      if (!reply.ok) return reply;
      if (!reply.pixel) return null;
      const ratio = this._pixels.ratio || 1;
      const x = reply.pixel[0] / ratio, y = reply.pixel[1] / ratio;
      const inside = x >= 0 && y >= 0 && x <= this._canvas.clientWidth && y <= this._canvas.clientHeight;
      return { x, y, inside, visible: inside && reply.visible };
    }

    _findSpots() {
      const children = [...this.children].filter((child) => /^hotspot-/.test(child.slot));
      this._spots = children.map((child) => {
        const data = child.dataset;
        const made = spotCommand({ joint: data.joint, character: data.character, position: data.position,
                                   construction: data.construction, surface: data.surface, camera: data.camera });
        if (made.error) this._fail(made.error, made.attribute);
        if (!child.hasAttribute('tabindex')) child.tabIndex = 0;
        if (!child._md5stageSpot) {
          child._md5stageSpot = true;
          const activate = () => { if (child._md5stageCamera) this._moveCamera(child._md5stageCamera); };
          child.addEventListener('click', activate);
          child.addEventListener('keydown', (event) => { if (event.key === 'Enter' && child.localName !== 'button') activate(); });
        }
        child._md5stageCamera = made.camera;
        const frame = Object.assign(document.createElement('div'), { className: 'spot', hidden: true });
        frame.append(Object.assign(document.createElement('slot'), { name: child.slot }));
        // x, y: where its frame was written; next: where this frame placed it (_readSpots).
        return { child, frame, command: made.command, index: -1, x: NaN, y: NaN, shown: false, seen: null, move: mover(frame),
                 next: { x: NaN, y: NaN, leadX: NaN, leadY: NaN, shown: false, seen: false } };
      });
      this._spotLayer.replaceChildren(...this._spots.map((spot) => spot.frame));
      this._spotsSent = false;
      this._placed = null;
      this._changed();
    }

    // The hotspots go to the stage once (setHotspots), after the first frame of an opened scene
    // (a construction point names a label of the construction drawn); C++ places them every frame
    // after that, and _readSpots reads its numbers without a command.
    _sendSpots() {
      this._spotsSent = true;
      const sent = this._spots.filter((spot) => spot.command);
      sent.forEach((spot, index) => { spot.index = index; });
      const reply = this._call({ cmd: 'setHotspots', spots: sent.map(({ command }) => {
        const { cmd, ...fields } = command;
        return fields;
      }) });
      const problems = reply.ok ? reply.problems : sent.map(() => reply.error);
      problems.forEach((problem, index) => {
        if (!problem) return;
        const { command } = sent[index];
        sent[index].index = -1;
        this._fail(problem, command.joint ? 'data-joint' : command.point ? 'data-position' : command.surface ? 'data-surface' : 'data-construction');
      });
      if (sent.length) this._changed();  // placed from the next frame
    }

    // Where this frame placed each hotspot (reads only: the frame's moves are written by
    // _moveSpots after every figure's copy). True when one of them must move this frame: shown
    // or hidden, or a slack's distance (SPOT_SLACK) off its point.
    _readSpots() {
      this._spotsRead = false;
      if (!this._loaded) return false;  // what a hotspot names is the opened scene's
      if (!this._spotsSent) {
        this._sendSpots();  // (none, when the last were removed: the stage stops placing them)
        return false;
      }
      if (!this._spots.length) return false;
      const started = performance.now();
      const module = runtime.module;
      const pointer = module._md5stage_figure_hotspots(this._stage);
      const buffer = module.HEAPU8.buffer;  // memory growth replaces it
      if (!this._placed || this._placed.buffer !== buffer || this._placed.byteOffset !== pointer) {
        this._placed = pointer ? new Float32Array(buffer, pointer, 3 * this._spots.length) : null;
      }
      const placed = this._placed;
      // The figure's CSS size as last measured (_resized): reading clientWidth here would lay
      // out the page again after the previous figure's hotspots moved.
      const { width: pixelWidth, height: pixelHeight, ratio = 1 } = this._pixels;
      const width = pixelWidth / ratio, height = pixelHeight / ratio;
      let due = false;
      for (const spot of this._spots) {
        const next = spot.next;
        let shown = false, seen = false, x = spot.x, y = spot.y;
        if (placed && spot.index >= 0) {
          const at = 3 * spot.index;
          const flags = placed[at + 2];
          x = placed[at] / ratio;
          y = placed[at + 1] / ratio;
          shown = (flags & 1) !== 0 && x >= 0 && y >= 0 && x <= width && y <= height;
          seen = shown && (flags & 2) !== 0;
        }
        // Its motion since the last frame, and where it is written when it moves (SPOT_LEAD).
        const vx = shown && next.shown ? x - next.x : 0, vy = shown && next.shown ? y - next.y : 0;
        const speed = Math.sqrt(vx * vx + vy * vy);
        const lead = speed > 1e-3 ? Math.min(SPOT_LEAD * SPOT_SLACK, SPOT_LEAD_FRAMES * speed) / speed : 0;
        next.x = x;
        next.y = y;
        next.leadX = x + vx * lead;
        next.leadY = y + vy * lead;
        next.shown = shown;
        next.seen = seen;
        const dx = x - spot.x, dy = y - spot.y;
        due = due || shown !== spot.shown || shown && dx * dx + dy * dy >= SPOT_SLACK * SPOT_SLACK;
      }
      this._spotsRead = true;
      runtime.spots += performance.now() - started;
      return due;
    }

    // Writes what _readSpots read: data-visible when it changed, and, in a frame where the page's
    // hotspots move (`moving`), the transform of each that moved by a quarter pixel; a figure's
    // last frame before it stops changing leaves none of its hotspots off its point.
    _moveSpots(moving) {
      if (!this._spotsRead) return;
      this._spotsRead = false;
      const stopping = !this._keepsChanging();
      for (const spot of this._spots) {
        const { shown, seen } = spot.next;
        // In quarters of a CSS pixel: one that moved less is not written again.
        const x = Math.round((stopping ? spot.next.x : spot.next.leadX) * 4) / 4;
        const y = Math.round((stopping ? spot.next.y : spot.next.leadY) * 4) / 4;
        if (shown && (moving || stopping || !spot.shown) && (x !== spot.x || y !== spot.y)) {
          spot.x = x;
          spot.y = y;
          spot.move(x, y);
          ++runtime.moves;
        }
        if (shown !== spot.shown) {
          spot.shown = shown;
          spot.frame.hidden = !shown;
        }
        if (seen !== spot.seen) {
          spot.seen = seen;
          spot.child.dataset.visible = String(seen);
        }
      }
    }

    // data-camera on an activated hotspot: the camera turns there over half a second.
    _moveCamera([yaw, pitch, distance]) {
      const state = this.state();
      if (!state || !state.camera) return;
      const from = state.camera;
      const turn = ((yaw - from.yaw) % 360 + 540) % 360 - 180;
      this._tween = { start: 0, from, to: { yaw: from.yaw + turn, pitch, distance } };
      this._changed();
    }

    _stepCamera(now) {
      const tween = this._tween;
      tween.start = tween.start || now;
      const t = Math.min(1, (now - tween.start) / 500);
      const k = t * t * (3 - 2 * t);
      const mix = (name) => tween.from[name] + (tween.to[name] - tween.from[name]) * k;
      this._call({ cmd: 'camera', yaw: mix('yaw'), pitch: mix('pitch'), distance: mix('distance') });
      if (t >= 1) this._tween = null;
    }

    // The frame's texts (the construction view's labels, joint names): the module has no font, so
    // they come as JSON in figure pixels and are drawn here, outlined to read on any background.
    // `zoom`: the canvas's pixels per drawn pixel (below full render scale).
    _drawTexts(context, ratio, zoom = 1) {
      if (!this._hasTexts) return;
      const json = runtime.module.UTF8ToString(runtime.module._md5stage_figure_texts(this._stage));
      if (!json || json === '[]') return;
      context.save();
      if (zoom !== 1) context.scale(zoom, zoom);
      context.font = `${Math.round(12 * ratio)}px system-ui, sans-serif`;
      context.textBaseline = 'middle';
      context.lineWidth = 3 * ratio;
      context.strokeStyle = 'rgba(0, 0, 0, 0.75)';
      for (const { x, y, text, color } of JSON.parse(json)) {
        const [r, g, b, a] = color;
        context.fillStyle = `rgba(${r}, ${g}, ${b}, ${a / 255})`;
        context.strokeText(text, x + 4 * ratio, y);
        context.fillText(text, x + 4 * ratio, y);
      }
      context.restore();
    }

    // ---- page attributes -----------------------------------------------------------------------
    _applyPage(name) {
      if (!name || name === 'alt') this._applyAlt();
      if (!name || name === 'poster') this._applyPoster();
      if (!name || name === 'ui') {
        const ui = (this._attribute('ui') || 'none').trim();
        if (ui !== 'none' && ui !== 'timeline' && ui !== 'controls') this._fail(`ui: expected none, timeline or controls, found '${ui.slice(0, 40)}'`, 'ui');
        this._bar.element.hidden = ui !== 'timeline';
        const controls = ui === 'controls';
        if (controls && this._controls.element.hidden && this._loaded) this._controls.measure(this.state());
        this._controls.element.hidden = !controls;
      }
      if (!name || name === 'loading') {
        const loading = (this._attribute('loading') || 'lazy').trim();
        if (loading !== 'lazy' && loading !== 'eager') this._fail(`loading: expected lazy or eager, found '${loading.slice(0, 40)}'`, 'loading');
        else if (name && loading === 'eager' && this.isConnected) this._near();
      }
      // camera-controls is a boolean attribute, on whatever its value as HTML's are: only its
      // length is checked.
      if (name === 'camera-controls') this._attribute(name);
      if (!name || name === 'camera-controls' || name === 'interaction-prompt') this._applyPrompt();
      if (!name || name === 'min-render-scale') this._applyMinScale();
      if (name === 'animation' && this._loaded) this._setAnimation(this._attribute('animation'));
      if (name === 'tool' && this._loaded) this._applyTool();
    }

    // interaction-prompt (model-viewer's): with camera-controls, "auto" shows a hint over an
    // opened figure until the reader first acts on it; "none" never does.
    _applyPrompt() {
      const prompt = (this._attribute('interaction-prompt') || 'auto').trim();
      if (prompt !== 'auto' && prompt !== 'none') {
        this._fail(`interaction-prompt: expected auto or none, found '${prompt.slice(0, 40)}'`, 'interaction-prompt');
      }
      this._prompt.hidden = !(prompt === 'auto' && this.hasAttribute('camera-controls') && this._loaded && !this._interacted);
    }

    // min-render-scale (model-viewer's minimumRenderScale, per figure): the lowest scale dynamic
    // resolution may draw it at, from 0.25 to 1 (default 0.5).
    _applyMinScale() {
      const text = this._attribute('min-render-scale');
      let minimum = 0.5;
      if (text !== null) {
        const value = text.trim() === '' ? NaN : Number(text);
        if (Number.isFinite(value) && value >= 0.25 && value <= 1) minimum = value;
        else this._fail(`min-render-scale: expected a number from 0.25 to 1, found '${text.slice(0, 40)}'`, 'min-render-scale');
      }
      if (minimum === this._minScale) return;
      this._minScale = minimum;
      runtime.minimumsChanged = true;
      if (this._stage >= 0) this._resized();
    }

    _noteInteraction() {
      if (this._interacted) return;
      this._interacted = true;
      this._prompt.hidden = true;
    }

    // alt is the figure's aria-label, as plain text: markup in it is read out as written, and
    // reported, since an author who wrote it expected it to mean something.
    _applyAlt() {
      const alt = this._attribute('alt');
      if (!alt) {
        this.removeAttribute('aria-label');
        return;
      }
      if (alt.length > MAX_ALT) this._fail(`alt: expected a text of at most ${MAX_ALT} characters, found ${alt.length}`, 'alt');
      if (MARKUP.test(alt)) this._fail(`alt: plain text, read out as written; found markup '${MARKUP.exec(alt)[0]}' in '${alt.slice(0, 80)}'`, 'alt');
      this.setAttribute('aria-label', alt.slice(0, MAX_ALT));
    }

    // The poster shows until the figure draws; only an http(s) URL is loaded.
    _applyPoster() {
      const poster = this._attribute('poster');
      const source = poster ? posterUrl(poster) : null;
      if (source && source.error) this._fail(source.error, 'poster');
      if (source && source.url && !this._drawn) {
        this._poster.src = source.url;
        this._poster.hidden = false;
      } else if (!source || source.error) {
        this._poster.hidden = true;
        this._poster.removeAttribute('src');
      }
    }

    // tool="goto": a left click on the ground sends the selected (or first) character there, a drag
    // gives it a final heading (the right button pans): with construction="1" the reader
    // moves the destination and watches the construction follow. The default is camera.
    _applyTool() {
      const tool = (this._attribute('tool') || 'camera').trim();
      if (tool !== 'camera' && tool !== 'goto') {
        this._fail(`tool: expected camera or goto, found '${tool.slice(0, 40)}'`, 'tool');
        return;
      }
      this._call({ cmd: 'tool', tool });
      this._changed();
    }

    // ---- input: keys while focused; pointer and wheel with camera-controls ---------------------
    _bindInput() {
      for (const type of ['pointerdown', 'wheel', 'keydown']) this.addEventListener(type, () => this._noteInteraction(), { passive: true });
      this.addEventListener('keydown', (event) => {
        if (this._stage < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
        // A key on a control of a bar is that control's (Space on its button is not the figure's).
        if (event.composedPath()[0] !== this) return;
        // The key table is C++'s, the viewer's too (src/viewer/key_bindings.h): the figure's
        // stage says whether it takes the key (Space plays or pauses the scene there as in the
        // viewer; arrows and +/- repeat while held).
        const taken = withHeap(runtime.module, [event.key],
          (name) => runtime.module._md5stage_figure_key(this._stage, name, event.repeat ? 1 : 0), () => 0);
        if (!taken) return;
        event.preventDefault();  // Space and the arrows would scroll the page
        this._changed();
      });
      const controls = () => (this.hasAttribute('camera-controls') || this.getAttribute('tool') === 'goto') && this._stage >= 0;
      const at = (event) => {
        const box = this._canvas.getBoundingClientRect();
        const ratio = this._pixels.ratio;
        return [(event.clientX - box.left) * ratio, (event.clientY - box.top) * ratio];
      };
      const buttonOf = (event) => (event.button === 2 ? 1 : event.button === 1 ? 2 : 0);
      this._canvas.addEventListener('pointerdown', (event) => {
        if (!controls()) return;
        this._canvas.setPointerCapture(event.pointerId);
        const [x, y] = at(event);
        runtime.module._md5stage_figure_pointer(this._stage, 1, x, y, buttonOf(event), event.shiftKey ? 1 : 0);
        this._changed();
      });
      this._canvas.addEventListener('pointermove', (event) => {
        if (!controls()) return;
        const [x, y] = at(event);
        runtime.module._md5stage_figure_pointer(this._stage, 0, x, y, 0, event.shiftKey ? 1 : 0);
        if (event.buttons) this._changed();
      });
      const release = (event) => {
        if (!controls()) return;
        const [x, y] = at(event);
        runtime.module._md5stage_figure_pointer(this._stage, 2, x, y, buttonOf(event), event.shiftKey ? 1 : 0);
        this._changed();
      };
      this._canvas.addEventListener('pointerup', release);
      this._canvas.addEventListener('pointercancel', release);
      this._canvas.addEventListener('contextmenu', (event) => { if (controls()) event.preventDefault(); });
      this._canvas.addEventListener('wheel', (event) => {
        if (!controls()) return;
        event.preventDefault();
        const lines = event.deltaMode === 1 ? event.deltaY : event.deltaY / 100;
        runtime.module._md5stage_figure_wheel(this._stage, -lines);
        this._changed();
      }, { passive: false });
    }
  }

  window.customElements.define('md5-stage', Md5Stage);
  // For tests and tools: the page's one module (null until a figure started it).
  window.md5stageFigures = {
    get module() { return runtime.module; },
    get canvas() { return runtime.canvas; },
    get lastFrame() { return runtime.lastFrame; },
    get renderScale() { return runtime.renderScale; },
    // A frame's time as if the page had taken it (tests drive dynamic resolution with it).
    observeFrameTime: (ms) => observeFrameTime(Number(ms)),
    call: (command) => call(command),
  };
})();
