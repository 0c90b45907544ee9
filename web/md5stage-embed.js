// md5stage embed loader for documentation pages: turns every element with data-md5stage-scene
// into an iframe of embed.html (found next to this script).
//
//   <div data-md5stage-scene="turns"></div>                       a bundled demo scene
//   <div data-md5stage-scene="#scene=PAYLOAD"></div>              a share link's payload (or the
//                                                                 whole link the viewer copied)
//   data-md5stage-options="paused&t=2&skeleton=1"                 embed options (see embed.js)
//   data-width="640" data-height="360" data-title="..."           iframe size and title
//   <script src="md5stage-embed.js" defer></script>
//
// Values are checked and then only placed into the iframe's URL through the URL API; nothing is
// inserted as HTML. window.md5stageEmbed.scan(root) converts elements added later.
'use strict';

(function () {
  const script = document.currentScript;
  const embedPage = new URL('embed.html', script && script.src ? script.src : window.location.href);
  const DEMO = /^[A-Za-z0-9_-]{1,64}$/;
  const PAYLOAD = /^[A-Za-z0-9_-]+$/;
  const MAX_PAYLOAD = 1 << 20;
  const OPTIONS = new Set(['autoplay', 'paused', 't', 'loop', 'ui', 'camera', 'grid', 'skeleton', 'joint_names',
                           'bounds', 'wireframe', 'normals', 'routes', 'turn_circles', 'construction',
                           'clearance', 'avoidance', 'origin']);

  // The iframe URL for an element's value and options, or an error message.
  function embedUrl(value, optionText) {
    const text = String(value || '').trim();
    const fragment = new URLSearchParams();
    const at = text.indexOf('scene=');
    if (DEMO.test(text)) {
      fragment.set('demo', text);
    } else if (at >= 0 && (at === 0 || text[at - 1] === '#' || text[at - 1] === '&')) {
      const payload = text.slice(at + 6).split('&')[0];
      if (!payload || payload.length > MAX_PAYLOAD || !PAYLOAD.test(payload)) {
        return { error: 'the #scene= payload holds characters a share link never has' };
      }
      fragment.set('scene', payload);
    } else {
      return { error: `'${text.slice(0, 64)}' is neither a demo name nor a #scene= link` };
    }
    for (const [key, option] of new URLSearchParams(String(optionText || ''))) {
      if (OPTIONS.has(key)) fragment.set(key, option);
    }
    // The embed accepts messages from this page even when the browser hides the referrer.
    if (!fragment.has('origin') && window.location.origin !== 'null') fragment.set('origin', window.location.origin);
    const url = new URL(embedPage.href);
    url.hash = fragment.toString();
    return { url: url.toString() };
  }

  function size(text, fallback) {
    const value = Number(text);
    return Number.isInteger(value) && value > 0 && value <= 10000 ? value : fallback;
  }

  function convert(element) {
    if (element.dataset.md5stageEmbedded) return element.querySelector('iframe');
    element.dataset.md5stageEmbedded = '1';
    const made = embedUrl(element.getAttribute('data-md5stage-scene'), element.getAttribute('data-md5stage-options'));
    if (made.error) {
      element.textContent = `md5stage: ${made.error}`;
      element.classList.add('md5stage-error');
      return null;
    }
    const frame = document.createElement('iframe');
    frame.src = made.url;
    frame.width = String(size(element.getAttribute('data-width'), 640));
    frame.height = String(size(element.getAttribute('data-height'), 360));
    frame.style.border = '0';
    frame.style.maxWidth = '100%';
    frame.setAttribute('allow', 'fullscreen');
    frame.setAttribute('loading', 'lazy');
    frame.title = element.getAttribute('data-title') || 'md5stage scene';
    element.replaceChildren(frame);
    return frame;
  }

  function scan(root = document) {
    return Array.from(root.querySelectorAll('[data-md5stage-scene]'), convert).filter(Boolean);
  }

  window.md5stageEmbed = { scan, embedUrl };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => scan());
  else scan();
})();
