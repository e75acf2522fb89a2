// Holds Public/forms-rules.js (the rules Public/forms.js applies in the page) to the server, in two parts.
//
// 1. The predicate corpus (Tests/Predicates): every case's AST comes from the Swift parser (`formwright predicate`
//    answering `"ast": true` lines), forms-rules.js's evaluator runs it, and its answer must equal both the
//    case's `expect` and the Swift evaluator's own answer. A predicate that does not parse is the
//    parser's error, shared by both sides: the browser never receives one.
// 2. The fact walk: `formwright serve --explain` serves the example forms plus two made for this test;
//    for a handful of submissions per form, forms-rules.js's `resolve` (fed the rules JSON of the real page
//    and the posted texts) must give every row's hidden, disabled and required state, and every
//    section's hidden state, exactly as `POST /forms/{id}/explain` reports them.
//
//   node Tests/JavaScript/conformance.mjs .build/debug/formwright [Tests/Predicates/cases.jsonl]
//
// The binary may also come from FORMWRIGHT_BIN and the corpus from PREDICATE_CORPUS. The last line is
// `N passed, M failed`; the exit status is 1 when anything failed.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const forms = createRequire(import.meta.url)(join(root, "Public/forms-rules.js"));
const bin = process.argv[2] ?? process.env.FORMWRIGHT_BIN;
const corpusPath = process.argv[3] ?? process.env.PREDICATE_CORPUS ?? join(root, "Tests/Predicates/cases.jsonl");
if (!bin) {
  console.error("usage: node conformance.mjs <formwright binary> [cases.jsonl]   (or FORMWRIGHT_BIN)");
  process.exit(2);
}

let passed = 0, failed = 0, shown = 0;
function check(ok, what) {
  if (ok) passed++;
  else {
    failed++;
    if (shown++ < 25) console.log("FAIL " + what);
  }
}

// ---- 1. The corpus ------------------------------------------------------------------------------

