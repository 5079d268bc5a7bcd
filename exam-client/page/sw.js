/*
 * Keeps the page itself available offline, so that a candidate who reloads with no
 * network still gets the exam back (the answers come from IndexedDB). Network first
 * (a redeploy is picked up at once), this cache when the network fails. Never touches
 * /api/: answers and submissions go straight to the network, under the SDK's control.
 * Nor /console/: the proctor console is not part of the exam page and must never be served
 * from the candidate's offline copy.
 */
const CACHE = 'exam-page-v8';
const SHELL = [
  '/', '/index.html', '/app.js', '/style.css', '/content.js', '/navigator.js',
  // the rendering libraries (page/vendor, scripts/vendor.mjs); KaTeX's fonts are kept when first drawn
  '/vendor/markdown-it/markdown-it.esm.min.mjs', '/vendor/katex/katex.mjs', '/vendor/katex/katex.min.css',
  '/vendor/dompurify/purify.es.mjs', '/vendor/highlight/highlight.min.js', '/vendor/highlight/github.min.css',
  '/sdk/index.js', '/sdk/client.js', '/sdk/autosave.js', '/sdk/reconcile.js', '/sdk/submit.js', '/sdk/commands.js',
  '/sdk/events.js', '/sdk/records.js', '/sdk/errors.js', '/sdk/http.js', '/sdk/live.js', '/sdk/merge.js', '/sdk/order.js', '/sdk/proctor.js',
  '/sdk/retry.js', '/sdk/review.js', '/sdk/store.js', '/sdk/time.js', '/sdk/timers.js', '/sdk/validate.js', '/sdk/writer-lock.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/console/')) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(async () => {
        const cached = await caches.match(event.request, { ignoreSearch: event.request.mode === 'navigate' });
        if (cached) return cached;
        if (event.request.mode === 'navigate') return caches.match('/index.html');
        return Response.error();
      }),
  );
});
