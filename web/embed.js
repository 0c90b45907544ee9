// md5stage embed (embed.html, or index.html?embed): a play/pause button and a timeline over the
// canvas, URL options, and a postMessage protocol with the page that embeds it. Runs on top of
// window.md5stage from main.js; the C++ panels are hidden there. The options are read in C++ (the
// `embed` command: src/viewer/embed_options.h), which also runs the loop range and `finished`
// each frame (src/viewer/embed_timeline.h) and tells this page through md5stage:finished and
// md5stage:seeked events; nothing here watches the clock for them.
//
// URL options, in the fragment or the query (the fragment wins), next to #scene= / #demo= /
// #model=; they apply to the scene the URL opens (the loop to every scene):
//   autoplay | autoplay=0      play / do not play (default: as the scene says; paused when the
//                              reader prefers reduced motion and autoplay is not given)
//   paused                     start paused
//   t=SECONDS                  start at this scene time
//   loop=A-B | loop            jump back to A at B (loop alone: to 0 one second after the last
//                              character arrives)
//   ui=none                    no overlay (messages about errors still show)
//   camera=yaw,pitch,distance[,tx,ty,tz]
//   grid, skeleton, joint_names, bounds, wireframe, normals, routes, turn_circles,
//   construction, clearance = 1 | 0
//   avoidance | avoidance=0    characters give way to each other, or not (default: as the scene
//                              says)
//   origin=ORIGIN[,ORIGIN...]  origins allowed to talk to the embed ("*": any)
// A bad value is named in a notice and an `error` event, and the rest still applies.
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
// only to the accepted origins (none known: no events; pass origin= then). The list is known once
// the module has started (C++ reads origin=): messages that arrive earlier wait for it, and events
// from before are held and then sent in order.
'use strict';

