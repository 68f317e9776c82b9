// Before the page is drawn: the colours the host chose with the header's switch, if any (the
// device's light or dark setting otherwise). Loaded blocking, so no page flashes the wrong theme,
// nor the controls only a page without scripts needs (``.without-script``).
(function () {
  "use strict";
  document.documentElement.dataset.script = "on";
  try {
    const chosen = localStorage.getItem("shoebook-theme");
    if (chosen === "dark" || chosen === "light") document.documentElement.dataset.theme = chosen;
  } catch (error) { /* storage refused: follow the device */ }
})();
