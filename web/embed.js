// md5stage embed (embed.html, or index.html?embed): a play/pause button and a timeline over the
// canvas, URL options, and a postMessage protocol with the page that embeds it. Runs on top of
// window.md5stage from main.js; the C++ panels are hidden there.
//
// URL options, in the fragment or the query (the fragment wins), next to #scene= / #demo= /
// #model=; they apply to the scene the URL opens:
//   autoplay | autoplay=0      play / do not play (default: as the scene says; paused when the
//                              reader prefers reduced motion and autoplay is not given)
//   paused                     start paused
//   t=SECONDS                  start at this scene time
//   loop=A-B | loop            jump back to A at B (loop alone: to 0 one second after the last
//                              character arrives)
//   ui=none                    no overlay (messages about errors still show)
//   camera=yaw,pitch,distance[,tx,ty,tz]
//   grid, skeleton, joint_names, bounds, wireframe, normals, routes, turn_circles = 1 | 0
//   origin=ORIGIN[,ORIGIN...]  origins allowed to talk to the embed ("*": any)
//
// postMessage: every message is an object whose `md5stage` field names it.
//   events (embed -> host):  ready; loaded {from, instances, models, scene_end, link};
//                            error {message}; finished {time}; reply {command, id, ok, error, ...}
//   commands (host -> embed): play; pause; seek {time}; setScene {demo | scene | link};
//                            state (reply carries scene_time, scene_playing, finished)
//                            an optional `id` comes back in the reply.
// Origins: by default only the embedding page (the parent window, whose origin the browser reports
// in location.ancestorOrigins or document.referrer) is accepted; `origin=` replaces that list.
// Messages from any other window or origin are ignored without an answer, and events are posted
// only to the accepted origins (none known: no events; pass origin= then).
'use strict';