function corpus() {
  const cases = readFileSync(corpusPath, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  // Two requests per case: the Swift verdict, then the AST.
  const input = cases.map((c) => JSON.stringify({ predicate: c.predicate, vars: c.vars }) + "\n"
    + JSON.stringify({ predicate: c.predicate, ast: true }) + "\n").join("");
  const run = spawnSync(bin, ["predicate"], { input, encoding: "utf8", maxBuffer: 1 << 28 });
  const lines = run.stdout.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  if (lines.length !== 2 * cases.length) {
    console.log(`formwright predicate answered ${lines.length} lines for ${2 * cases.length} requests (exit ${run.status})`);
    process.exit(1);
  }
  const before = passed;
  cases.forEach((c, k) => {
    const swift = "error" in lines[2 * k] ? "error" : String(lines[2 * k].result);
    const answer = lines[2 * k + 1];
    let js;
    if (!("ast" in answer)) js = "error";  // a parse error: no AST reaches a browser
    else {
      try {
        js = String(forms.evaluate(answer.ast, (i) => {
          const name = answer.ast.vars[i].name;
          return Object.prototype.hasOwnProperty.call(c.vars, name) ? c.vars[name] : undefined;
        }));
      } catch (e) {
        js = e instanceof forms.PredicateError ? "error" : "crash: " + e.stack;
      }
    }
    check(js === c.expect && js === swift,
      `${c.id}: ${c.predicate}  vars=${JSON.stringify(c.vars)}  expect=${c.expect} swift=${swift} js=${js}`);
  });
  console.log(`corpus: ${passed - before}/${cases.length} cases agree with the expectation and the Swift evaluator`);
}

// Beyond the corpus: corners the port must also get right, checked against the Swift answer alone.
const DIFFERENTIAL = [
  ["$s MATCHES '[]a]+'", { s: "]a]" }], ["$s MATCHES '[^]]'", { s: "]" }], ["$s MATCHES '.'", { s: "\u0085" }],
  ["$s MATCHES 'a{2,3}?b'", { s: "aaab" }], ["$s MATCHES 'a++'", { s: "aa" }], ["$s MATCHES '(?<n>ab)+'", { s: "abab" }],
  ["$s MATCHES '(?=a)a'", { s: "a" }], ["$s MATCHES '\\x{1F600}'", { s: "\u{1F600}" }], ["$s MATCHES '[\\b]'", { s: "b" }],
  ["$s MATCHES '\\bfoo\\b.*'", { s: "foo bar" }], ["$s MATCHES '\\p{Lu}\\p{Ll}+'", { s: "Ölfass" }],
  ["$s MATCHES[c] '[a-z]+'", { s: "ÀB" }], ["$s MATCHES[c] 'straße'", { s: "STRASSE" }], ["$s MATCHES 'a{1001}'", { s: "a" }],
  ["$s MATCHES '(a|)*'", { s: "aa" }], ["$s MATCHES '()*'", { s: "" }], ["$s MATCHES '\\0101'", { s: "A" }],
  ["$s MATCHES[cd] 'cafe'", { s: "CAFÉ" }], ["$s MATCHES[d] 'café'", { s: "cafe" }], ["$s MATCHES '[z-a]'", { s: "a" }],
  ["$s ==[c] 'οδος'", { s: "ΟΔΟΣ" }], ["$s CONTAINS[c] 'σ'", { s: "ΟΔΟΣ" }], ["$s < $t", { s: "\uFFFF", t: "\u{1F600}" }],
  ["$s BEGINSWITH[cd] 'ang'", { s: "Ångström" }], ["$s LIKE[c] '*SS'", { s: "straße" }], ["$s LIKE '?'", { s: "\u{1F600}" }],
  ["$n.stringValue == $t", { n: 1e15, t: "1e+15" }], ["$n.stringValue == $t", { n: 0.00001, t: "1e-05" }],
  ["$n.stringValue == $t", { n: 2 ** 53, t: "9007199254740992.0" }], ["$n.stringValue == $t", { n: 1234567890123456.7, t: "1234567890123456.8" }],
  ["$s.doubleValue == 0.5", { s: " \t.5e" }], ["$s.intValue == -3", { s: "-3.9x" }], ["$s + 1 == 2", { s: "1e-" }],
  ["$s > 2", { s: "  3abc" }], ["$s.length == 2", { s: "\u{1F600}" }], ["1 ** ($x / $x) == 1", { x: 0 }], ["(-1) ** $x == 1", { x: "1e999" }],
  ["$a.@max.x == 'b'", { a: [{ x: "a" }, { x: "b" }, { x: null }] }], ["$a.@avg.x == nil", { a: [{ y: 1 }] }],
  ["$a[1.5] == 1", { a: [1, 2] }], ["$a[TRUE] == 2", { a: [1, 2] }], ["$d['k'] == nil", { d: {} }], ["$d[SIZE] == 1", { d: { k: 1 } }],
  ["ANY $d == 2", { d: { a: 1, b: 2 } }], ["$x IN {1, $y.z}", { x: 1, y: null }], ["$x IN {$y.z, 1}", { x: 1, y: null }],
  ["$x BETWEEN {$lo, $hi}", { x: 1, lo: [1], hi: 2 }], ["$x BETWEEN {$lo, $hi}", { x: 0, lo: 1, hi: [2] }],
  ["ALL $a MATCHES '('", { a: [] }], ["ALL $a MATCHES $p", { a: [], p: "(" }], ["$n MATCHES '('", { n: null }],
];

function differential() {
  const input = DIFFERENTIAL.map(([predicate, vars]) => JSON.stringify({ predicate, vars }) + "\n"
    + JSON.stringify({ predicate, ast: true }) + "\n").join("");
  const lines = spawnSync(bin, ["predicate"], { input, encoding: "utf8" }).stdout.split("\n").filter((l) => l).map((l) => JSON.parse(l));
  const before = passed;
  DIFFERENTIAL.forEach(([predicate, vars], k) => {
    const swift = "error" in lines[2 * k] ? "error" : String(lines[2 * k].result);
    let js = "error";
    if ("ast" in lines[2 * k + 1]) {
      const ast = lines[2 * k + 1].ast;
      try { js = String(forms.evaluate(ast, (i) => vars[ast.vars[i].name])); } catch (e) {
        js = e instanceof forms.PredicateError ? "error" : "crash: " + e.stack;
      }
    }
    check(js === swift, `differential: ${predicate}  vars=${JSON.stringify(vars)}  swift=${swift} js=${js}`);
  });
  console.log(`differential: ${passed - before}/${DIFFERENTIAL.length} further predicates answered as Swift answers them`);
}

// ---- 2. The fact walk against the server --------------------------------------------------------

// A form that reads every kind of fact: values of several kinds (a decimal the server reads as
// 0.06999999999999999, a date, a duration, a multivalued section's items), a hidden row's value
// (null under `clear`), isHidden and isDisabled, a disabled row's server value, a section's
// condition with a constant-hidden row inside, a MATCHES[c], required conditions, and date-times read
// as instants in the form's zone (offsets, `Z`, the autumn overlap, the spring gap).
const LIVE = `
id: live
title: Live conditions
timeZone: Europe/Paris
sections:
  - title: Basics
    rows:
      - { tag: kind, type: selectorPush, title: Kind, options: [{ value: a, title: A }, { value: b, title: B }] }
      - { tag: price, type: decimal, title: Price }
      - { tag: cheap, type: text, title: Cheap, hidden: "$price == nil OR $price >= 0.07" }
      - { tag: when, type: date, title: When }
      - { tag: late, type: text, title: Late, hidden: "NOT $when >= '2026-01-01'" }
      - { tag: note, type: text, title: Note, hidden: "$late != nil" }
      - { tag: code, type: text, title: Code, required: "$code MATCHES[c] '[a-z]{3}-\\\\d+' OR $kind == 'b'" }
      - { tag: lock, type: booleanCheck, title: Lock }
      - { tag: locked, type: text, title: Locked, value: fixed, disabled: "$lock == YES" }
      - { tag: echo, type: text, title: Echo, hidden: "$locked != 'fixed'", required: "$locked.isDisabled == YES" }
      - { tag: pin, type: password, title: PIN }
      - { tag: pinned, type: text, title: Pinned, hidden: "$pin == nil" }
      - { tag: hobbies, type: multipleSelector, title: Hobbies, options: [chess, golf] }
      - { tag: which, type: text, title: Which first, hidden: "$hobbies.@count == 0" }
      - { tag: pair, type: text, title: Pair, hidden: "NOT ('golf' IN $hobbies AND $hobbies.@count == 2)" }
  - tag: extra
    title: Extra
    hidden: "$kind != 'b'"
    rows:
      - { tag: extra_a, type: text, title: A }
      - { tag: always, type: text, title: Always hidden, hidden: true }
      - { tag: shadow, type: text, title: Shadow, hidden: "$extra_a.isHidden == NO AND $extra_a == nil" }
  - title: Numbers
    multivaluedTag: numbers
    multivaluedOptions: [insert, delete, reorder]
    maxRows: 3
    rowTemplate: { type: integer, title: N }
    rows:
      - { type: integer, title: N, value: 1 }
  - rows:
      - { tag: many, type: text, title: Many, hidden: "$numbers.@count < 2 OR $numbers.@sum.doubleValue > 10" }
      - { tag: dur, type: countDownTimer, title: Duration }
      - { tag: long, type: text, title: Long, hidden: "$dur < 3600", disabled: "$dur.isHidden == YES OR $dur > 7200" }
  - rows:
      - { tag: from, type: datetime, title: From }
      - { tag: until, type: datetime, title: Until, hidden: "$from == nil" }
      - { tag: backwards, type: text, title: Backwards, hidden: "$until == nil OR $until >= $from" }
      - { tag: summer, type: text, title: Summer, hidden: "$from < '2026-10-25T01:00:00Z'" }
      - { tag: morning, type: text, title: Morning, hidden: "$from < '2026-10-25T02:30' OR $from > '2026-10-25T03:00+01:00'" }
`;
// The same section-hiding as pets, but hidden rows keep feeding conditions.
const KEEP = `
id: keep
title: Hidden values kept
hiddenValues: keep
sections:
  - rows:
      - { tag: show, type: booleanSwitch, title: Show }
      - { tag: secret, type: integer, title: Secret, hidden: "$show == NO" }
      - { tag: hint, type: text, title: Hint, hidden: "$secret == nil OR $secret < 3" }
`;

const SUBMISSIONS = {
  event: [{}, { alert: "never" }, { alert: "5m" }, { alert: "5m", "second-alert": "1h" }, { alert: "bogus" }],
  pets: [{}, { has_pets: "on" }, { has_pets: "on", pet_names: "Rex" }, { show_contact: "on" },
    { has_pets: "on", show_contact: "on", contact_email: "a@b.c" }],
  others: [{ count: "1" }, { count: "5" }, { count: "7", group_name: "x" }, { count: "" }, { count: "abc" }],
  multivalued: [{}, { tags: ["a", "b"] }, { tags: ["", "c"] }],
  live: [
    {}, { kind: "b" }, { kind: "b", extra_a: "x" }, { price: "0.07" }, { price: "0.070" }, { price: "0.08" },
    { price: "7e-2" }, { price: "1e-128" }, { price: "1.5e-128" }, { price: "1e-200" },
    { price: "0." + "0".repeat(127) + "1" }, { price: "0." + "0".repeat(128) + "1" }, { price: "1".repeat(39) },
    { when: "2026-01-01" }, { when: "2025-12-31" }, { when: "2026-02-30" },
    { late: "x" }, { when: "2026-05-01", late: "x" }, { when: "2026-05-01", late: "  \t " },
    { when: "2026-05-01", late: "\u200b\u3164" }, { pin: "   " }, { pin: "" },
    { hobbies: "golf" }, { hobbies: ["chess", "golf"] }, { hobbies: "" }, { hobbies: ["", "chess"] },
    { code: "ABC-12" }, { code: "abc-x" }, { lock: "on", locked: "changed" }, { locked: "changed" },
    { numbers: ["1", "2"] }, { numbers: ["4", "", "7"] }, { numbers: ["9", "x", "3"] },
    { numbers: ["1", "2", "3", "40"] }, { numbers: ["", " ", "", "", "5", "", "4"] },
    { numbers: ["", "x", "", "3", "4", "8"] }, { numbers: [...Array(29).fill(""), "4", "5"] },
    { numbers: ["1e0", "2.0"] }, { numbers: ["1.5", "2"] }, { numbers: ["1e19", "2"] },
    { dur: "1:00:00" }, { dur: "0:59:59" }, { dur: "PT2H1M" }, { dur: "3599" }, { dur: "1:60" }, { dur: "2:00:01" },
    { from: "2026-10-25T02:30:00+01:00", until: "2026-10-25T02:45:00+02:00" },
    { from: "2026-10-25T02:45:00+02:00", until: "2026-10-25T02:30:00+01:00" },
    { from: "2026-10-25T02:45", until: "2026-10-25T02:30" }, { from: "2026-10-25T02:30", until: "2026-10-25T00:45Z" },
    { from: "2026-10-25T00:59:59Z" }, { from: "2026-10-25T01:30+0100" }, { from: "2026-10-25T02:30+01" },
    { from: "2026-10-25T02:30+1" }, { from: "2026-03-29T02:30", until: "2026-03-29T03:30" },
    { from: "2026-07-01 09:00", until: "2026-07-01T07:30Z" }, { from: "2026-07-01T09:00:30", until: "2026-07-01T09:00" },
  ],
  keep: [{}, { secret: "5" }, { show: "on", secret: "5" }, { show: "on", secret: "2" }, { show: "on", secret: "5e0" },
    { show: "on", secret: "50e-1" }, { show: "on", secret: "5.5" }],
};

const freePort = () => new Promise((resolve, reject) => {
  const probe = createServer().once("error", reject).listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});

const entities = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" };
const unescape = (text) => text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name) => entities[name]);

