// md5stage's page runtime: what the viewer page (main.js), the iframe embed (embed.js) and the
// <md5-stage> element (md5stage-element.js) each need around a module, written once: commands
// and their replies through the wasm heap, a stage's fetch answered, the share-link payload cut
// out of a link, and the scene timeline bar. build_wasm.sh (bundle_script) puts this file in front
// of each of those scripts, in one function scope, so a page still loads one script and nothing
// here is a global; each script takes what it uses from `md5stageRuntime`. Like them, it decides
// nothing: C++ reads and checks every value.
'use strict';

const md5stageRuntime = (() => {
  const encoder = new TextEncoder();

  // Copies each value into its own malloc'd buffer (a string as UTF-8 with its NUL, bytes as they
  // are; no bytes: pointer 0), calls use(...pointers) and frees them; noRoom(size) answers
  // instead when the heap cannot grow. Never ccall's 'string' argument: that copies onto the wasm
  // stack, which a scene of a few megabytes overflows, aborting the module and every stage in it.
  function withHeap(module, values, use, noRoom) {
    const pointers = [];
    try {
      for (const value of values) {
        const bytes = typeof value === 'string' ? encoder.encode(`${value}\0`) : value;
        const pointer = bytes.length ? module._malloc(bytes.length) : 0;
        if (bytes.length && !pointer) return noRoom(bytes.length);
        pointers.push(pointer);
        if (pointer) module.HEAPU8.set(bytes, pointer);  // HEAPU8 after malloc: growing replaces it
      }
      return use(...pointers);
    } finally {
      for (const pointer of pointers) if (pointer) module._free(pointer);
    }
  }

  // {cmd, ...} -> the module's JSON reply, parsed. The reply is read from C++'s own buffer, which
  // the next command reuses.
  function callModule(module, command) {
    return withHeap(module, [JSON.stringify(command)],
                    (pointer) => JSON.parse(module.UTF8ToString(module._md5stage_call(pointer))),
                    (size) => ({ ok: false, error: `not enough memory for a command of ${size} bytes` }));
  }

  // File contents (a Uint8Array, another view, an ArrayBuffer or text) as a Uint8Array, not copied.
  function asBytes(value) {
    if (typeof value === 'string') return encoder.encode(value);
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }

  // Answers a stage's fetch (Module.md5stageFetch: the host fetches, C++ decides): once `bytes`,
  // a promise of the file's contents, settles, its bytes or why it failed go to md5stage_fetched,
  // unless wanted() says the asker has gone meanwhile. Resolves when that is done.
  function answerFetch(module, stage, request, bytes, wanted) {
    const fetched = (ok, data, error) => withHeap(
      module, [data, error], (pointer, text) => module._md5stage_fetched(stage, request, ok, pointer, data.length, text),
      // No room for the bytes: C++ hears that, with the size; with no room even for that, no reason.
      (size) => (ok ? fetched(0, new Uint8Array(0), `not enough memory to load ${size} bytes`)
                    : module._md5stage_fetched(stage, request, 0, 0, 0, 0)));
    return Promise.resolve(bytes).then(
      (contents) => { if (wanted()) fetched(1, asBytes(contents), ''); },
      (error) => { if (wanted()) fetched(0, new Uint8Array(0), String((error && error.message) || error)); });
  }

  // The payload of a share link: from a whole link (...#scene=PAYLOAD&...), from "scene=PAYLOAD",
  // or the text itself when it names no scene= field. Checking it is C++'s (or the caller's).
  function linkPayload(text) {
    const found = /(?:^|[#&])scene=([^&]*)/.exec(text);
    return found ? found[1] : text;
  }

  // The scene timeline of the embed's overlay and of a figure with ui="timeline": a play/pause
  // button, a slider and a clock. call(command) reaches the stage it shows; changed() is told
  // after the bar moved that stage's clock (a figure then draws again).
  class TimelineBar {
    constructor(call, changed = () => {}) {
      this.call = call;
      this.changed = changed;
      this.end = 30;
      this.dragging = false;
      this.element = document.createElement('div');
      this.button = document.createElement('button');
      this.button.type = 'button';
      this.range = document.createElement('input');
      Object.assign(this.range, { type: 'range', min: '0', max: '30', step: '0.01', value: '0' });
      this.range.setAttribute('aria-label', 'Scene time');
      this.clock = document.createElement('span');
      this.clock.textContent = '0.0 s';
      this.element.append(this.button, this.range, this.clock);
      this.showPlaying(false);
      this.button.addEventListener('click', () => {
        const clock = this.call({ cmd: 'clock' });
        this.act({ cmd: clock.scene_playing ? 'pauseScene' : 'playScene' });
        this.update();
      });
      // While the slider is held, C++ does not jump back at the loop's end (the slider's end).
      this.range.addEventListener('pointerdown', () => this.setDragging(true));
      for (const type of ['pointerup', 'pointercancel', 'change']) {
        this.range.addEventListener(type, () => this.setDragging(false));
      }
      this.range.addEventListener('input', () => this.act({ cmd: 'setSceneTime', time: Number(this.range.value) }));
    }

    act(command) {
      this.call(command);
      this.changed();
    }

    setDragging(dragging) {
      if (this.dragging === dragging) return;
      this.dragging = dragging;
      this.act({ cmd: 'embedScrub', active: dragging });
    }

    // Where the slider ends for the scene now open (a `clock` reply): the loop's end, else the
    // scene's end when it has one and does not repeat (at least 1 s), else at least 30 s.
    measure(clock) {
      if (!clock.ok) return;
      const range = clock.loop_range;
      this.end = range ? range.end
        : clock.scene_end !== null && !clock.scene_repeats ? Math.max(clock.scene_end, 1) : Math.max(30, clock.scene_end || 0);
      this.range.max = String(this.end);
    }

    // The scene time on the slider (which grows past its end when the time does) and the clock.
    showTime(time) {
      if (time > this.end) this.end = time;
      if (String(this.end) !== this.range.max) this.range.max = String(this.end);
      if (!this.dragging) this.range.value = String(time);
      this.clock.textContent = `${time.toFixed(1)} s`;
    }

    showPlaying(playing) {
      const label = playing ? 'Pause' : 'Play';
      if (this.button.getAttribute('aria-label') === label) return;
      this.button.setAttribute('aria-label', label);
      this.button.textContent = playing ? '\u275a\u275a' : '\u25b6';
    }

    // Shows the stage's clock (one `clock` command: a few fields, not the state).
    update() {
      const clock = this.call({ cmd: 'clock' });
      if (!clock.ok) return;
      this.showTime(clock.scene_time);
      this.showPlaying(clock.scene_playing);
    }
  }

  // One function per public command of the table md5stage_api_types writes from C++'s command
  // table (and one per alias): positional ones take the declared arguments in order, "fields"
  // ones one object of them; an argument left out (undefined) is left out of the command, so C++
  // applies its own default or names the missing field. send(command) answers.
  function commandFunctions(table, send) {
    const functions = {};
    const make = ([name, args, style]) => (style === 'fields'
      ? (fields) => send(Object.assign({}, fields, { cmd: name }))
      : (...values) => {
        const command = { cmd: name };
        args.forEach((arg, i) => { if (values[i] !== undefined) command[arg] = values[i]; });
        return send(command);
      });
    const byName = new Map(table.commands.map((entry) => [entry[0], entry]));
    for (const entry of table.commands) if (entry[3]) functions[entry[0]] = make(entry);
    for (const [alias, name] of table.aliases) functions[alias] = make(byName.get(name));
    return functions;
  }

  return Object.freeze({ withHeap, callModule, asBytes, answerFetch, linkPayload, TimelineBar,
                         commandFunctions });
})();