(function () {
  const { linkPayload, TimelineBar } = md5stageRuntime;
  const md5stage = window.md5stage;
  if (!md5stage) return;
  const embedded = window.parent !== window;

  // The `embed` command is JSON, bounded to 1 MiB like every command, and a #scene= payload can be
  // that long by itself; the options never read it, so it is left out of the command.
  function withoutScenePayload(text) {
    return text.split('&').filter((pair) => !/^[#?]*scene=/.test(pair)).join('&');
  }

  // The URL's options as C++ reads them: {ok, options, problems} (or {ok: false, error}). With
  // applyToScene, C++ also applies them (display, camera, play state, time) to the scene open now;
  // either way it takes the loop for every scene from then on.
  function embedCommand(applyToScene) {
    const reducedMotion = Boolean(window.matchMedia &&
                                  window.matchMedia('(prefers-reduced-motion: reduce)').matches);
    return md5stage.call({
      cmd: 'embed',
      query: withoutScenePayload(window.location.search),
      fragment: withoutScenePayload(window.location.hash),
      reduced_motion: reducedMotion,
      apply_to_scene: applyToScene,
    });
  }

  // ---- origins -----------------------------------------------------------------------------------
  // `items`: the origin= list as C++ read it (trimmed, empty items dropped), or null when the URL
  // has none. Each item becomes an origin through the browser's URL parser, the one that also makes
  // event.origin, so the comparison is between two origins serialized alike.
  function acceptedOrigins(items) {
    if (items) {
      const list = [];
      for (const text of items) {
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

  // Only when C++ cannot say (the module never started: no WebGL 2, a failed download; or it
  // refused the `embed` command): origin= read here the way C++ reads it, so that the host still
  // hears why the embed shows nothing, and only at the origins the URL accepts.
  function originItemsWithoutModule() {
    const params = new URLSearchParams(window.location.search);
    for (const [key, value] of new URLSearchParams(window.location.hash.slice(1))) params.set(key, value);
    if (!params.has('origin')) return null;
    return params.get('origin').split(',').map((item) => item.trim()).filter((item) => item !== '');
  }

  let origins = null;  // accepted origins; null until known
  let targets = [];
  let resolveOriginsKnown;
  const originsKnown = new Promise((resolve) => { resolveOriginsKnown = resolve; });
  const held = [];  // events posted before the origins were known
  const MAX_HELD = 64;
  let lastErrorPosted = null;

  function send(message) {
    for (const origin of targets) window.parent.postMessage(message, origin);
  }
  function post(name, fields = {}) {
    if (!embedded) return;
    const message = Object.assign({}, fields, { md5stage: name });
    if (name === 'error') lastErrorPosted = message.message;
    if (origins === null) {
      if (held.length < MAX_HELD) held.push(message);
      return;
    }
    send(message);
  }
  function setOrigins(items) {
    if (origins !== null) return;
    origins = acceptedOrigins(items);
    // Where events go: the accepted origins, narrowed to the parent's actual origin when the
    // browser tells it (posting to another origin would only log a browser error).
    const parentOrigin = window.location.ancestorOrigins && window.location.ancestorOrigins.length
      ? window.location.ancestorOrigins[0] : null;
    targets = origins.includes('*') ? ['*']
      : parentOrigin ? origins.filter((origin) => origin === parentOrigin) : origins;
    if (embedded) for (const message of held.splice(0)) send(message);
    resolveOriginsKnown();
  }

  // ---- overlay ---------------------------------------------------------------------------------
  // The timeline bar (runtime.js) with the link that opens this scene in the viewer.
  let bar = null, openLink = null;
  function buildOverlay() {
    bar = new TimelineBar(md5stage.call);
    bar.element.id = 'embed-bar';
    bar.button.id = 'embed-play';
    bar.range.id = 'embed-time';
    bar.clock.id = 'embed-clock';
    openLink = document.createElement('a');
    openLink.id = 'embed-open';
    openLink.target = '_blank';
    openLink.rel = 'noopener';
    openLink.textContent = 'md5stage \u2197';
    openLink.title = 'open this scene in the md5stage viewer';
    bar.element.append(openLink);
    document.body.appendChild(bar.element);
  }

  // The overlay only displays the clock, so it reads it once a frame (the `clock` command: a few
  // fields, not the state); with ui=none nothing is read. Loop and `finished` do not depend on it.
  function tick() {
    bar.update();
    requestAnimationFrame(tick);
  }

  // ---- events from C++ and main.js ----------------------------------------------------------------
  window.addEventListener('md5stage:finished', (event) => {
    const detail = event.detail || {};
    if (typeof detail.time === 'number') post('finished', { time: detail.time });
  });
  window.addEventListener('md5stage:seeked', (event) => {
    const detail = event.detail || {};
    if (bar && typeof detail.time === 'number') bar.showTime(detail.time);
  });
  window.addEventListener('md5stage:error', (event) => post('error', { message: event.detail.message }));

  // The module runs (its first frame): C++ reads the options for the origins and the overlay;
  // they apply to the scene once the URL's scene has opened (onLoaded).
  window.addEventListener('md5stage:started', () => {
    const reply = embedCommand(false);
    setOrigins(reply.ok ? reply.options.origins : originItemsWithoutModule());
    if (!reply.ok || reply.options.ui !== 'none') {
      buildOverlay();
      requestAnimationFrame(tick);
    }
    post('ready', { origins });
  });
  md5stage.ready.catch((error) => {
    setOrigins(originItemsWithoutModule());
    // A start that failed before this script listened (no WebGL 2) was not posted yet.
    const message = String(error && error.message || error);
    if (message !== lastErrorPosted) post('error', { message });
  });

  // A scene opened: the URL's options apply to the scene the URL names; the timeline follows
  // every scene.
  function onLoaded(from) {
    if (from === 'url') {
      const reply = embedCommand(true);
      const problems = reply.ok ? reply.problems : [`embed: ${reply.error}`];
      if (problems.length) {
        const text = problems.join('\n');
        md5stage.notice(text, { kind: 'error', seconds: 15 });
        post('error', { message: text });
      }
    }
    const clock = md5stage.call({ cmd: 'clock' });
    const link = md5stage.shareInfo();
    if (bar) {
      if (link.ok) openLink.href = link.url;
      openLink.hidden = !link.ok;
      bar.measure(clock);
      bar.showTime(clock.scene_time);
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

  // ---- commands from the host page ---------------------------------------------------------------
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
    const data = event.data;
    if (!data || typeof data !== 'object' || typeof data.md5stage !== 'string') return;
    await originsKnown;
    if (!origins.includes('*') && !origins.includes(event.origin)) return;
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
})();