// What the page's markup says, as the script reads it on load: the rules, each row's controls'
// disabled flag and texts (a disabled row's server value). A section's own constant `hidden` is in the rules.
function readPage(html) {
  const rules = JSON.parse(/<script type="application\/json" id="fw-rules">([\s\S]*?)<\/script>/.exec(html)[1]);
  const chunks = new Map();
  for (const m of html.matchAll(/<div class="fw-row" id="([^"]+)-row"[\s\S]*?(?=<div class="fw-row"|<\/fieldset>)/g)) {
    chunks.set(m[1], m[0]);
  }
  const rows = rules.rows.map((rule) => {
    const chunk = chunks.get(rule.id) ?? "";
    const texts = [];
    for (const [tag] of chunk.matchAll(/<(input|textarea|option)\b[^>]*>/g)) {
      const value = /\svalue="([^"]*)"/.exec(tag);
      if (tag.startsWith("<option") ? / selected[\s>]/.test(tag) : /type="(checkbox|radio)"/.test(tag) ? / checked[\s>]/.test(tag) : true) {
        texts.push(value ? unescape(value[1]) : /type="checkbox"/.test(tag) ? "on" : "");
      }
    }
    return { disabled: /<(input|select|textarea|button)\b[^>]*\sdisabled[\s>]/.test(chunk), texts };
  });
  return { rules, rows };
}

