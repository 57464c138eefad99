// A new session's options (templates/sessions/_new_session.html): only the options of the
// mode the named seats give are shown, and the folded line reads the values as they are
// set. Without this file the page shows every option and its values as served.
(function () {
  "use strict";
  var details = document.querySelector("details[data-options]");
  if (!details) { return; }
  var form = details.closest("form");

  // The seats named: typed names on the new-session page, tapped players on a group's.
  function seated() {
    var tapped = form.querySelector("ol.tapped");
    if (tapped) { return tapped.children.length; }
    var named = 0;
    form.querySelectorAll("input[name^='seats-']").forEach(function (input) {
      if (input.value.trim()) { named += 1; }
    });
    return named;
  }

  // With no seat named yet the mode is open: every option shows. A refused option stays.
  function showMode() {
    var seats = seated();
    details.querySelectorAll("[data-seats]").forEach(function (element) {
      var range = element.getAttribute("data-seats").split(" ").map(Number);
      var refused = element.hasAttribute("data-refused");
      element.hidden = !refused && seats > 0 && (seats < range[0] || seats > range[1]);
    });
  }

  function valueText(name) {
    var field = document.getElementById(name);
    if (!field) { return ""; }
    if (field.tagName === "SELECT") {
      return field.selectedIndex < 0 ? "" : field.options[field.selectedIndex].text;
    }
    if (field.tagName === "UL") {
      var ticked = [];
      // Each ticked box by its label, as the page's language words it.
      field.querySelectorAll("input:checked").forEach(function (box) {
        ticked.push(box.labels && box.labels.length ? box.labels[0].textContent.trim() : box.value);
      });
      return ticked.join(details.getAttribute("data-separator") || ", ");
    }
    return field.value.trim();
  }

  function summarise() {
    details.querySelectorAll("summary [data-option]").forEach(function (part) {
      var text = valueText(part.getAttribute("data-option")) || part.getAttribute("data-blank");
      part.querySelector(".text").textContent = part.getAttribute("data-summary").replace("{}", text);
    });
  }

  form.addEventListener("input", function () { showMode(); summarise(); });
  form.addEventListener("change", function () { showMode(); summarise(); });
  var tapped = form.querySelector("ol.tapped");
  if (tapped) { new MutationObserver(showMode).observe(tapped, { childList: true }); }
  showMode();
  summarise();
})();
