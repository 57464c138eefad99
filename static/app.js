// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  var body = document.body;
  var script = document.currentScript;
  var versionUrl = body.getAttribute("data-version-url");
  var seen = body.getAttribute("data-version");
  // Fields the server renews on every page: they say nothing about what the player entered.
  var RENEWED = { version: true, form_key: true, csrf_token: true };
  var KEPT_ENTRY = "scorekeeper.kept-entry";
  var RETRY_MS = 1500;

  // What this script says, in the page's language: the page gives its words (from the
  // server's catalogs) in <body data-words>; a page that gives none reads in English.
  var WORDS = {
    "reconnecting-sent": "Reconnecting… {what} is kept on this page and will be sent once the server answers.",
    "reconnecting-link": "Reconnecting… “{link}” opens once the server answers.",
    "reconnecting": "Reconnecting… The server does not answer; this page updates once it does.",
    "entry-kept": "Another phone just recorded: the board above is up to date, and what you had entered is kept. Check it before sending.",
    "entry-stale": "Another phone just recorded, and the table now expects something else: what you entered here no longer applies.",
    "show-table": "Show the table now",
    "your-tap": "your tap “{label}”",
    "your-entry": "your entry",
    "awake": "Keeps the screen awake",
    "seat": "Seat",
    "free-seat": "(free this seat)"
  };
  (function pageWords() {
    var given = null;
    try { given = JSON.parse(body.getAttribute("data-words") || "null"); } catch (error) { given = null; }
    if (!given) { return; }
    Object.keys(WORDS).forEach(function (key) {
      if (typeof given[key] === "string") { WORDS[key] = given[key]; }
    });
  })();
  function say(key, values) {
    return WORDS[key].replace(/\{([a-z]+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole;
    });
  }

  // One bar at the top of the screen says what the connection or another phone did.
  var bar = null;
  function notice(kind, text, buttonText, onButton) {
    if (!bar) {
      bar = document.createElement("div");
      bar.id = "net-status";
      bar.setAttribute("role", "status");
      bar.setAttribute("aria-live", "assertive");
      body.appendChild(bar);
    }
    bar.className = "net-status " + kind;
    bar.textContent = text;
    if (buttonText) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = buttonText;
      button.addEventListener("click", onButton);
      bar.appendChild(button);
    }
    bar.hidden = false;
  }
  function clearNotice(kind) {
    if (bar && bar.classList.contains(kind)) { bar.hidden = true; }
  }

  // Sending a form: fetch keeps the tap on the page through an outage. A tap made
  // while the server is unreachable is sent again, with the same one-time form key
  // (a repeat the server already recorded answers as recorded, not twice), until an
  // answer comes. The answer replaces this page in the history, so Back leaves the
  // session instead of walking back through its moves.
  var sending = false;
  var pollTimer = null;

  function formBody(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    if ((form.getAttribute("enctype") || "").toLowerCase() === "multipart/form-data") {
      return data;
    }
    return new URLSearchParams(data);
  }

  function showAnswer(html) {
    // A refusal or a stale page (422, 409, 403...) is a page of its own that the
    // server wrote for this send: it takes this page's place, at this address.
    window.clearInterval(pollTimer);
    document.open();
    document.write(html);
    document.close();
    // Its sentence (why nothing was recorded) is at the top.
    window.scrollTo(0, 0);
  }

  function send(url, data, what) {
    fetch(url, { method: "POST", body: data, credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        // A proxy in front of a restarting server answers these: the app never saw the tap.
        if (response.status === 502 || response.status === 503 || response.status === 504) {
          throw new Error("server unreachable");
        }
        if (response.redirected) {
          sessionStorage.removeItem(KEPT_ENTRY);
          window.location.replace(response.url);
          return null;
        }
        return response.text().then(showAnswer);
      })
      .catch(function () {
        notice("reconnecting", say("reconnecting-sent", { what: what }));
        window.setTimeout(function () { send(url, data, what); }, RETRY_MS);
      });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || new URL(form.action).origin !== window.location.origin) { return; }
    var method = (form.getAttribute("method") || "get").toLowerCase();
    if (method === "get") {
      // A step within a move (which card, then where it goes) is no move of its own.
      if (!versionUrl) { return; }
      event.preventDefault();
      var address = new URL(form.action);
      address.search = formBody(form, event.submitter).toString();
      window.location.replace(address.href);
      return;
    }
    event.preventDefault();
    // A double tap sends one request; the server's one-time form key catches the rest.
    if (sending) { return; }
    sending = true;
    var button = event.submitter;
    send(form.action, formBody(form, button), tapName(form, button));
  });
  // What the Reconnecting… bar calls a send: the button tapped or, for a form that sent
  // itself, the words its template gives with the values chosen ("your roll 3 3 5 6 2",
  // the dice kept on one line).
  function tapName(form, button) {
    var label = button && (button.getAttribute("aria-label") || button.textContent.trim());
    if (label) { return say("your-tap", { label: label }); }
    var words = form.getAttribute("data-sent-as");
    if (!words) { return say("your-entry"); }
    var chosen = Array.prototype.map.call(form.querySelectorAll("input[type=radio]:checked"), function (input) {
      return input.value;
    });
    return words + " " + chosen.join("\u00a0");
  }
  // Coming back with the Back button restores the page as it was: sendable again.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { sending = false; }
  });

  // What the player entered but has not sent, to tell whether it still applies once
  // another phone recorded: the same form (its address, its fields and choices) for
  // the same seat.
  var entered = null;
  function shape(form, seat) {
    var parts = [new URL(form.action).pathname, seat];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || RENEWED[field.name]) { return; }
      var valued = field.type === "radio" || field.type === "checkbox" || field.type === "hidden" ||
        field.type === "submit";
      parts.push(field.type + ":" + field.name + (valued ? "=" + field.value : ""));
    });
    return parts.join("|");
  }
  function values(form) {
    var kept = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || RENEWED[field.name] || field.type === "submit" || field.type === "hidden") {
        return;
      }
      if (field.type === "radio" || field.type === "checkbox") {
        kept.push([field.name, field.value, field.checked]);
      } else {
        kept.push([field.name, field.value]);
      }
    });
    return kept;
  }
  function restore(form, kept) {
    kept.forEach(function (entry) {
      Array.prototype.forEach.call(form.elements, function (field) {
        if (field.name !== entry[0]) { return; }
        if (field.type === "radio" || field.type === "checkbox") {
          if (field.value === entry[1]) { field.checked = entry[2]; }
        } else {
          field.value = entry[1];
        }
      });
    });
  }
  function formShaped(root, wanted, seat) {
    return Array.prototype.find.call(root.querySelectorAll("form[method=post]"), function (form) {
      return shape(form, seat) === wanted;
    });
  }
  function onEntry(event) {
    if (event.target.form) { entered = event.target.form; }
  }
  document.addEventListener("input", onEntry);
  document.addEventListener("change", onEntry);

  // The entry kept across the reload below, put back where the same input is expected.
  (function putBackKeptEntry() {
    var saved = sessionStorage.getItem(KEPT_ENTRY);
    if (!saved) { return; }
    sessionStorage.removeItem(KEPT_ENTRY);
    var kept = JSON.parse(saved);
    var form = kept.page === window.location.pathname &&
      formShaped(document, kept.shape, body.getAttribute("data-expected-seat"));
    if (!form) { return; }
    restore(form, kept.values);
    entered = form;
    notice("changed", say("entry-kept"));
  })();

  function changedElsewhere(version) {
    var form = entered;
    var before = seen;
    // Asked once per version: the checks go on while the page is fetched.
    seen = version;
    var wanted = shape(form, body.getAttribute("data-expected-seat"));
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        // Newer still: the next check starts again from that version.
        if (fresh.body.getAttribute("data-version") !== version) { seen = before; return; }
        if (formShaped(fresh, wanted, fresh.body.getAttribute("data-expected-seat"))) {
          sessionStorage.setItem(KEPT_ENTRY, JSON.stringify(
            { page: window.location.pathname, shape: wanted, values: values(form) }));
          window.location.reload();
          return;
        }
        notice("changed", say("entry-stale"), say("show-table"), function () { window.location.reload(); });
      })
      .catch(function () { seen = before; });
  }

  // Live refresh: another phone may record. The version check is cheap (an ETag
  // revalidated by the browser, 304 while the session is unchanged), so it runs often
  // enough that another phone's entry shows within 2 seconds.
  if (versionUrl) {
    var checking = false;
    // While the server does not answer, a link tapped waits here instead of the
    // browser's "site can't be reached" page, and opens once the server is back.
    var offline = false;
    var waitingLink = null;
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[href]");
      if (!offline || !link || link.origin !== window.location.origin || link.hasAttribute("download")) {
        return;
      }
      event.preventDefault();
      waitingLink = link.href;
      notice("reconnecting", say("reconnecting-link", { link: link.textContent.trim() }));
    });
    pollTimer = window.setInterval(function () {
      if (checking || sending || document.hidden) { return; }
      checking = true;
      fetch(versionUrl, { cache: "no-cache", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          checking = false;
          offline = false;
          clearNotice("reconnecting");
          if (waitingLink) {
            window.location.href = waitingLink;
            return;
          }
          // Versions only rise: an older one is a worker that has not heard the news yet.
          if (!answer || answer.version <= Number(seen) || sending) { return; }
          if (entered) {
            changedElsewhere(String(answer.version));
          } else {
            window.location.reload();
          }
        })
        .catch(function () {
          checking = false;
          offline = true;
          if (!sending && !waitingLink) {
            notice("reconnecting", say("reconnecting"));
          }
        });
    }, RETRY_MS);
    keepAwake();
  }

  // Keep the screen awake at the table while a session page is open. The Wake Lock
  // API exists only in a secure context (HTTPS, or this computer itself); on plain
  // http over the Wi-Fi, a tiny muted looping video (the NoSleep.js technique) keeps
  // the phone awake. A phone may refuse to play it until the first tap.
  function keepAwake() {
    var video = null;
    function playVideo() {
      if (!video) {
        video = document.createElement("video");
        video.muted = true;
        video.setAttribute("muted", "");
        video.setAttribute("playsinline", "");
        video.setAttribute("title", say("awake"));
        ["webm", "mp4"].forEach(function (type) {
          var source = document.createElement("source");
          source.src = new URL("nosleep/nosleep." + type, script.src).href;
          source.type = "video/" + type;
          video.appendChild(source);
        });
        video.addEventListener("loadedmetadata", function () {
          if (video.duration <= 1) {
            video.loop = true;
          } else {
            // The longer mp4 never reaches its end, where some phones stop looping.
            video.addEventListener("timeupdate", function () {
              if (video.currentTime > 0.5) { video.currentTime = Math.random(); }
            });
          }
        });
      }
      if (video.paused) { video.play().catch(function () { /* waits for the first tap */ }); }
    }
    var lock = null;
    var asking = false;
    function ask() {
      if (document.visibilityState !== "visible" || lock || asking) { return; }
      if (!navigator.wakeLock) {
        playVideo();
        return;
      }
      asking = true;
      navigator.wakeLock.request("screen").then(function (sentinel) {
        asking = false;
        lock = sentinel;
        if (video) { video.pause(); }
        // The phone lets go of the lock whenever the page is hidden: asked again on return.
        sentinel.addEventListener("release", function () { lock = null; });
      }, function () {
        asking = false;
        playVideo();
      });
    }
    ask();
    document.addEventListener("visibilitychange", ask);
    document.addEventListener("click", ask);
    document.addEventListener("touchend", ask);
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

  // A form whose every radio group is answered sends itself: a Yardkle roll records
  // on its last die. requestSubmit() goes through the form's submit handlers and
  // sends its one-time key and version, as a tap on its button would.
  document.querySelectorAll("form[data-submit-when-complete]").forEach(function (form) {
    // Its button would only repeat what the last die does (it stays without this file).
    form.querySelectorAll("[data-only-without-script]").forEach(function (button) { button.hidden = true; });
    form.addEventListener("change", function () {
      var answered = {};
      form.querySelectorAll("input[type=radio]").forEach(function (input) {
        answered[input.name] = answered[input.name] || input.checked;
      });
      var names = Object.keys(answered);
      if (names.length && names.every(function (name) { return answered[name]; })) {
        form.requestSubmit();
      }
    });
  });

  // Seating a group's players: without this file each tap sends the form, which comes back
  // with the order so far; here a tap takes the next seat on the page, and a tap on a taken
  // seat frees it, so the form is sent once, to start the game.
  document.querySelectorAll("form[data-tap-seats]").forEach(function (form) {
    var seats = form.querySelector("ol.tapped");
    var none = form.querySelector(".tapped-none");
    var playersLeft = form.querySelector(".players-left");
    var maxSeats = Number(form.getAttribute("data-max-seats"));
    function renumber() {
      Array.prototype.forEach.call(seats.children, function (item, index) {
        item.querySelector("button").value = String(index);
        item.querySelector(".seat-n").textContent = String(index + 1);
      });
      none.hidden = seats.children.length > 0;
      playersLeft.hidden = seats.children.length >= maxSeats ||
        !form.querySelector("button[name=tap]:not([hidden])");
    }
    // A taken seat is made as the server writes one (templates/groups/play.html).
    function span(className, text) {
      var made = document.createElement("span");
      made.className = className;
      made.textContent = text;
      return made;
    }
    function seatFor(tap) {
      var item = document.createElement("li");
      var kept = document.createElement("input");
      kept.type = "hidden";
      kept.name = "seat";
      kept.value = tap.value;
      var untap = document.createElement("button");
      untap.type = "submit";
      untap.name = "untap";
      untap.className = "secondary seat-tap";
      var number = span("seat-number", "");
      number.appendChild(span("sr", say("seat") + " "));
      number.appendChild(span("seat-n", ""));
      var cross = span("", "\u2715");
      cross.setAttribute("aria-hidden", "true");
      untap.appendChild(number);
      untap.appendChild(document.createTextNode(" "));
      untap.appendChild(tap.querySelector(".player").cloneNode(true));
      untap.appendChild(span("sr", " " + say("free-seat")));
      untap.appendChild(cross);
      item.appendChild(kept);
      item.appendChild(untap);
      return item;
    }
    form.addEventListener("click", function (event) {
      var button = event.target.closest("button[name=tap], button[name=untap]");
      if (!button) { return; }
      event.preventDefault();
      if (button.name === "tap") {
        seats.appendChild(seatFor(button));
        button.hidden = true;
        renumber();
        // The next player to tap or, with every seat taken, the start button.
        var next = playersLeft.hidden
          ? form.querySelector("button[name=start]:not(.default-submit)")
          : form.querySelector("button[name=tap]:not([hidden])");
        if (next) { next.focus(); }
      } else {
        var item = button.closest("li");
        var id = item.querySelector("input[name=seat]").value;
        item.remove();
        var tap = form.querySelector("button[name=tap][value='" + id + "']");
        if (tap) { tap.hidden = false; }
        renumber();
        if (tap) { tap.focus(); }
      }
    });
  });

  // Times: the server writes them in UTC; show them in this phone's own time zone, the
  // UTC one kept as the tooltip. A form asking first (removing a scored session from this
  // phone ends its right to score there) asks before it is sent: its own listener runs
  // before the page's sending one (on the document), which leaves a cancelled form alone.
  // In the page's language when it is not English (an English page keeps the phone's own
  // English, "4 Dec" or "Dec 4").
  var pageLanguage = document.documentElement.lang;
  var localTime = new Intl.DateTimeFormat(pageLanguage && pageLanguage !== "en" ? pageLanguage : undefined,
    { dateStyle: "medium", timeStyle: "short" });
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
})();
