// The installable app: register the service worker (static/…/sw.js is served at /sw.js so
// that its scope is the whole site). Push is switched on per device on the notifications
// page (push.js).
(function () {
  "use strict";
  const script = document.getElementById("app-script");
  if (!script || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).catch(() => {
    // no worker (a private window, an old browser): the site works without it
  });
})();
