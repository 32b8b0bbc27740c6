// Progressive enhancements only: every page works without this file.
// A "copy" button next to each permalink field copies the link.
document.querySelectorAll("[data-copy]").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    var done = function () {
      var label = button.textContent;
      button.textContent = button.getAttribute("data-copied") || label;
      var status = document.getElementById(button.getAttribute("data-copy") + "-status");
      if (status) status.textContent = button.getAttribute("data-copied") || "";
      setTimeout(function () { button.textContent = label; if (status) status.textContent = ""; }, 1600);
    };
    if (navigator.clipboard) {
      navigator.clipboard.writeText(field.value).then(done);
    } else {
      field.select();
      document.execCommand("copy");
      done();
    }
  });
});

// Type-to-filter: a search box with data-filter-list hides the list's items that do not hold
// every typed word. Without this file the box submits and the server narrows the list.
document.querySelectorAll("[data-filter-list]").forEach(function (input) {
  var list = document.getElementById(input.getAttribute("data-filter-list"));
  if (!list) return;
  var items = Array.prototype.slice.call(list.querySelectorAll("[data-filter-text]"));
  input.addEventListener("input", function () {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    items.forEach(function (item) {
      var text = item.getAttribute("data-filter-text").toLowerCase();
      item.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
    });
  });
});
