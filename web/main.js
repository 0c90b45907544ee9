// md5stage page glue: checks WebGL2, loads the wasm module, moves dropped/picked/fetched files
// into the wasm heap and exposes window.md5stage. Decisions (parsing, validation, binding) are
// made in C++; this file only moves bytes and events. It also serves embeds (embed.html, or
// index.html?embed): <script src="main.js" data-mode="embed"> hides the C++ panels, and
// embed.js adds the overlay and the postMessage protocol on top of window.md5stage.
//
// Start-up: the module draws its first frame (md5stage:started), then the opening scene (the
// link's, else the default demo; a broken link falls back to the default demo) is fetched and
// applied (md5stage:loaded, or md5stage:error when it fails), and only then does `ready` resolve.
// So a script that awaits `ready` works on the opening scene, never under it. `ready` rejects only
// when the module cannot start (or stops before the opening is done). `opened` is the promise of
// the opening's result {ok, error}. Scripts' loads (loadFiles, loadScene, loadDemo, ...) wait for
// `ready` the same way.
//
// Events for the embed and other listeners, dispatched on window:
//   md5stage:started {}                              the module runs (its first frame)
//   md5stage:loaded {from: 'url' | 'api', result}   a scene opened
//   md5stage:error  {message}                        something the page reports (also in the UI)
//   md5stage:NAME   {...}                            pushed by C++ (Module.md5stageEvent), e.g.
//                   finished {time}, seeked {time, reason: 'loop'} (embed timeline)
// Nothing from a URL or a scene is ever evaluated or inserted as HTML: text goes to textContent
// and input values only.
'use strict';

