// md5stage page glue: checks WebGL2, loads the wasm module, moves dropped/picked/fetched files
// into the wasm heap and exposes window.md5stage. Decisions (parsing, validation, binding) are
// made in C++; this file only moves bytes and events.
'use strict';

(function () {
  const MAX_FILE_BYTES = 256 * 1024 * 1024;
  const messageBox = document.getElementById('message');
  const progressBox = document.getElementById('progress');

  function showMessage(text) {
    messageBox.textContent = text;  // textContent: never interpreted as HTML
    messageBox.hidden = false;
  }
  function showProgress(text) {
    progressBox.textContent = text;
    progressBox.hidden = !text;
  }

  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  ready.catch(() => {});  // a failed start is shown on the page; callers may still await it

  function fail(text) {
    showMessage(text);
    rejectReady(new Error(text));
  }

  let started = false;
  let startError = null;

  function call(command) {
    if (!started) return { ok: false, error: startError || 'not started' };
    const reply = Module.ccall('md5stage_call', 'string', ['string'], [JSON.stringify(command)]);
    return JSON.parse(reply);
  }

  function readFile(file, index, count) {
    return new Promise((resolve) => {
      const reader = new FileReader();
      reader.onprogress = (event) => {
        if (event.lengthComputable) {
          showProgress(`Reading ${file.name} (${index + 1}/${count}): ${Math.round(100 * event.loaded / event.total)}%`);
        }
      };
      reader.onload = () => resolve(new Uint8Array(reader.result));
      reader.onerror = () => resolve(null);
      reader.readAsArrayBuffer(file);
    });
  }

  // files: File objects or {name, bytes (Uint8Array | ArrayBuffer | string), source}.
  async function loadFiles(files, defaultSource = 'local') {
    await ready;
    const list = Array.from(files || []);
    const errors = [];
    let queued = 0;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      const name = item.name || `file${i}`;
      if (typeof item.size === 'number' && item.size > MAX_FILE_BYTES) {
        errors.push(`${name}: error: file of ${item.size} bytes is larger than the ${MAX_FILE_BYTES} byte limit`);
        continue;
      }
      let bytes;
      if (typeof File !== 'undefined' && item instanceof File) {
        bytes = await readFile(item, i, list.length);
      } else if (typeof item.bytes === 'string') {
        bytes = new TextEncoder().encode(item.bytes);
      } else if (item.bytes instanceof ArrayBuffer) {
        bytes = new Uint8Array(item.bytes);
      } else if (item.bytes && item.bytes.buffer instanceof ArrayBuffer) {
        bytes = new Uint8Array(item.bytes.buffer, item.bytes.byteOffset, item.bytes.byteLength);
      }
      if (!bytes) {
        errors.push(`${name}: error: could not be read`);
        continue;
      }
      if (bytes.length > MAX_FILE_BYTES) {
        errors.push(`${name}: error: file of ${bytes.length} bytes is larger than the ${MAX_FILE_BYTES} byte limit`);
        continue;
      }
      const pointer = bytes.length ? Module._malloc(bytes.length) : 0;
      if (bytes.length && !pointer) {
        errors.push(`${name}: error: not enough memory to load ${bytes.length} bytes`);
        continue;
      }
      if (pointer) Module.HEAPU8.set(bytes, pointer);
      Module.ccall('md5stage_queue_file', null, ['string', 'string', 'number', 'number'],
                   [name, item.source || defaultSource, pointer, bytes.length]);
      if (pointer) Module._free(pointer);
      queued++;
    }
    showProgress('');
    const reply = queued ? call({ cmd: 'loadQueued' }) : { ok: errors.length === 0, errors: [], warnings: [], models: [] };
    reply.errors = errors.concat(reply.errors || []);
    reply.ok = reply.errors.length === 0;
    if (errors.length) call({ cmd: 'reportError', message: errors.join('\n') });
    return reply;
  }

  // Drag and drop: files or whole folders.
  async function entriesToFiles(entry, out) {
    if (entry.isFile) {
      await new Promise((resolve) => entry.file((file) => { out.push(file); resolve(); }, resolve));
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((resolve) => reader.readEntries(resolve, () => resolve([])));
        if (!batch.length) break;
        for (const child of batch) await entriesToFiles(child, out);
      }
    }
  }

  window.addEventListener('dragover', (event) => { event.preventDefault(); });
  window.addEventListener('drop', async (event) => {
    event.preventDefault();
    const items = event.dataTransfer && event.dataTransfer.items;
    const files = [];
    if (items && items.length && items[0].webkitGetAsEntry) {
      const entries = Array.from(items).map((item) => item.webkitGetAsEntry()).filter(Boolean);
      for (const entry of entries) await entriesToFiles(entry, files);
    } else if (event.dataTransfer) {
      files.push(...event.dataTransfer.files);
    }
    if (files.length) loadFiles(files);
  });

  const picker = document.getElementById('file-picker');
  picker.addEventListener('change', () => {
    loadFiles(picker.files);
    picker.value = '';
  });

  // A scene (object or JSON text): C++ validates it and says which files to fetch; they are
  // fetched and loaded; then C++ replaces the current scene. Any failure leaves the scene as it was.
  async function loadScene(scene) {
    await ready;
    let object = scene;
    if (typeof scene === 'string') {
      try {
        object = JSON.parse(scene);
      } catch (error) {
        const message = `scene: error: not JSON: ${error.message}`;
        call({ cmd: 'reportError', message });
        return { ok: false, error: message };
      }
    }
    const prepared = call({ cmd: 'prepareScene', scene: object });
    if (!prepared.ok) {
      call({ cmd: 'reportError', message: prepared.error });
      return prepared;
    }
    const files = [];
    for (let i = 0; i < prepared.files.length; i++) {
      const file = prepared.files[i];
      showProgress(`Fetching ${file.source} (${i + 1}/${prepared.files.length})`);
      try {
        const response = await fetch(file.url, { mode: 'cors', credentials: 'omit' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        files.push({ name: file.source.split('/').pop().split('?')[0], bytes: new Uint8Array(await response.arrayBuffer()), source: file.source });
      } catch (error) {
        showProgress('');
        const message = `${file.source}: error: could not be fetched (${error.message})`;
        call({ cmd: 'reportError', message });
        return { ok: false, error: message };
      }
    }
    showProgress('');
    if (files.length) {
      const loaded = await loadFiles(files);
      if (!loaded.ok) return { ok: false, error: loaded.errors.join('\n') };
    }
    return call({ cmd: 'applyScene' });
  }

  async function loadDemo(name) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      const message = `demo: error: '${String(name).slice(0, 64)}' is not a demo name`;
      call({ cmd: 'reportError', message });
      return { ok: false, error: message };
    }
    try {
      const response = await fetch(`assets/scenes/${name}.json`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return loadScene(await response.text());
    } catch (error) {
      const message = `demo '${name}': error: could not be fetched (${error.message})`;
      call({ cmd: 'reportError', message });
      return { ok: false, error: message };
    }
  }

  function shareLink() {
    const reply = call({ cmd: 'shareLink' });
    if (!reply.ok) return reply;
    const url = new URL(window.location.href);
    url.hash = 'scene=' + reply.payload;
    url.search = '';
    return Object.assign(reply, { url: url.toString() });
  }

  // The URL fragment picks what opens: #scene=PAYLOAD, #demo=NAME, or the default demo.
  async function openFromLocation() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const query = new URLSearchParams(window.location.search);
    if (params.has('scene')) {
      const decoded = call({ cmd: 'decodeLink', payload: params.get('scene') });
      if (decoded.ok) return loadScene(decoded.scene);
      await loadDemo('default');  // a broken link leaves the default scene running, with the message
      call({ cmd: 'reportError', message: decoded.error });
      return decoded;
    }
    if (params.has('demo')) return loadDemo(params.get('demo'));
    if (query.get('scene') === 'none') return { ok: true };
    return loadDemo('default');
  }

  const api = {
    ready,
    state: () => (started ? call({ cmd: 'state' }) : { webgl: null, frame: 0, error: startError }),
    call,
    loadFiles,
    openFilePicker: () => picker.click(),
    setAnimation: (instance, name, crossfade) =>
      call(Object.assign({ cmd: 'setAnimation', instance, name }, crossfade === undefined ? {} : { crossfade })),
    setTime: (instance, time) => call({ cmd: 'setTime', instance, time }),
    play: (instance) => call({ cmd: 'play', instance }),
    pause: (instance) => call({ cmd: 'pause', instance }),
    setRate: (instance, rate) => call({ cmd: 'setRate', instance, rate }),
    setMode: (instance, mode) => call({ cmd: 'setMode', instance, mode }),
    select: (instance, joint) => call(Object.assign({ cmd: 'select', instance }, joint ? { joint } : {})),
    attach: (instance, model, joint, offset, rotation) =>
      call({ cmd: 'attach', instance, model, joint, offset: offset || [0, 0, 0], rotation: rotation || [0, 0, 0] }),
    jointWorld: (instance, joint) => call({ cmd: 'jointWorld', instance, joint }),
    display: (toggles) => call(Object.assign({ cmd: 'display' }, toggles)),
    camera: (camera) => call(Object.assign({ cmd: 'camera' }, camera)),
    sceneJSON: () => call({ cmd: 'sceneJson' }),
    loadScene,
    loadDemo,
    shareLink: () => shareLink().url,
    shareInfo: shareLink,
    setRoute: (index, route) =>
      call({ cmd: 'setRoute', index, route: Array.isArray(route) ? { segments: route } : route }),
    getRoutes: () => call({ cmd: 'getRoutes' }),
    assignRoute: (instance, route, mode) => call({ cmd: 'assignRoute', instance, route, mode: mode || 'loop' }),
    goTo: (instance, x, y, heading) =>
      call(Object.assign({ cmd: 'goTo', instance, x, y }, heading === undefined ? {} : { heading })),
    setSpeed: (instance, speed) => call({ cmd: 'setSpeed', instance, speed }),
    setTurnRadius: (instance, radius) => call({ cmd: 'setTurnRadius', instance, radius }),
    setSceneTime: (time) => call({ cmd: 'setSceneTime', time }),
    playScene: () => call({ cmd: 'playScene' }),
    pauseScene: () => call({ cmd: 'pauseScene' }),
    opened: null,  // a promise: the scene the page opened with (from the URL)
    // Buttons in the C++ UI that need the page: clipboard and demo gallery.
    pageAction(action) {
      if (action.startsWith('demo:')) {
        loadDemo(action.slice(5));
      } else if (action === 'copyLink') {
        const info = shareLink();
        if (info.ok && navigator.clipboard) navigator.clipboard.writeText(info.url).catch(() => {});
      }
    },
  };
  window.md5stage = api;

  const probe = document.createElement('canvas').getContext('webgl2');
  if (!probe) {
    startError = 'webgl2 unavailable';
    fail('md5stage needs WebGL 2, which this browser does not provide.\n' +
         'Try a current Chrome, Firefox or Safari, or enable hardware acceleration.');
    return;
  }

  window.Module = {
    canvas: document.getElementById('canvas'),
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    md5stageFrameRendered(frame) {
      if (frame === 1) {
        started = true;
        api.opened = openFromLocation();
        resolveReady();
      }
    },
    md5stageFatal(text) {
      startError = text;
      fail('md5stage could not start: ' + text);
    },
    onAbort(what) {
      startError = String(what);
      started = false;
      fail('md5stage stopped: the WebAssembly module failed to load or run.\n' + String(what));
    },
  };

  const script = document.createElement('script');
  script.src = 'md5stage.js';
  script.onerror = () => fail('md5stage could not load md5stage.js. Is the site fully deployed?');
  document.body.appendChild(script);
})();
