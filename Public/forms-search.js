// A selector whose options come from an option source (FieldRenderer.writeSearch): without this script
// the reader types, presses Search and chooses among the matches the server sends back in a select. With
// it, the search field is an ARIA combobox (WAI-ARIA APG, "combobox with listbox popup", list
// autocomplete): matches are asked of GET /forms/{id}/options/{tag}?q= as the reader types, arrow keys
// move through them, Enter or a click chooses, Escape closes. The choice goes into the row's select,
// kept hidden, so the page posts exactly what it posts without the script.
(function () {
  "use strict";
  if (typeof document === "undefined" || typeof fetch === "undefined") return;

  function enhance(box) {
    const input = box.querySelector("input[data-fw-query]");
    const button = box.querySelector("button.fw-search-button");
    const row = box.closest(".fw-row");
    if (!input || !button || !row || !box.dataset.fwSearch) return;
    // The server always writes the row's select (hidden while it holds nothing), so the page script,
    // which loads first, reads and disables it with the row.
    const select = row.querySelector("select");
    if (!select) return;
    select.hidden = true;
    select.tabIndex = -1;
    button.hidden = true;
    for (const part of row.querySelectorAll(".fw-search-label, .fw-search-note")) part.hidden = true;

    const listbox = document.createElement("ul");
    listbox.id = input.id + "-listbox";
    listbox.className = "fw-listbox";
    listbox.setAttribute("role", "listbox");
    const label = row.querySelector("label[for='" + input.id + "']");
    if (label) { label.id = label.id || input.id + "-label"; listbox.setAttribute("aria-labelledby", label.id); }
    listbox.hidden = true;
    const status = document.createElement("span");
    status.className = "fw-visually-hidden";
    status.setAttribute("role", "status");
    box.append(listbox, status);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", listbox.id);

    let options = [], active = -1, timer = null, asked = 0;

    function render() {
      listbox.replaceChildren(...options.map((option, i) => {
        const item = document.createElement("li");
        item.id = listbox.id + "-" + i;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", String(i === active));
        item.textContent = option.title;
        // mousedown, not click: the input would lose focus (and the list close) before a click lands.
        item.addEventListener("mousedown", (event) => { event.preventDefault(); choose(option); });
        return item;
      }));
      listbox.hidden = options.length === 0;
      input.setAttribute("aria-expanded", String(!listbox.hidden));
      if (active >= 0) {
        input.setAttribute("aria-activedescendant", listbox.id + "-" + active);
        listbox.children[active].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    // Closing or choosing also drops any answer still on its way: it must not open a stale list.
    function close() { asked++; options = []; active = -1; render(); }

    function choose(option) {
      select.replaceChildren(new Option(option.title, option.value, true, true));
      input.value = option.title;
      close();
      status.textContent = "";
      // The page script decides the form's conditions again, as for any change.
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }

    // Typing after a choice takes it back: what is posted must be what the field shows.
    function unchoose() {
      if (select.value === "") return;
      select.replaceChildren(new Option("", "", true, true));
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }

    async function search(query) {
      const mine = ++asked;
      try {
        const answer = await fetch(box.dataset.fwSearch + "?q=" + encodeURIComponent(query),
          { headers: { Accept: "application/json" } });
        if (mine !== asked) return;  // a later keystroke asked again: its answer counts
        if (!answer.ok) { close(); status.textContent = box.dataset.fwUnavailable; return; }
        options = (await answer.json()).options || [];
        active = -1;
        render();
        status.textContent = options.length ? "" : box.dataset.fwNone.replace("{query}", () => query);
      } catch (error) {
        if (mine === asked) { close(); status.textContent = box.dataset.fwUnavailable; }
      }
    }

    input.addEventListener("input", () => {
      unchoose();
      clearTimeout(timer);
      const query = input.value.trim();
      if (!query) { close(); return; }
      timer = setTimeout(() => search(query), 150);
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        if (!options.length) { if (input.value.trim()) search(input.value.trim()); return; }
        const step = event.key === "ArrowDown" ? 1 : -1;
        active = active < 0 && step < 0 ? options.length - 1 : (active + step + options.length) % options.length;
        render();
      } else if (event.key === "Enter" && !listbox.hidden) {
        event.preventDefault();  // choosing, not sending the form
        if (active >= 0) choose(options[active]);
      } else if (event.key === "Escape" && !listbox.hidden) {
        event.preventDefault();
        close();
      }
    });
    input.addEventListener("blur", () => { setTimeout(close, 100); });
  }

  function boot() { for (const box of document.querySelectorAll(".fw-search[data-fw-search]")) enhance(box); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