async function factWalk() {
  const folder = mkdtempSync(join(tmpdir(), "fw-js-"));
  for (const name of ["event.json", "pets.yaml", "others.yaml", "multivalued.yaml"]) copyFileSync(join(root, "Forms", name), join(folder, name));
  writeFileSync(join(folder, "live.yaml"), LIVE);
  writeFileSync(join(folder, "keep.yaml"), KEEP);
  const port = await freePort();
  const server = spawn(bin, ["serve", "--port", String(port), "--forms", folder, "--explain", "--no-access-log", "--store", "none"], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  server.stderr.on("data", (d) => { log += d; });
  const base = `http://127.0.0.1:${port}`;
  const before = passed;
  let total = 0;
  try {
    for (let tries = 0; ; tries++) {
      try { if ((await fetch(base + "/forms/event")).ok) break; } catch { /* not listening yet */ }
      if (tries > 100 || server.exitCode !== null) throw new Error("formwright serve did not start:\n" + log);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const [id, submissions] of Object.entries(SUBMISSIONS)) {
      const page = readPage(await (await fetch(`${base}/forms/${id}`)).text());
      const { rules } = page;
      for (const posted of submissions) {
        const body = new URLSearchParams();
        for (const [name, value] of Object.entries(posted)) for (const v of [].concat(value)) body.append(name, v);
        const response = await fetch(`${base}/forms/${id}/explain`, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
        const server = await response.json();
        const texts = (name) => (name === undefined ? [] : [].concat(posted[name] ?? []));
        const js = forms.resolve(rules, {
          value: (i) => (rules.rows[i].id
            ? forms.decodeTexts(rules.rows[i].kind, texts(rules.rows[i].name), rules.rows[i].keepsBlank, rules.timeZone)
            : null),
          serverValue: (i) => forms.decodeTexts(rules.rows[i].kind, page.rows[i].texts, rules.rows[i].keepsBlank, rules.timeZone),
          disabled: (i) => page.rows[i].disabled,
          sectionHidden: (s) => rules.sections[s].hidden === true,  // as forms.js reads it
          items: (s) => forms.itemValues(rules.sections[s].itemKind, texts(rules.sections[s].multivaluedTag),
            rules.sections[s].maxItems, rules.sections[s].itemKeepsBlank, rules.timeZone),
        });
        const where = `${id} ${JSON.stringify(posted)}`;
        total++;
        let agree = true;
        server.rows.forEach((row, i) => {
          const name = row.tag ?? row.path;
          for (const fact of ["hidden", "disabled"]) {
            const mine = fact === "hidden" ? js.rowHidden[i] : js.rowDisabled[i];
            if (mine !== row[fact].value) { agree = false; check(false, `${where}: ${name}.${fact} server=${row[fact].value} js=${mine}`); }
          }
          if (js.rowRequired[i] !== null && js.rowRequired[i] !== row.required.value) {
            agree = false;
            check(false, `${where}: ${name}.required server=${row.required.value} js=${js.rowRequired[i]}`);
          }
        });
        server.sections.forEach((section, s) => {
          if (js.sectionHidden[s] !== section.hidden.value) {
            agree = false;
            check(false, `${where}: section ${s}.hidden server=${section.hidden.value} js=${js.sectionHidden[s]}`);
          }
        });
        if (agree) check(true);
      }
    }
  } finally {
    server.kill("SIGTERM");
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(`fact walk: ${passed - before}/${total} submissions decided as the server decides them`);
}

corpus();
differential();
await factWalk();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
