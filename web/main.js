// md5stage page glue: checks WebGL2, loads the wasm module, and exposes window.md5stage.
// It only moves bytes and events into the exported C functions; decisions are made in C++.
'use strict';

(function () {
  const messageBox = document.getElementById('message');

  function showMessage(text) {
    messageBox.textContent = text;  // textContent: never interpreted as HTML
    messageBox.hidden = false;
  }

  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  ready.catch(() => {});  // a failed start is shown on the page; callers may still await it

  function fail(text) {
    showMessage(text);
    rejectReady(new Error(text));
  }

  const api = {
    ready,
    state() {
      if (!api._started) return { webgl: null, frame: 0, error: api._error || null };
      return JSON.parse(Module.UTF8ToString(Module._md5stage_state_json()));
    },
    _started: false,
    _error: null,
  };
  window.md5stage = api;

  const probe = document.createElement('canvas').getContext('webgl2');
  if (!probe) {
    api._error = 'webgl2 unavailable';
    fail('md5stage needs WebGL 2, which this browser does not provide.\n' +
         'Try a current Chrome, Firefox or Safari, or enable hardware acceleration.');
    return;
  }

  window.Module = {
    canvas: document.getElementById('canvas'),
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    md5stageFrameRendered(frame) {
      if (frame === 1) { api._started = true; resolveReady(); }
    },
    md5stageFatal(text) {
      api._error = text;
      fail('md5stage could not start: ' + text);
    },
    onAbort(what) {
      api._error = String(what);
      fail('md5stage stopped: the WebAssembly module failed to load or run.\n' + String(what));
    },
  };

  const script = document.createElement('script');
  script.src = 'md5stage.js';
  script.onerror = () => fail('md5stage could not load md5stage.js. Is the site fully deployed?');
  document.body.appendChild(script);
})();
