// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  var body = document.body;

  // Live refresh: another phone may record. Reload when the session's version
  // moves on, unless this player is in the middle of entering something. The
  // version check is cheap (an ETag revalidated by the browser, 304 while the
  // session is unchanged), so it runs often enough that another phone's entry
  // shows within 2 seconds.
  var versionUrl = body.getAttribute("data-version-url");
  var seen = body.getAttribute("data-version");
  var touched = false;
  document.addEventListener("input", function () { touched = true; });
  document.addEventListener("change", function () { touched = true; });
  if (versionUrl) {
    window.setInterval(function () {
      if (touched || document.hidden) { return; }
      fetch(versionUrl, { cache: "no-cache", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          if (answer && String(answer.version) !== seen) { window.location.reload(); }
        })
        .catch(function () { /* offline for a moment: try again next tick */ });
    }, 1500);

    // Keep the screen awake at the table while the session page is open.
    if (navigator.wakeLock) {
      var askAwake = function () {
        if (document.visibilityState === "visible") {
          navigator.wakeLock.request("screen").catch(function () {});
        }
      };
      askAwake();
      document.addEventListener("visibilitychange", askAwake);
    }
  }

  // Dice: after a face is tapped, move focus to the next die, so a keyboard or
  // a screen reader follows the same six taps.
  document.querySelectorAll(".die-row input[type=radio]").forEach(function (input) {
    input.addEventListener("change", function () {
      var row = input.closest(".die-row");
      var next = row && row.nextElementSibling;
      if (next && next.classList.contains("die-row")) {
        var first = next.querySelector("input[type=radio]");
        if (first && !next.querySelector("input:checked")) { first.focus({ preventScroll: true }); }
      }
    });
  });

  // Times: the server writes them in UTC; show them in this phone's own time zone, the
  // UTC one kept as the tooltip. A form asking first (removing a scored session from this
  // phone ends its right to score there) asks before it is sent (before the
  // double-tap guard below marks it sent).
  var localTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  document.querySelectorAll("time[datetime]").forEach(function (element) {
    var moment = new Date(element.getAttribute("datetime"));
    if (isNaN(moment.getTime())) { return; }
    element.title = element.textContent;
    element.textContent = localTime.format(moment);
  });
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    });
  });

  // A double tap on a submit button sends one request; the server's one-time
  // form key catches what gets through anyway.
  document.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.getAttribute("data-sent")) { event.preventDefault(); return; }
      form.setAttribute("data-sent", "1");
    });
  });
  // Coming back with the Back button restores the page as it was: sendable again.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      form.removeAttribute("data-sent");
    });
  });
})();