(function () {
  const md5stage = window.md5stage;
  if (!md5stage) return;

  const TOGGLES = ['grid', 'skeleton', 'joint_names', 'bounds', 'wireframe', 'normals', 'routes', 'turn_circles'];
  const OFF = new Set(['0', 'false', 'no', 'off']);

  function readParams() {
    const params = new URLSearchParams(window.location.search);
    for (const [key, value] of new URLSearchParams(window.location.hash.slice(1))) params.set(key, value);
    return params;
  }

  // The options as values, and the problems found in them (shown, never fatal).
  function parseOptions(params) {
    const options = { errors: [], display: {} };
    const flag = (key) => (params.has(key) ? !OFF.has(params.get(key).toLowerCase()) : null);
    const number = (text) => (/^\s*-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(text) ? Number(text) : NaN);
    options.autoplay = flag('autoplay');
    options.paused = flag('paused') === true;
    options.ui = params.get('ui') || 'min';
    if (options.ui !== 'none' && options.ui !== 'min') {
      options.errors.push(`ui=${options.ui.slice(0, 32)}: expected ui=none or ui=min`);
      options.ui = 'min';
    }
    options.time = null;
    if (params.has('t')) {
      const t = number(params.get('t'));
      if (Number.isFinite(t) && t >= 0 && t <= 1e6) options.time = t;
      else options.errors.push(`t=${params.get('t').slice(0, 32)}: expected seconds >= 0`);
    }
    options.loop = null;
    if (params.has('loop')) {
      const text = params.get('loop');
      const range = /^([0-9.]+)-([0-9.]+)$/.exec(text);
      if (text === '' || text === '1') {
        options.loop = { whole: true };
      } else if (range && number(range[1]) >= 0 && number(range[2]) > number(range[1]) && number(range[2]) <= 1e6) {
        options.loop = { start: number(range[1]), end: number(range[2]) };
      } else if (!OFF.has(text)) {
        options.errors.push(`loop=${text.slice(0, 32)}: expected loop=A-B with 0 <= A < B (seconds)`);
      }
    }
    options.camera = null;
    if (params.has('camera')) {
      const values = params.get('camera').split(',').map(number);
      if ((values.length === 3 || values.length === 6) && values.every((v) => Number.isFinite(v) && Math.abs(v) <= 1e6)) {
        options.camera = { yaw: values[0], pitch: values[1], distance: values[2] };
        if (values.length === 6) options.camera.target = values.slice(3);
      } else {
        options.errors.push(`camera=${params.get('camera').slice(0, 64)}: expected yaw,pitch,distance[,tx,ty,tz]`);
      }
    }
    for (const key of TOGGLES) {
      if (params.has(key)) options.display[key] = flag(key);
    }
    return options;
  }

  function acceptedOrigins(params) {
    if (params.has('origin')) {
      const list = [];
      for (const item of params.get('origin').split(',')) {
        const text = item.trim();
        if (text === '*') {
          list.push('*');
          continue;
        }
        try {
          const origin = new URL(text).origin;
          if (origin !== 'null') list.push(origin);
        } catch (error) { /* not an origin: ignored */ }
      }
      return list;
    }
    if (window.parent === window) return [];
    if (window.location.ancestorOrigins && window.location.ancestorOrigins.length) {
      const origin = window.location.ancestorOrigins[0];
      return origin && origin !== 'null' ? [origin] : [];
    }
    try {
      const origin = document.referrer ? new URL(document.referrer).origin : 'null';
      return origin !== 'null' ? [origin] : [];
    } catch (error) {
      return [];
    }
  }

  const startParams = readParams();
  const origins = acceptedOrigins(startParams);
  let options = parseOptions(startParams);
  const embedded = window.parent !== window;

  // Where events go: the accepted origins, narrowed to the parent's actual origin when the browser
  // tells it (posting to another origin would only log a browser error).
  const parentOrigin = window.location.ancestorOrigins && window.location.ancestorOrigins.length
    ? window.location.ancestorOrigins[0] : null;
  const targets = origins.includes('*') ? ['*']
    : parentOrigin ? origins.filter((origin) => origin === parentOrigin) : origins;
  function post(name, fields = {}) {
    if (!embedded) return;
    const message = Object.assign({}, fields, { md5stage: name });
    for (const origin of targets) window.parent.postMessage(message, origin);
  }

  // ---- overlay ---------------------------------------------------------------------------------
  let bar = null, playButton = null, timeline = null, clockLabel = null, openLink = null;
  function buildOverlay() {
    bar = document.createElement('div');
    bar.id = 'embed-bar';
    playButton = document.createElement('button');
    playButton.type = 'button';
    playButton.id = 'embed-play';
    timeline = document.createElement('input');
    timeline.type = 'range';
    timeline.id = 'embed-time';
    timeline.min = '0';
    timeline.max = '30';
    timeline.step = '0.01';
    timeline.value = '0';
    timeline.setAttribute('aria-label', 'scene time');
    clockLabel = document.createElement('span');
    clockLabel.id = 'embed-clock';
    openLink = document.createElement('a');
    openLink.id = 'embed-open';
    openLink.target = '_blank';
    openLink.rel = 'noopener';
    openLink.textContent = 'md5stage \u2197';
    openLink.title = 'open this scene in the md5stage viewer';
    bar.append(playButton, timeline, clockLabel, openLink);
    setPlayLabel(true);
    document.body.appendChild(bar);
    playButton.addEventListener('click', () => {
      const clock = md5stage.call({ cmd: 'clock' });
      if (clock.scene_playing) md5stage.pauseScene();
      else md5stage.playScene();
    });
    timeline.addEventListener('pointerdown', () => { dragging = true; });
    timeline.addEventListener('pointerup', () => { dragging = false; });
    timeline.addEventListener('change', () => { dragging = false; });
    timeline.addEventListener('input', () => { md5stage.setSceneTime(Number(timeline.value)); });
  }
  let dragging = false;
  let timelineEnd = 30;
  function setPlayLabel(playing) {
    const label = playing ? 'Pause' : 'Play';
    if (playButton.getAttribute('aria-label') === label) return;
    playButton.setAttribute('aria-label', label);
    playButton.textContent = playing ? '\u275a\u275a' : '\u25b6';
  }

  // ---- the scene clock: overlay, loop range, "finished" ------------------------------------------
  let loopRange = null;
  let wasFinished = false;
  function measureLoop(clock) {
    if (!options.loop) return null;
    if (!options.loop.whole) return options.loop;
    const end = clock.scene_end;
    return end !== null && !clock.scene_repeats ? { start: 0, end: end + 1 } : null;
  }
  function tick() {
    const clock = md5stage.call({ cmd: 'clock' });
    if (clock.ok) {
      if (clock.finished && !wasFinished) post('finished', { time: clock.scene_time });
      wasFinished = clock.finished;
      if (loopRange && clock.scene_time >= loopRange.end && !dragging) {
        md5stage.setSceneTime(loopRange.start);
        clock.scene_time = loopRange.start;
      }
      if (bar) {
        timelineEnd = Math.max(timelineEnd, clock.scene_time);
        if (String(timelineEnd) !== timeline.max) timeline.max = String(timelineEnd);
        if (!dragging) timeline.value = String(clock.scene_time);
        clockLabel.textContent = `${clock.scene_time.toFixed(1)} s`;
        setPlayLabel(clock.scene_playing);
      }
    }
    requestAnimationFrame(tick);
  }

  // A scene opened: URL options apply to the scene the URL names; the timeline and loop range
  // follow every scene.
  function onLoaded(from) {
    if (from === 'url') {
      options = parseOptions(readParams());
      if (options.errors.length) {
        const problems = options.errors.join('\n');
        md5stage.notice(problems, { kind: 'error', seconds: 15 });
        post('error', { message: problems });
      }
      if (Object.keys(options.display).length) md5stage.display(options.display);
      if (options.camera) md5stage.camera(options.camera);
      const reducedMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      if (options.paused || options.autoplay === false || (reducedMotion && options.autoplay === null)) {
        md5stage.pauseScene();
      } else if (options.autoplay) {
        md5stage.playScene();
      }
    }
    const clock = md5stage.call({ cmd: 'clock' });
    loopRange = measureLoop(clock);
    if (from === 'url') {
      if (options.time !== null) md5stage.setSceneTime(options.time);
      else if (loopRange && loopRange.start > 0) md5stage.setSceneTime(loopRange.start);
    }
    wasFinished = md5stage.call({ cmd: 'clock' }).finished;
    timelineEnd = loopRange ? loopRange.end
      : clock.scene_end !== null && !clock.scene_repeats ? Math.max(clock.scene_end, 1) : Math.max(30, clock.scene_end || 0);
    const link = md5stage.shareInfo();
    if (openLink) {
      if (link.ok) openLink.href = link.url;
      openLink.hidden = !link.ok;
    }
    const state = md5stage.state();
    post('loaded', {
      from,
      instances: state.instances.length,
      models: state.models.map((m) => m.name),
      scene_end: clock.scene_end,
      link: link.ok ? link.url : null,
    });
  }

  window.addEventListener('md5stage:loaded', (event) => onLoaded(event.detail.from));
  window.addEventListener('md5stage:error', (event) => post('error', { message: event.detail.message }));

  // ---- commands from the host page ---------------------------------------------------------------
  function linkPayload(text) {
    const at = text.indexOf('#scene=');
    return at >= 0 ? text.slice(at + 7).split('&')[0] : text.replace(/^scene=/, '');
  }
  async function runCommand(data) {
    await md5stage.ready;
    switch (data.md5stage) {
      case 'play': return md5stage.playScene();
      case 'pause': return md5stage.pauseScene();
      case 'seek':
        if (typeof data.time !== 'number' || !Number.isFinite(data.time) || data.time < 0) {
          return { ok: false, error: 'seek needs {time: seconds >= 0}' };
        }
        return md5stage.setSceneTime(data.time);
      case 'setScene': {
        const given = ['demo', 'scene', 'link'].filter((key) => data[key] !== undefined);
        if (given.length !== 1) return { ok: false, error: 'setScene needs one of {demo}, {scene} or {link}' };
        if (given[0] === 'demo') return md5stage.loadDemo(data.demo);
        if (given[0] === 'link') {
          if (typeof data.link !== 'string') return { ok: false, error: 'setScene: link must be a string' };
          return md5stage.loadLink(linkPayload(data.link));
        }
        if (typeof data.scene !== 'string' && (typeof data.scene !== 'object' || data.scene === null)) {
          return { ok: false, error: 'setScene: scene must be an object or JSON text' };
        }
        return md5stage.loadScene(data.scene);
      }
      case 'state': {
        const clock = md5stage.call({ cmd: 'clock' });
        return { ok: true, scene_time: clock.scene_time, scene_playing: clock.scene_playing,
                 finished: clock.finished, scene_end: clock.scene_end };
      }
      default:
        return { ok: false, error: `unknown command '${data.md5stage.slice(0, 32)}'` };
    }
  }

  window.addEventListener('message', async (event) => {
    if (!embedded || event.source !== window.parent) return;
    if (!origins.includes('*') && !origins.includes(event.origin)) return;
    const data = event.data;
    if (!data || typeof data !== 'object' || typeof data.md5stage !== 'string') return;
    const id = typeof data.id === 'string' || typeof data.id === 'number' ? data.id : null;
    let result;
    try {
      result = await runCommand(data);
    } catch (error) {
      result = { ok: false, error: String(error && error.message || error) };
    }
    const reply = { command: data.md5stage.slice(0, 32), id, ok: Boolean(result && result.ok) };
    if (result && result.error) reply.error = String(result.error);
    if (data.md5stage === 'state' && result.ok) {
      Object.assign(reply, { scene_time: result.scene_time, scene_playing: result.scene_playing,
                             finished: result.finished, scene_end: result.scene_end });
    }
    post('reply', reply);
  });

  if (options.ui !== 'none') buildOverlay();
  md5stage.ready.then(() => {
    post('ready', { origins });
    requestAnimationFrame(tick);
  }, () => {});
})();
