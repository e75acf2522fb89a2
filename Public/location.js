// The examples' location row (Examples/formwright-examples/ExampleRowTypes.swift): beside each input
// marked data-location, a "use my location" button that asks the browser's geolocation and writes
// "latitude, longitude" into the input. Without this script, or without geolocation, the input is
// typed into as it is; the server reads both the same way. The texts come from the row's data
// attributes; what happens is said in a status region, so a screen reader hears it.
(function () {
  "use strict";
  if (typeof document === "undefined" || !("geolocation" in navigator)) return;

  function enhance(input) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "fw-location-button";
    button.textContent = input.dataset.location;
    const status = document.createElement("span");
    status.className = "fw-location-status";
    status.setAttribute("role", "status");
    button.addEventListener("click", () => {
      if (input.disabled) return;
      status.textContent = input.dataset.locationBusy;
      navigator.geolocation.getCurrentPosition(
        (position) => {
          const { latitude, longitude } = position.coords;
          input.value = latitude.toFixed(5) + ", " + longitude.toFixed(5);
          // The page script re-decides the form's conditions on input, as for a typed value.
          input.dispatchEvent(new Event("input", { bubbles: true }));
          input.dispatchEvent(new Event("change", { bubbles: true }));
          status.textContent = "";
        },
        () => { status.textContent = input.dataset.locationDenied; },
        { timeout: 10000, maximumAge: 60000 });
    });
    input.after(button, status);
  }

  function boot() { for (const input of document.querySelectorAll("input[data-location]")) enhance(input); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