(function () {
  const { withHeap, callModule, asBytes, answerFetch, commandFunctions } = md5stageRuntime;
  const MAX_FILE_BYTES = 256 * 1024 * 1024;
  const DEMO_NAME = /^[A-Za-z0-9_-]{1,64}$/;
  const thisScript = document.currentScript;
  const query = new URLSearchParams(window.location.search);
  const embedMode = (thisScript && thisScript.dataset.mode === 'embed') || query.has('embed');
  const messageBox = document.getElementById('message');
  const progressBox = document.getElementById('progress');

  function showMessage(text) {
    messageBox.textContent = text;  // textContent: never interpreted as HTML
    messageBox.hidden = false;
  }
  function showProgress(text) {
    if (!progressBox) return;
    progressBox.textContent = text;
    progressBox.hidden = !text;
  }

  // A small notice over the canvas (errors from URLs, "link copied"): the scene keeps running
  // under it. An optional read-only field holds text to copy by hand when the clipboard refuses.
  let noticeTimer = 0;
  function notice(text, { kind = 'info', copyText = null, seconds = 0 } = {}) {
    let box = document.getElementById('notice');
    if (!box) {
      box = document.createElement('div');
      box.id = 'notice';
      box.setAttribute('role', 'status');
      const label = document.createElement('span');
      label.className = 'notice-text';
      const field = document.createElement('input');
      field.className = 'notice-copy';
      field.readOnly = true;
      field.setAttribute('aria-label', 'text to copy');
      const close = document.createElement('button');
      close.className = 'notice-close';
      close.type = 'button';
      close.textContent = '\u00d7';
      close.setAttribute('aria-label', 'close');
      close.addEventListener('click', () => { box.hidden = true; });
      box.append(label, field, close);
      document.body.appendChild(box);
    }
    clearTimeout(noticeTimer);
    box.dataset.kind = kind;
    box.querySelector('.notice-text').textContent = text;
    const field = box.querySelector('.notice-copy');
    field.hidden = copyText === null;
    field.value = copyText === null ? '' : copyText;
    box.hidden = false;
    if (copyText !== null) field.select();
    if (seconds > 0) noticeTimer = setTimeout(() => { box.hidden = true; }, seconds * 1000);
  }
  function hideNotice(kind) {
    const box = document.getElementById('notice');
    if (box && (!kind || box.dataset.kind === kind)) box.hidden = true;
  }

  function emit(name, detail) {
    window.dispatchEvent(new CustomEvent(`md5stage:${name}`, { detail }));
  }

  // `started`: the module runs (first frame); what the opening path itself waits for. `ready`:
  // the opening scene is applied too (or failed); what scripts wait for. The opening path never
  // awaits `ready`: it is what resolves it.
  let resolveStarted, rejectStarted, resolveReady, rejectReady;
  const started = new Promise((resolve, reject) => { resolveStarted = resolve; rejectStarted = reject; });
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  started.catch(() => {});
  ready.catch(() => {});  // a failed start is shown on the page; callers may still await it

  function fail(text) {
    showMessage(text);
    emit('error', { message: text });
    rejectStarted(new Error(text));
    rejectReady(new Error(text));
  }

  let running = false;
  let startError = null;

  // Commands and their replies travel through the wasm heap (runtime.js: callModule).
  function call(command) {
    return running ? callModule(Module, command) : { ok: false, error: startError || 'not started' };
  }

  // A problem the person should see: in the C++ status line, in the notice, and as an event.
  function report(message) {
    call({ cmd: 'reportError', message });
    notice(message, { kind: 'error' });
    emit('error', { message });
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

  // files: File objects or {name, bytes (Uint8Array | ArrayBuffer | string), source}. Copied
  // before the first await: a FileList (the picker's) is emptied when its input is cleared.
  async function loadFiles(files, defaultSource = 'local') {
    const list = Array.from(files || []);
    await ready;
    return queueFiles(list, defaultSource);
  }

  // The files into the heap and one load; the module runs (callers waited for `started`).
  async function queueFiles(list, defaultSource = 'local', stage = 0) {
    const errors = [];
    let queued = 0;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      const name = item.name || `file${i}`;
      const size = item.file ? item.file.size : item.size;
      if (typeof size === 'number' && size > MAX_FILE_BYTES) {
        errors.push(`${name}: error: file of ${size} bytes is larger than the ${MAX_FILE_BYTES} byte limit`);
        continue;
      }
      let bytes = null;
      if (typeof File !== 'undefined' && (item instanceof File || item.file instanceof File)) {
        bytes = await readFile(item.file || item, i, list.length);
      } else if (typeof item.bytes === 'string' || item.bytes instanceof ArrayBuffer ||
                 (item.bytes && item.bytes.buffer instanceof ArrayBuffer)) {
        bytes = asBytes(item.bytes);
      }
      if (!bytes) {
        errors.push(`${name}: error: could not be read`);
        continue;
      }
      if (bytes.length > MAX_FILE_BYTES) {
        errors.push(`${name}: error: file of ${bytes.length} bytes is larger than the ${MAX_FILE_BYTES} byte limit`);
        continue;
      }
      const copied = withHeap(Module, [bytes, name, item.source || defaultSource], (data, namePointer, source) => {
        Module._md5stage_queue_stage_file(stage, namePointer, source, data, bytes.length);
        return true;
      }, () => false);
      if (copied) queued++;
      else errors.push(`${name}: error: not enough memory to load ${bytes.length} bytes`);
    }
    showProgress('');
    const reply = queued ? call({ cmd: 'loadQueued', stage }) : { ok: errors.length === 0, errors: [], warnings: [], models: [] };
    reply.errors = errors.concat(reply.errors || []);
    reply.ok = reply.errors.length === 0;
    if (errors.length) call({ cmd: 'reportError', message: errors.join('\n'), stage });
    return reply;
  }

  // Drag and drop: files or whole folders (not in embeds: they show what the link says). Files in a
  // dropped folder keep their path below it ("models/x/body_d.tga" of folder "mymod"), which is
  // how material decls name images.
  async function entriesToFiles(entry, out, root = null) {
    if (entry.isFile) {
      const relative = root !== null && entry.fullPath.startsWith(root) ? entry.fullPath.slice(root.length) : null;
      await new Promise((resolve) => entry.file((file) => {
        out.push(relative ? { name: relative, file } : file);
        resolve();
      }, resolve));
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((resolve) => reader.readEntries(resolve, () => resolve([])));
        if (!batch.length) break;
        for (const child of batch) await entriesToFiles(child, out, root === null ? entry.fullPath + '/' : root);
      }
    }
  }

  if (!embedMode) {
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
  }

  const picker = document.getElementById('file-picker');
  if (picker) {
    picker.addEventListener('change', () => {
      // Copied now: clearing the input (so that picking the same files again is a change) empties
      // picker.files at once, long before loadFiles reads them after `ready` and each file read.
      const files = Array.from(picker.files || []);
      picker.value = '';
      if (files.length) loadFiles(files);
    });
  }

  // Fetches one file with byte progress. Errors say what went wrong in words a person can act on.
  async function fetchBytes(url, label, index, count) {
    const prefix = `Fetching ${label}${count > 1 ? ` (${index + 1}/${count})` : ''}`;
    showProgress(prefix);
    let response;
    try {
      response = await fetch(url, { mode: 'cors', credentials: 'omit' });
    } catch (error) {
      throw new Error('the server is unreachable or does not allow cross-origin requests ' +
                      '(it must answer with an Access-Control-Allow-Origin header)');
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}${response.statusText ? ' ' + response.statusText : ''}`);
    const total = Number(response.headers.get('Content-Length')) || 0;
    if (total > MAX_FILE_BYTES) throw new Error(`${total} bytes is more than the ${MAX_FILE_BYTES} byte limit`);
    if (!response.body || !response.body.getReader) return new Uint8Array(await response.arrayBuffer());
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.length;
      if (received > MAX_FILE_BYTES) {
        reader.cancel();
        throw new Error(`more than the ${MAX_FILE_BYTES} byte limit`);
      }
      chunks.push(value);
      const amount = total ? `${Math.min(99, Math.floor(100 * received / total))}%` : `${Math.round(received / 1024)} KB`;
      showProgress(`${prefix}: ${amount}`);
    }
    const bytes = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes;
  }

  // One scene load at a time: a second request waits for the first (C++ runs its openings in
  // order too; this queue keeps each script's await on its own opening).
  let loadQueue = Promise.resolve();
  function serialized(task) {
    const run = loadQueue.then(task, task);
    loadQueue = run.catch(() => {});
    return run;
  }

  // Openings run in C++ (src/viewer/stage_opening.cpp): it validates the scene, asks for each file
  // through Module.md5stageFetch, loads them, asks for missing images, then applies or cancels.
  // `open` starts one and resolves to its result {ok, error, warnings} when C++ says it ended.
  const openings = new Map();  // "stage:id" -> resolve
  const stageEventHandlers = new Map();  // stage id -> (name, detail) for stages other than 0
  function open(stage, command) {
    return started.then(() => {
      const reply = call(Object.assign({ stage }, command));
      if (!reply.ok) return reply;
      return new Promise((resolve) => openings.set(`${stage}:${reply.opening}`, resolve));
    });
  }
  // A file C++ asked for: fetched here (bytes only), handed back by md5stage_fetched.
  function fetchForStage(stage, request, url, label, index, count) {
    const bytes = fetchBytes(url, label, index, count).finally(() => showProgress(''));
    answerFetch(Module, stage, request, bytes, () => running);
  }

  // A scene (object or JSON text). Returns {ok, error, warnings}; reports nothing.
  function openScene(scene, stage = 0) {
    let object = scene;
    if (typeof scene === 'string') {
      try {
        object = JSON.parse(scene);
      } catch (error) {
        return Promise.resolve({ ok: false, error: `scene: error: not JSON: ${error.message}` });
      }
    }
    return open(stage, { cmd: 'openScene', scene: object });
  }
  const fetchDemo = (name, stage = 0) => open(stage, { cmd: 'openDemo', name: String(name).slice(0, 256) });
  const openModel = (mesh, anims, stage = 0) => open(stage, { cmd: 'openModel', mesh, anims });

  const MAX_LINK_CHARS = 1 << 20;  // the core's bound (kMaxSceneLinkChars)
  function openLink(payload, stage = 0) {
    payload = String(payload);
    if (payload.length > MAX_LINK_CHARS) {
      return Promise.resolve({ ok: false, error: `#scene: error: expected a link of at most ${MAX_LINK_CHARS} characters, found ${payload.length}` });
    }
    return open(stage, { cmd: 'openLink', payload });
  }

  // The public loaders report their failures and announce successes.
  function announce(result, from) {
    if (result.ok) {
      hideNotice('error');
      emit('loaded', { from, result });
    } else {
      report(result.error);
    }
    return result;
  }
  // They wait for `ready` outside the queue: queued before the opening, they would run first and
  // the opening scene would replace theirs.
  const afterOpening = (task) => ready.then(() => serialized(task));
  const loadScene = (scene) => afterOpening(async () => announce(await openScene(scene), 'api'));
  const loadDemo = (name) => afterOpening(async () => announce(await fetchDemo(name), 'api'));
  const loadModelUrl = (mesh, anims = []) =>
    afterOpening(async () => announce(await openModel(String(mesh), Array.from(anims, String)), 'api'));
  const loadLink = (payload) => afterOpening(async () => announce(await openLink(payload), 'api'));

  // The full viewer's URL for a link (an embed links to the viewer, not to itself).
  function viewerUrl() {
    const url = new URL(embedMode && thisScript && thisScript.dataset.mode === 'embed' ? 'index.html' : window.location.href,
                        window.location.href);
    url.search = '';
    url.hash = '';
    return url;
  }

  function shareLink() {
    const reply = call({ cmd: 'shareLink' });
    if (!reply.ok) return reply;
    const url = viewerUrl();
    url.hash = 'scene=' + reply.payload;
    return Object.assign(reply, { url: url.toString() });
  }

  const escapeAttribute = (text) =>
    text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  // The one line of HTML a documentation page pastes to show the current scene.
  function embedInfo({ width = 640, height = 360 } = {}) {
    const reply = call({ cmd: 'shareLink' });
    if (!reply.ok) return reply;
    const src = new URL('embed.html', window.location.href);
    src.hash = 'scene=' + reply.payload;
    const w = Math.max(1, Math.round(Number(width)) || 640);
    const h = Math.max(1, Math.round(Number(height)) || 360);
    const snippet = `<iframe src="${escapeAttribute(src.toString())}" width="${w}" height="${h}" ` +
                    'style="border:0" allow="fullscreen" loading="lazy" title="md5stage scene"></iframe>';
    return Object.assign(reply, { url: src.toString(), snippet });
  }

  // The file name a figure's poster goes by beside the page: the demo's name, if one is open.
  function posterName() {
    const demo = /^#demo=([A-Za-z0-9_-]{1,64})$/.exec(window.location.hash);
    return `${demo ? demo[1] : 'md5stage-figure'}.png`;
  }

  // The <md5-stage> snippet of what is on screen: the scene as a link payload, the camera, the
  // display toggles, the scene time, paused or playing, the loop, and its poster as a file beside
  // the page (downloadPoster makes it). Every value comes from C++'s own replies.
  function figureInfo({ width = 640, height = 360, poster = posterName() } = {}) {
    const reply = call({ cmd: 'shareLink' });
    if (!reply.ok) return reply;
    const state = call({ cmd: 'state' });
    const clock = call({ cmd: 'clock' });
    const w = Math.max(1, Math.round(Number(width)) || 640);
    const h = Math.max(1, Math.round(Number(height)) || 360);
    const { yaw, pitch, distance, target } = state.camera;
    const attributes = [['scene', reply.payload], ['camera', [yaw, pitch, distance, ...target].map((n) => +Number(n).toFixed(4)).join(',')]];
    for (const [name, on] of Object.entries(state.display || {})) attributes.push([name, on ? '1' : '0']);
    attributes.push(['t', +Number(clock.scene_time).toFixed(4)]);
    attributes.push([clock.scene_playing ? 'autoplay' : 'paused', null]);
    if (clock.loop_range) attributes.push(['loop', `${clock.loop_range.start}-${clock.loop_range.end}`]);
    if (poster) attributes.push(['poster', String(poster)]);
    attributes.push(['alt', 'md5stage scene']);
    const text = attributes.map(([name, value]) => (value === null ? name : `${name}="${escapeAttribute(String(value))}"`)).join(' ');
    const snippet = `<md5-stage ${text} style="width:${w}px;height:${h}px"></md5-stage>`;
    return Object.assign(reply, { snippet, poster, width: w, height: h });
  }

  // "Poster": the view drawn afresh at the figure's size (the camera and scene on screen, without
  // the panels), not the canvas scaled down: C++ draws it into an offscreen framebuffer of that
  // size after the next frame, encodes it as PNG and hands the bytes over (src/app/app.cpp,
  // App::TakePoster); it is downloaded under the name the snippet gives it. One at a time.
  let posters = Promise.resolve();
  function downloadPoster({ width = 640, height = 360, name = posterName() } = {}) {
    if (embedMode || !running) return Promise.resolve({ ok: false, error: 'no viewer to take a poster from' });
    const w = Math.max(1, Math.min(4096, Math.round(Number(width)) || 640));
    const h = Math.max(1, Math.min(4096, Math.round(Number(height)) || 360));
    const result = posters.then(() => new Promise((resolve) => {
      const refused = Module.UTF8ToString(Module._md5stage_request_poster(w, h));
      if (refused) {
        resolve({ ok: false, error: refused });
        return;
      }
      Module.md5stagePoster = (taken) => {
        if (!taken.ok) {
          report(`Poster: ${taken.error}`);
          resolve(taken);
          return;
        }
        const blob = new Blob([taken.bytes], { type: 'image/png' });
        Module.md5stageDownload(String(name), 'image/png', blob);
        resolve({ ok: true, name: String(name), width: taken.width, height: taken.height, blob });
      };
    }));
    posters = result;
    return result;
  }

  async function copyText(text) {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      return true;
    } catch (error) {
      return false;
    }
  }

  // "Copy link" / "Embed" / "Figure": copies, and says which dropped models could not go with it.
  async function copyShared(what) {
    const info = what === 'link' ? shareLink() : what === 'figure' ? figureInfo() : embedInfo();
    if (!info.ok) {
      report(info.error);
      return info;
    }
    const text = what === 'link' ? info.url : info.snippet;
    const copied = await copyText(text);
    const noun = what === 'link' ? 'Link' : what === 'figure' ? 'Figure snippet' : 'Embed code';
    const left = info.left_out.length
      ? ` Left out: ${info.left_out.join(', ')} (dropped from local files, which cannot travel in a link;` +
        ' load them from an https URL to share them).'
      : '';
    const head = copied ? `${noun} copied (${text.length} characters).` : `Copy the ${noun.toLowerCase()} below.`;
    notice(head + left, { kind: info.left_out.length ? 'warning' : 'info', copyText: copied ? null : text,
                          seconds: copied ? (left ? 20 : 6) : 0 });
    return { ok: true, text, copied, left_out: info.left_out };
  }

  // The URL says what opens: #scene=PAYLOAD, #demo=NAME, #model=URL&anim=URL..., else the
  // default demo (?scene=none: nothing); C++ reads it (src/viewer/page_location.h). Anything broken
  // leaves the default scene running and says why.
  function openFromLocation() {
    return serialized(async () => {
      const result = await open(0, { cmd: 'openLocation', query: window.location.search, fragment: window.location.hash });
      if (!result.ok) {
        report(result.error);
        return result;
      }
      hideNotice('error');
      emit('loaded', { from: 'url', result });
      return result;
    });
  }

  // A stage of its own: another independent scene in this module (the stages issue; the
  // <md5-stage> element gives each figure one). Commands are the main API's, sent to that stage.
  function stageApi(id) {
    const to = (command) => call(Object.assign({}, command, { stage: id }));
    // Every public command of the table (md5stageCommandTable, generated from C++'s), sent to it.
    return Object.assign(commandFunctions(md5stageCommandTable, to), {
      id,
      call: to,
      loadFiles: (files) => ready.then(() => queueFiles(Array.from(files || []), 'local', id)),
      loadScene: (scene) => ready.then(() => openScene(scene, id)),
      loadDemo: (name) => ready.then(() => fetchDemo(name, id)),
      loadLink: (payload) => ready.then(() => openLink(payload, id)),
      loadModelUrl: (mesh, anims = []) =>
        ready.then(() => openModel(String(mesh), Array.from(anims, String), id)),
      // Events C++ sends this stage ("finished", "seeked", ...): handler(name, detail).
      onEvent: (handler) => { stageEventHandlers.set(id, handler); },
      close: () => { stageEventHandlers.delete(id); return call({ cmd: 'closeStage', id }); },
    });
  }

  // window.md5stage: a function per public command of the table (md5stageCommandTable, generated
  // from C++'s by md5stage_api_types and bundled before this script), then the page's own.
  const api = Object.assign(commandFunctions(md5stageCommandTable, call), {
    ready,
    // Stage 0 is the page's own (every call above); createStage() opens another.
    createStage: () => {
      const reply = call({ cmd: 'createStage' });
      return reply.ok ? stageApi(reply.stage) : reply;
    },
    stage: (id) => stageApi(Number(id)),
    embed: embedMode,
    state: () => (running ? call({ cmd: 'state' }) : { webgl: null, frame: 0, error: startError }),
    call,
    loadFiles,
    openFilePicker: () => { if (picker) picker.click(); },
    loadScene,
    loadDemo,
    loadModelUrl,
    loadLink,
    shareLink: () => shareLink().url,
    shareInfo: shareLink,
    // The iframe, or with {kind: 'element'} the <md5-stage> snippet of what is on screen.
    embedSnippet: (options = {}) => (options.kind === 'element' ? figureInfo(options) : embedInfo(options)).snippet,
    embedInfo,
    figureInfo,
    downloadPoster,
    notice,
    opened: null,  // a promise: the result {ok, error} of the scene the page opened with (the URL's)
    // Buttons in the C++ UI that need the page: clipboard and demo gallery. Returns a promise.
    // The C++ UI calls this in the middle of its frame: the work starts after the frame returns,
    // so no command re-enters the module while it draws.
    pageAction(action) {
      return Promise.resolve().then(() => runPageAction(String(action)));
    },
  });
  function runPageAction(action) {
    if (action.startsWith('demo:')) {
      const name = action.slice(5);
      return loadDemo(name).then((result) => {
        if (result.ok && !embedMode) history.replaceState(null, '', `#demo=${name}`);
        return result;
      });
    }
    if (action === 'copyLink') return copyShared('link');
    if (action === 'copyEmbed') return copyShared('embed');
    if (action === 'copyFigure') return copyShared('figure');
    if (action === 'downloadPoster') return downloadPoster();
    return Promise.resolve({ ok: false, error: `unknown page action '${action.slice(0, 64)}'` });
  }

  window.md5stage = api;

  // A link pasted into the address bar of an open viewer changes only the fragment.
  window.addEventListener('hashchange', () => {
    if (running) api.opened = openFromLocation();
  });

  if (embedMode && !(thisScript && thisScript.dataset.mode === 'embed')) {
    // index.html?embed: the same page as embed.html.
    const overlay = document.createElement('script');
    overlay.src = 'embed.js';
    overlay.async = false;  // runs before md5stage.js (also async = false), so it sees every event
    document.body.appendChild(overlay);
  }

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
    // Called after each frame (not inside it), so commands from here and from the started
    // listeners are safe.
    md5stageFrameRendered(frame) {
      if (frame !== 1) return;
      running = true;
      if (embedMode) call({ cmd: 'ui', panels: false });
      resolveStarted();
      emit('started', {});
      api.opened = openFromLocation();
      // After md5stage:loaded / the report of a failure, which ran inside the opening.
      const settle = () => resolveReady();
      api.opened.then(settle, settle);
    },
    // An event pushed by C++ from inside its frame: dispatched once the frame has returned (a
    // microtask), so a listener that calls md5stage.call() neither re-enters the frame nor
    // overwrites the reply buffer of a command still being read.
    md5stageEvent(name, detailJson, stage = 0) {
      const eventName = String(name);
      const text = String(detailJson);
      queueMicrotask(() => {
        if (eventName === 'sceneOpened') {
          let result = null;
          try { result = JSON.parse(text); } catch (error) { return; }
          const key = `${stage}:${result.id}`;
          const resolve = openings.get(key);
          openings.delete(key);
          if (resolve) resolve(result);
          return;
        }
        if (stage !== 0) {
          // A stage of its own (an element's): its events go to whoever watches that stage.
          const handler = stageEventHandlers.get(stage);
          if (handler) {
            let detail = null;
            try { detail = JSON.parse(text); } catch (error) { /* ignored below */ }
            handler(eventName, detail);
          }
          return;
        }
        let detail = null;
        try {
          detail = JSON.parse(text);
        } catch (error) {
          console.warn(`md5stage: event ${eventName.slice(0, 32)} with a detail that is not JSON`);
        }
        emit(eventName, detail);
      });
    },
    md5stageFetch: fetchForStage,
    // A file made by C++ ("Download glTF"): bytes is a copy of the module's memory, saved
    // through a Blob link so the browser's own download handling takes over.
    md5stageDownload(name, mimeType, bytes) {
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([bytes], { type: String(mimeType) }));
      link.download = String(name);
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    },
    md5stageFatal(text) {
      startError = text;
      fail('md5stage could not start: ' + text);
    },
    onAbort(what) {
      startError = String(what);
      running = false;
      fail('md5stage stopped: the WebAssembly module failed to load or run.\n' + String(what));
    },
  };

  const script = document.createElement('script');
  script.src = 'md5stage.js';
  script.async = false;
  script.onerror = () => fail('md5stage could not load md5stage.js. Is the site fully deployed?');
  document.body.appendChild(script);
})();
