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
      setTimeout(function () { button.textContent = label; }, 1600);
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
