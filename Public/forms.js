// Formwright's page script: live hidden / disabled / required conditions, decided exactly as the server
// decides them (docs/design.md, "The browser"), multivalued sections edited by keyboard, and an error summary
// kept true to the page. The page works without it; with it, the compiled predicates embedded as JSON
// (<script id="fw-rules">, see Sources/FormHTML/Rules/RulesJSON.swift) are re-evaluated on every input
// by Public/forms-rules.js (`FormwrightRules`), which the page loads first.
(function () {
  "use strict";
  if (typeof document === "undefined" || !globalThis.FormwrightRules) return;
  const { decodeTexts, itemValues, resolve } = globalThis.FormwrightRules;

  // ---- The page ----------------------------------------------------------------------------------

  // The texts a browser would post for these controls (HTML §4.10.21.4, constructing the entry list);
  // `initial` reads the markup's values, which are the server's.
  function postedTexts(controls, initial) {
    const texts = [];
    for (const c of controls) {
      if (c.hasAttribute("data-fw-query")) continue;  // a search field (a filter, a query): the row posts its select
      if (c.type === "checkbox" || c.type === "radio") { if (initial ? c.defaultChecked : c.checked) texts.push(c.value); }
      else if (c.tagName === "SELECT") {
        const chosen = [...c.options].filter((o) => (initial ? o.defaultSelected : o.selected));
        if (!chosen.length && initial && !c.multiple && c.options.length) chosen.push(c.options[0]);
        texts.push(...chosen.map((o) => o.value));
      } else if (c.type === "file") { if (c.files && c.files.length) texts.push(c.files[0].name); }
      else if (c.tagName === "INPUT" || c.tagName === "TEXTAREA") texts.push(initial ? c.defaultValue : c.value);
    }
    return texts;
  }

  // A step counter's − and + buttons (FieldRenderer.writeStepButtons) wait hidden until this script can
  // give them their job; they step the number input as its own arrows do, then say so as typing would.
  function steppers() {
    for (const button of document.querySelectorAll("button.fw-step[data-fw-step]")) {
      const input = document.getElementById(button.getAttribute("aria-controls"));
      if (!input) continue;
      button.hidden = false;
      button.addEventListener("click", () => {
        if (input.disabled) return;
        try { if (button.dataset.fwStep === "1") input.stepUp(); else input.stepDown(); } catch (e) { return; }
        input.dispatchEvent(new Event("input", { bubbles: true }));
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
    }
  }

  // A long select (FieldRenderer.writeSelect) gets a search field before it that hides the options whose
  // title does not hold what is typed; the choice made stays, and without this script the select is whole.
  function filters() {
    for (const select of document.querySelectorAll("select[data-fw-filter]")) {
      const search = document.createElement("input");
      search.type = "search";
      search.className = "fw-filter";
      search.setAttribute("aria-label", select.dataset.fwFilter);
      search.setAttribute("aria-controls", select.id);
      search.autocomplete = "off";
      // Not one of the row's values: the rules read the select alone (see postedTexts).
      search.setAttribute("data-fw-query", "");
      search.addEventListener("input", () => {
        const wanted = search.value.trim().toLocaleLowerCase();
        for (const option of select.options) {
          option.hidden = wanted !== "" && option.value !== "" && !option.selected
            && !option.text.toLocaleLowerCase().includes(wanted);
        }
      });
      select.before(search);
    }
  }

  function boot() {
    const summary = document.getElementById("fw-summary");
    steppers();
    filters();
    try {
      live(summary);
    } finally {
      // After a rejected post the summary lists what to fix; focus takes a screen reader straight there
      // (unless every error it lists is about a field the rules have hidden since).
      if (summary && !summary.hidden) summary.focus();
    }
  }

  function live(summary) {
    const form = document.getElementById("fw-form"), script = document.getElementById("fw-rules");
    if (!form || !script) return;
    let rules;
    try { rules = JSON.parse(script.textContent); } catch (e) { return; }
    if (rules.v !== 1) return;
    const zone = rules.timeZone;
    const CONTROLS = "input, select, textarea";

    const rows = rules.rows.map((rule) => {
      const wrapper = rule.id ? document.getElementById(rule.id + "-row") : null;
      const controls = wrapper ? [...wrapper.querySelectorAll("input, select, textarea, button")] : [];
      // `required` means "tick this box" on a check box of a group, and does not apply to a range.
      const requirable = controls.filter((c) => c.tagName !== "BUTTON" && c.type !== "range" && !c.hasAttribute("data-fw-query")
        && !(c.type === "checkbox" && rule.kind === "options"));
      const marker = wrapper && wrapper.querySelector(".fw-required");
      // The server's value, when the controls show another (what was typed before a refused post):
      // a row that becomes disabled shows and reads it, as the server keeps it (docs/submissions.md, rule 5).
      let server = null;
      try { if (wrapper && wrapper.dataset.fwServer) server = JSON.parse(wrapper.dataset.fwServer); } catch (e) { server = null; }
      // A group of check boxes says "required" in its legend, as no box can carry `required` (FieldRenderer).
      const spoken = wrapper && wrapper.querySelector(".fw-required-text");
      const disabled = controls.some((c) => c.disabled);
      return { rule, wrapper, controls, requirable, marker, spoken, disabled, server, shownDisabled: disabled, typed: null };
    });
    const sections = rules.sections.map((rule, s) => {
      const fieldset = document.getElementById(rule.id);
      const items = rule.multivaluedTag && fieldset ? itemsOf(fieldset, rule) : null;
      // Its rows: when they are all hidden, the section hides too (FormHTML's SectionRenderer.showsNoRow).
      const own = rule.multivaluedTag ? [] : rules.rows.flatMap((row, i) => (row.section === s ? [i] : []));
      return { rule, fieldset, rows: own, items };
    });
    const firstRow = (s) => rules.rows.findIndex((row) => row.section === s);

    function itemsOf(fieldset, rule) {
      const list = fieldset.querySelector(".fw-items"), add = fieldset.querySelector("button.fw-add");
      // "Add another" copies the server's pristine item (SectionRenderer+Items): a copy of a shown item
      // would keep its state, such as a refused value's `type="text"` without its bounds. With none,
      // the button posts and the server adds the item.
      const holder = fieldset.querySelector("template.fw-item-template");
      const template = holder ? holder.content.querySelector("[data-fw-item]") : null;
      const first = list && list.querySelector("[data-fw-item]");
      const control = first && first.querySelector(CONTROLS);
      const sample = control || (template && template.querySelector(CONTROLS));
      return { list, add, template, base: sample ? sample.id.replace(/-\d+$/, "") : null, cap: rule.maxItems ?? Infinity,
        disabledAtLoad: !!(control && control.disabled) };
    }

    const controlsOf = (item) => [...item.querySelectorAll(CONTROLS)];
    const io = {
      value: (i) => (rows[i].wrapper
        ? decodeTexts(rows[i].rule.kind, postedTexts(rows[i].controls, false), rows[i].rule.keepsBlank, zone) : null),
      serverValue: (i) => (rows[i].wrapper
        ? decodeTexts(rows[i].rule.kind, serverTexts(rows[i]), rows[i].rule.keepsBlank, zone) : null),
      disabled: (i) => {
        if (rows[i].wrapper) return rows[i].disabled;
        const items = sections[rules.rows[i].section].items;  // drawn as items, disabled together
        return !!(items && items.disabledAtLoad);
      },
      // The section's own constant: its fieldset's `hidden` also says whether all its rows are hidden.
      sectionHidden: (s) => sections[s].rule.hidden === true,
      items: (s) => {
        const mv = sections[s].items;
        if (!mv || !mv.list) return [];
        const rule = sections[s].rule;
        return itemValues(rule.itemKind, postedTexts(controlsOf(mv.list), false), mv.cap, rule.itemKeepsBlank, zone);
      },
    };

    // The error summary's entries, each with the control its link leads to (FormLayout+Parts). A
    // section's own error (`data-fw-first-item`) leads to the first item of its list, whichever that is.
    const entries = summary ? [...summary.querySelectorAll("li")].map((li) => {
      const link = li.querySelector("a[href^='#']");
      const target = link ? document.getElementById(link.getAttribute("href").slice(1)) : null;
      const list = link && link.hasAttribute("data-fw-first-item") && target ? target.closest(".fw-items") : null;
      return { li, link, target, list };
    }) : [];
    const heading = summary && summary.querySelector("#fw-summary-title");

    // Keeps the summary true to the page: a link follows its control when items are renumbered, an
    // item's errors leave with it, an error whose field is hidden or disabled is hidden while it is
    // (its link would lead nowhere), the heading counts what is shown, and an empty summary hides.
    // Only what changes is written: the summary is a live region (role=alert).
    // The summary lists errors in page order, as the server writes it; moving an item changes the page's
    // order, so the entries of fields follow. Entries with no field (about the whole form) keep their
    // places. Nothing is touched while the order holds: the summary is a live region.
    function keepPageOrder() {
      const placed = entries.filter((e) => e.li.isConnected && (e.target || e.list));
      const before = (a, b) => !!((a.target || a.list).compareDocumentPosition(b.target || b.list)
        & Node.DOCUMENT_POSITION_FOLLOWING);
      const sorted = [...placed].sort((a, b) => (a === b ? 0 : before(a, b) ? -1 : 1));
      if (sorted.every((e, k) => e === placed[k])) return;
      const slots = placed.map((e) => entries.indexOf(e));
      const marks = placed.map((e) => { const m = document.createComment(""); e.li.before(m); return m; });
      sorted.forEach((e, k) => { marks[k].replaceWith(e.li); entries[slots[k]] = e; });
    }

    function updateSummary() {
      if (!summary) return;
      let shown = 0;
      for (const entry of entries) {
        if (!entry.li.isConnected) continue;
        if (entry.list) entry.target = entry.list.querySelector("[data-fw-item] input, [data-fw-item] select, [data-fw-item] textarea");
        else if (entry.target && !entry.target.isConnected) { entry.li.remove(); continue; }
        if (entry.link) {
          const href = entry.target ? "#" + entry.target.id : null;
          if (entry.link.getAttribute("href") !== href) {
            if (href) entry.link.setAttribute("href", href); else entry.link.removeAttribute("href");
          }
        }
        // An item's error names the item as its label now does ("Address 1" once Address 1 is removed).
        const item = entry.target && !entry.list ? entry.target.closest("[data-fw-item]") : null;
        if (item) nameItem(entry.li, itemName(item));
        const place = entry.target || entry.list;
        const away = !!place && (!!place.disabled || !!place.closest("[hidden]"));
        if (entry.li.hidden !== away) entry.li.hidden = away;
        if (!away) shown++;
      }
      keepPageOrder();
      if (summary.hidden !== (shown === 0)) summary.hidden = shown === 0;
      updateTitle(shown > 0);
      if (!shown || !heading || !heading.hasAttribute("data-fw-one")) return;
      const key = shown === 1 ? "one" : "several";
      const text = heading.getAttribute("data-fw-" + key).replace("%d", String(shown));
      if (heading.textContent !== text) heading.textContent = text;
      const lang = heading.getAttribute("data-fw-" + key + "-lang");
      if (lang && heading.getAttribute("lang") !== lang) heading.setAttribute("lang", lang);
      else if (!lang && heading.hasAttribute("lang")) heading.removeAttribute("lang");
    }


    // The page's title starts "Error: " while the summary shows an error (PageShell), and only then: a
    // screen reader hears the title first, and it must not say there are problems when none is left.
    const title = document.querySelector("title[data-fw-error-prefix]");
    const errorPrefix = title ? title.getAttribute("data-fw-error-prefix") : "";
    const plainTitle = title && title.textContent.startsWith(errorPrefix)
      ? title.textContent.slice(errorPrefix.length) : title ? title.textContent : "";
    function updateTitle(errors) {
      if (!title) return;
      const text = errors ? errorPrefix + plainTitle : plainTitle;
      if (title.textContent !== text) title.textContent = text;
    }

    // An inline error whose row or item is disabled or hidden is put away while it is, as its summary
    // entry is: the paragraph hidden, its id out of its controls' aria-describedby (a description is
    // read even from a hidden element) and aria-invalid off. It comes back with its row: the server's
    // verdict stands until the next post. A control keeps in data-fw-error-away what it had.
    function updateErrors() {
      for (const error of form.querySelectorAll(".fw-error[id]")) {
        const holder = error.parentElement.closest(".fw-item, .fw-row, .fw-section");
        if (!holder) continue;
        // A section's own error (too many items) describes its fieldset, and is about its items.
        const own = holder.classList.contains("fw-section");
        const subjects = own ? [holder] : [...holder.querySelectorAll(CONTROLS)];
        const judged = own ? [...holder.querySelectorAll(".fw-items [data-fw-item] :is(" + CONTROLS + ")")] : subjects;
        const away = !!error.parentElement.closest("[hidden]") || (judged.length > 0 && judged.every((c) => c.disabled));
        if (error.hidden === away) continue;
        error.hidden = away;
        for (const subject of subjects) {
          const ids = (subject.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
          if (away && ids.includes(error.id)) {
            subject.setAttribute("data-fw-error-away", subject.getAttribute("aria-invalid") === "true" ? "invalid" : "");
            const rest = ids.filter((x) => x !== error.id);
            if (rest.length) subject.setAttribute("aria-describedby", rest.join(" "));
            else subject.removeAttribute("aria-describedby");
            subject.removeAttribute("aria-invalid");
          } else if (!away && subject.hasAttribute("data-fw-error-away")) {
            // The error comes last, after the help, as FieldView.describedBy lists them.
            subject.setAttribute("aria-describedby", [...ids, error.id].join(" "));
            if (subject.getAttribute("data-fw-error-away") === "invalid") subject.setAttribute("aria-invalid", "true");
            subject.removeAttribute("data-fw-error-away");
          }
        }
      }
    }

    const serverTexts = (row) => row.server ?? postedTexts(row.controls, true);

    // What the controls hold, to put back when a row that was disabled live is enabled again.
    const snapshot = (controls) => controls.map((c) => (c.type === "checkbox" || c.type === "radio" ? c.checked
      : c.tagName === "SELECT" ? [...c.options].map((o) => o.selected) : c.value));
    function restore(controls, saved) {
      controls.forEach((c, k) => {
        if (c.type === "checkbox" || c.type === "radio") c.checked = saved[k];
        else if (c.tagName === "SELECT") [...c.options].forEach((o, n) => { o.selected = saved[k][n]; });
        else if (c.type !== "file") c.value = saved[k];
        if (c.type === "range") showRange(c);
      });
    }
    // Shows `texts` (what a browser would post) in the controls.
    function show(controls, texts) {
      for (const c of controls) {
        if (c.type === "checkbox" || c.type === "radio") c.checked = texts.includes(c.value);
        else if (c.tagName === "SELECT") for (const o of c.options) o.selected = texts.includes(o.value);
        else if (c.type !== "file" && c.tagName !== "BUTTON") c.value = texts[0] ?? "";
        if (c.type === "range") showRange(c);
      }
    }

    // A row disabled live shows the value the server keeps for it; enabled again, what was typed.
    // Returns whether what the row shows changed (its conditions' readers must then be decided again).
    function setDisabled(row, disabled) {
      if (disabled === row.shownDisabled) return false;
      row.shownDisabled = disabled;
      const inputs = row.controls.filter((c) => c.tagName !== "BUTTON");
      if (disabled) { row.typed = snapshot(inputs); show(inputs, serverTexts(row)); }
      else if (row.typed) { restore(inputs, row.typed); row.typed = null; }
      return true;
    }

    function refresh(again = true) {
      const verdict = resolve(rules, io);
      let changed = false;
      rows.forEach((row, i) => {
        if (!row.wrapper) return;
        row.wrapper.hidden = verdict.rowHidden[i];
        if (row.rule.disabled) {
          if (setDisabled(row, verdict.rowDisabled[i])) changed = true;
          for (const c of row.controls) c.disabled = verdict.rowDisabled[i];
        }
        const required = verdict.rowRequired[i];
        if (required === null) return;
        for (const c of row.requirable) c.required = required;
        if (row.spoken) row.spoken.hidden = !required;
        if (row.marker) {
          // A shown marker is hidden from screen readers (they hear `required`); a hidden one needs no aria-hidden.
          row.marker.hidden = !required;
          if (required) row.marker.setAttribute("aria-hidden", "true"); else row.marker.removeAttribute("aria-hidden");
        }
      });
      sections.forEach((section, s) => {
        // A section whose rows are all hidden would be an empty card, and an empty group to a screen reader.
        const empty = section.rows.length > 0 && section.rows.every((i) => verdict.rowHidden[i]);
        if (section.fieldset) section.fieldset.hidden = verdict.sectionHidden[s] || empty;
        if (!section.items) return;
        // Items follow their section's first row, as FormHTML draws them; buttons only while enabled.
        const first = firstRow(s);
        updateItems(section.items, first >= 0 && verdict.rowDisabled[first]);
      });
      updateErrors();
      updateSummary();
      // A row enabled again shows what was typed, which conditions read: decide once more with it.
      if (changed && again) refresh(false);
    }

    function updateItems(mv, disabled) {
      if (!mv.list) return;
      const items = [...mv.list.querySelectorAll("[data-fw-item]")];
      items.forEach((item, k) => {
        renumber(item, mv.base, k);
        for (const c of controlsOf(item)) c.disabled = disabled;
        for (const b of item.querySelectorAll("button[data-fw-action]")) {
          b.hidden = disabled;
          // The first item cannot move up, nor the last down: the button says so (`aria-disabled`) and
          // does nothing. It stays focusable, so focus stays on a Move button that reaches an end.
          const action = b.getAttribute("data-fw-action");
          const end = (action === "up" && k === 0) || (action === "down" && k === items.length - 1);
          if (end) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
        }
      });
      if (mv.add) mv.add.hidden = disabled || items.length >= mv.cap;
    }

    // Item k's control is `base-k`, its help `base-k-help`, its label "Title k+1", and so is the name
    // its buttons carry for screen readers ("Remove Title k+1"): what FormHTML would draw at that position.
    function renumber(item, base, k) {
      const control = item.querySelector(CONTROLS);
      const old = control ? control.id : "", id = base + "-" + k;
      if (control && base && old !== id) {
        const renamed = (x) => (x === old || x.startsWith(old + "-") ? id + x.slice(old.length) : x);
        for (const el of item.querySelectorAll("[id]")) el.id = renamed(el.id);
        for (const el of item.querySelectorAll("[for], [aria-describedby]")) {
          if (el.getAttribute("for") === old) el.setAttribute("for", id);
          const describedBy = el.getAttribute("aria-describedby");
          if (describedBy) el.setAttribute("aria-describedby", describedBy.split(" ").map(renamed).join(" "));
        }
      }
      const names = [item.querySelector("label, legend"), ...item.querySelectorAll("button[data-fw-action] .fw-visually-hidden")];
      for (const name of names) {
        const text = name && [...name.childNodes].filter((n) => n.nodeType === 3).pop();
        const data = text && text.data.replace(/ \d+$/, " " + (k + 1));
        if (text && data !== text.data) text.data = data;
      }
      for (const error of item.querySelectorAll(".fw-error")) nameItem(error, itemName(item));
    }

    // The server marks the item an error names (`data-fw-item-name`, FieldRenderer.writeErrors): a
    // localised message may put it anywhere ("Address 2必须是…").
    function nameItem(scope, name) {
      if (!name) return;
      for (const span of scope.querySelectorAll("[data-fw-item-name]")) if (span.textContent !== name) span.textContent = name;
    }

    // "Tag 2": an item's name as its label shows it, without the required marker.
    function itemName(item) {
      const label = item.querySelector("label, legend");
      return label ? [...label.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join("").trim() : "";
    }

    // Says what an item action did, in the page's polite live region (FormLayout.writeAnnouncer): focus
    // lands on another control, which alone does not tell a screen reader that an item came or went.
    const status = document.getElementById("fw-status");
    function announce(key, name) {
      const text = status && status.getAttribute("data-fw-" + key);
      if (!text) return;
      const lang = status.getAttribute("data-fw-" + key + "-lang");
      const parts = [];
      text.split("{item}").forEach((part, i) => {
        if (i > 0) parts.push(name);
        if (!part) return;
        if (!lang) return parts.push(part);
        const span = document.createElement("span");
        span.lang = lang;  // the fixed text, in its own language; the item's name is in the page's
        span.textContent = part;
        parts.push(span);
      });
      status.replaceChildren(...parts);
    }

    function onItemAction(button) {
      const item = button.closest("[data-fw-item]"), list = item && item.parentElement;
      const section = sections.find((x) => x.items && x.items.list === list);
      if (!section) return;
      const mv = section.items, action = button.getAttribute("data-fw-action");
      if (action === "remove") {
        const name = itemName(item), next = item.nextElementSibling, previous = item.previousElementSibling;
        item.remove();
        refresh();
        // Focus goes on in reading order, so the keyboard user is not lost: the next item's Remove, else
        // "Add another", else the item before's Remove, else the section.
        const remove = (other) => (other ? other.querySelector("button[data-fw-action='remove']:not([hidden])") : null);
        const target = remove(next) || (mv.add && !mv.add.hidden ? mv.add : null) || remove(previous);
        if (target) target.focus();
        else if (section.fieldset) { section.fieldset.tabIndex = -1; section.fieldset.focus(); }
        announce("removed", name);
      } else {
        const sibling = action === "up" ? item.previousElementSibling : item.nextElementSibling;
        if (!sibling || button.getAttribute("aria-disabled") === "true") return;  // at an end: nothing to do, or say
        list.insertBefore(item, action === "up" ? sibling : sibling.nextElementSibling);
        refresh();
        button.focus();  // moving a node drops its focus
        announce(action, itemName(item));
      }
    }

    function onAdd(event, mv) {
      const count = mv.list.querySelectorAll("[data-fw-item]").length;
      if (!mv.template || count >= mv.cap) return;  // without a template the server adds one
      event.preventDefault();
      const item = document.importNode(mv.template, true);
      mv.list.appendChild(item);
      refresh();
      for (const range of item.querySelectorAll("input[type=range]")) showRange(range);
      const control = item.querySelector(CONTROLS);
      if (control) control.focus();
      announce("added", itemName(item));
    }

    // A slider's <output> shows its value: the browser's, which may differ from the markup's (a value
    // restored on back/forward, or one the browser clamped or snapped to a step).
    function showRange(range) {
      const output = document.getElementById(range.id + "-output");
      if (output && output.value !== range.value) output.value = range.value;
    }

    form.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button || !form.contains(button)) return;
      if (button.hasAttribute("data-fw-action")) onItemAction(button);
      const mv = sections.map((x) => x.items).find((x) => x && x.add === button);
      if (mv) onAdd(event, mv);
    });
    const onInput = (event) => {
      if (event.target.type === "range") showRange(event.target);
      refresh();
    };
    form.addEventListener("input", onInput);
    form.addEventListener("change", onInput);
    // A file over the server's limit would come back refused with the row's message (`fileTooLarge`):
    // say it as soon as the file is chosen, and keep a post from sending it. The form is `novalidate`,
    // so the browser's own check never runs; a row hidden or disabled posts nothing and is not held up.
    const UPLOAD = "input[type=file][data-fw-max-bytes]";
    const fitsLimit = (input) => {
      const limit = Number(input.dataset.fwMaxBytes);
      const over = [...(input.files || [])].some((file) => file.size > limit);
      input.setCustomValidity(over ? input.dataset.fwTooLarge || "" : "");
      return !over;
    };
    form.addEventListener("change", (event) => {
      if (event.target.matches(UPLOAD) && !fitsLimit(event.target)) event.target.reportValidity();
    });
    form.addEventListener("submit", (event) => {
      const over = [...form.querySelectorAll(UPLOAD)]
        .find((input) => !input.disabled && !input.closest("[hidden]") && !fitsLimit(input));
      if (!over) return;
      event.preventDefault();
      over.focus();
      over.reportValidity();
    });
    for (const b of form.querySelectorAll("button[data-fw-action]")) b.hidden = false;
    for (const range of form.querySelectorAll("input[type=range]")) showRange(range);
    refresh();
    // A page reloaded on back/forward gets the values it held put back after `load`, just before
    // `pageshow`, and no event says so: decide again then, or the page shows states and slider outputs
    // of the markup's values (a row hidden that the restored values show).
    window.addEventListener("pageshow", () => {
      for (const range of form.querySelectorAll("input[type=range]")) showRange(range);
      refresh();
    });
  }

  boot();
})();
