// The statistics' leaderboard (templates/groups/_stats.html) sorted in place on a tap of a
// column's heading, in the order the server gives for that column (the heading's
// data-order: the players' ids). The address and the head to head's form follow, so a
// reload or a comparison keeps the sort. Without this file each heading is a link to the
// page sorted by it.
(function () {
  "use strict";
  var table = document.getElementById("leaderboard");
  if (!table) { return; }
  var body = table.tBodies[0];
  var headings = table.querySelectorAll("thead th[data-order]");

  function markSorted(heading) {
    headings.forEach(function (other) {
      var link = other.querySelector("a");
      var arrow = other.querySelector(".sort-arrow");
      if (other !== heading) {
        other.removeAttribute("aria-sort");
        link.removeAttribute("aria-current");
        if (arrow) { arrow.remove(); }
        return;
      }
      var direction = other.getAttribute("data-direction");
      other.setAttribute("aria-sort", direction);
      link.setAttribute("aria-current", "true");
      if (!arrow) {
        arrow = document.createElement("span");
        arrow.className = "sort-arrow";
        arrow.setAttribute("aria-hidden", "true");
        arrow.textContent = direction === "descending" ? " ▼" : " ▲";
        other.appendChild(arrow);
      }
    });
  }

  // The head to head keeps the sort as its form sends it (none for the board's first sort).
  function keepInForm(sort) {
    var form = document.querySelector("form.duel");
    if (!form) { return; }
    var kept = form.querySelector("input[name=sort]");
    if (sort === null) {
      if (kept) { kept.remove(); }
      return;
    }
    if (!kept) {
      kept = document.createElement("input");
      kept.type = "hidden";
      kept.name = "sort";
      form.insertBefore(kept, form.firstChild);
    }
    kept.value = sort;
  }

  function sortBy(heading) {
    var rows = {};
    Array.prototype.forEach.call(body.rows, function (row) {
      rows[row.getAttribute("data-player")] = row;
    });
    heading.getAttribute("data-order").split(" ").forEach(function (player) {
      body.appendChild(rows[player]);
    });
    markSorted(heading);
  }

  headings.forEach(function (heading) {
    var link = heading.querySelector("a");
    link.addEventListener("click", function (event) {
      // A tap with a key held (a new tab, a new window) opens the link as usual.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
        return;
      }
      event.preventDefault();
      sortBy(heading);
      var address = new URL(link.href);
      history.replaceState(null, "", address.pathname + address.search + address.hash);
      keepInForm(address.searchParams.get("sort"));
    });
  });
})();
