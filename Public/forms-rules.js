// Formwright's rules, as the server decides them: the predicate evaluator (every rule mirrors a Swift file
// named in its comment), values decoded as FormEngine decodes them, and the facts of a form in the
// compiler's order (docs/design.md, "The browser"). No eval, no second parser: the AST comes from
// Predicate.jsonAST() (docs/predicate-ast-json.md). Tests/JavaScript/conformance.mjs holds it to the
// predicate corpus (Tests/Predicates) and to the server's verdicts. Public/forms.js, the page script, uses it as
// `FormwrightRules`; Node loads it as a module.
(function () {
  "use strict";

  // ---- Values (FormPredicate/Values) --------------------------------------------------------------
  // undefined is Foundation's nil (a missing key), null is NSNull; the two differ only for key paths.

  class PredicateError extends Error {}
  const fail = (message) => { throw new PredicateError(message); };
  const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  const isDict = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const kindName = (v) => (v == null ? "null" : Array.isArray(v) ? "array" : isDict(v) ? "dictionary"
    : typeof v === "boolean" ? "boolean" : typeof v);
  const numeric = (v) => (typeof v === "number" ? v : typeof v === "boolean" ? (v ? 1 : 0) : undefined);
  const entries = (v) => (Array.isArray(v) ? v : isDict(v) ? Object.values(v) : undefined);

  // -[NSString doubleValue]: the number at the start of a string, 0 when none (Evaluation/Arithmetic.swift).
  function numericPrefix(text) {
    let i = 0, prefix = "", digit = false, dot = false, exp = false;
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n")) i++;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === "+" || c === "-") { if (prefix && !prefix.endsWith("e")) break; }
      else if (c === ".") { if (dot || exp) break; dot = true; }
      else if (c === "e" || c === "E") { if (!digit || exp) break; exp = true; }
      else if (c >= "0" && c <= "9") digit = true;
      else break;
      prefix += c === "E" ? "e" : c;
    }
    if (!digit) return 0;
    // A dangling exponent or sign (`3e`, `3e-`) is not part of the number.
    const value = Number(prefix.replace(/[^0-9.]+$/, ""));
    return Number.isNaN(value) ? 0 : value;
  }

  // NumberFormatting.json, then Swift's Double.description (exponent past 2^53 or below 1e-4).
  function numberText(n) {
    if (!Number.isFinite(n)) return Number.isNaN(n) ? "null" : n < 0 ? "-1e999" : "1e999";
    if (Number.isInteger(n) && Math.abs(n) < 1e15) return Object.is(n, -0) ? "-0" : String(n);
    if (Math.abs(n) > 2 ** 53 || Math.abs(n) < 1e-4) {
      const [mantissa, exponent] = n.toExponential().split("e");
      const e = Number(exponent);
      return mantissa + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
    }
    const text = String(n);
    return text.includes(".") ? text : text + ".0";
  }

  // ---- Strings (Evaluation/StringFolding.swift, LikePattern.swift) --------------------------------

  const MARKS = /[\p{Mn}\p{Mc}\p{Me}]/gu;
  // Per code point, as Swift's uppercased()/lowercased() map: no final-sigma context, unlike JS's own.
  const mapEach = (s, method) => { let out = ""; for (const ch of s) out += ch[method](); return out; };
  function fold(s, m) {
    if (!m) return s;
    if (m.includes("d")) s = s.normalize("NFD").replace(MARKS, "");
    // Upper then lower approximates full case folding: ß -> SS -> ss.
    if (m.includes("c")) s = mapEach(mapEach(s, "toUpperCase"), "toLowerCase");
    return s;
  }

  // Code point order (Swift compares UTF-8 bytes); JS's < compares UTF-16 units, which puts
  // astral characters below U+E000–U+FFFF. Shift the units so surrogates sort last.
  function codePointOrder(a, b) {
    if (a === b) return 0;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      let x = a.charCodeAt(i), y = b.charCodeAt(i);
      if (x === y) continue;
      if (x >= 0xd800) x += x >= 0xe000 ? -0x800 : 0x2000;
      if (y >= 0xd800) y += y >= 0xe000 ? -0x800 : 0x2000;
      return x < y ? -1 : 1;
    }
    return a.length < b.length ? -1 : 1;
  }

  function like(text, pattern) {
    const s = Array.from(text), w = Array.from(pattern);
    // Greedy scan that backtracks only to the last `*`: O(n * m), never exponential.
    let i = 0, p = 0, starP = -1, starS = 0;
    while (i < s.length) {
      if (p < w.length && (w[p] === "?" || (w[p] === s[i] && w[p] !== "*"))) { i++; p++; }
      else if (p < w.length && w[p] === "*") { starP = p++; starS = i; }
      else if (starP >= 0) { p = starP + 1; i = ++starS; }
      else return false;
    }
    while (p < w.length && w[p] === "*") p++;
    return p === w.length;
  }

  // ---- MATCHES: the linear-time ICU subset of FormPredicate/Regex, ported rule for rule ------------
  // A JS RegExp would backtrack, and would accept and reject different patterns than the server.

  class RegexError extends Error {}
  const bad = (message) => { throw new RegexError(message); };
  const PROPS = {
    digit: /\p{Nd}/u, space: /\p{White_Space}/u, letter: /\p{Alphabetic}/u, uppercase: /\p{Lu}/u,
    lowercase: /\p{Ll}/u, word: /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200C\u200D]/u, number: /\p{N}/u,
    punctuation: /\p{P}/u, symbol: /\p{S}/u, separator: /[\p{Z}\p{White_Space}]/u,
  };
  const PROPERTY_NAMES = new Map(Object.entries({
    L: "letter", Letter: "letter", Alphabetic: "letter", Alpha: "letter", Lu: "uppercase",
    Uppercase_Letter: "uppercase", Uppercase: "uppercase", Ll: "lowercase", Lowercase_Letter: "lowercase",
    Lowercase: "lowercase", N: "number", Number: "number", Nd: "digit", Decimal_Number: "digit",
    Digit: "digit", P: "punctuation", Punctuation: "punctuation", Punct: "punctuation", S: "symbol",
    Symbol: "symbol", Z: "separator", Zs: "separator", Separator: "separator", Space_Separator: "separator",
    White_Space: "separator", Whitespace: "separator",
  }));
  const hasProperty = (name, cp) => PROPS[name].test(String.fromCodePoint(cp));
  const isDigit = (c) => c !== undefined && c >= "0" && c <= "9" && c.length === 1;
  // A scalar's full case mapping when it is one scalar, else null (RegexCompiler.fold, SafeRegex.step).
  const mapScalar = (cp, method) => {
    const mapped = Array.from(String.fromCodePoint(cp)[method]());
    return mapped.length === 1 ? mapped[0].codePointAt(0) : null;
  };
  const foldScalar = (cp) => mapScalar(cp, "toLowerCase") ?? cp;

  function parseRegex(pattern) {  // RegexParser.swift
    const s = Array.from(pattern);
    let pos = 0, depth = 0;
    const peek = () => s[pos];
    const alternation = () => {
      const branches = [concatenation()];
      while (peek() === "|") { pos++; branches.push(concatenation()); }
      return branches.length === 1 ? branches[0] : { t: "alt", branches };
    };
    const concatenation = () => {
      const items = [];
      while (peek() !== undefined && peek() !== "|" && peek() !== ")") items.push(quantified(atom()));
      return items.length === 1 ? items[0] : items.length ? { t: "cat", items } : { t: "empty" };
    };
    const count = () => {  // {n}, {n,} or {n,m}
      pos++;
      const number = () => {
        let v = null;
        while (isDigit(peek())) { v = Math.min((v ?? 0) * 10 + Number(s[pos++]), 1e6); }
        return v;
      };
      const low = number();
      if (low === null) bad("malformed repetition count");
      let high = low;
      if (peek() === ",") { pos++; high = number(); }
      if (peek() !== "}") bad("malformed repetition count");
      pos++;
      if ((high !== null && high < low) || low > 1000 || (high ?? 0) > 1000) bad("bad repetition count");
      return [low, high];
    };
    const quantified = (node) => {
      for (let c; (c = peek()) !== undefined;) {
        let bounds;
        if (c === "*") bounds = [0, null];
        else if (c === "+") bounds = [1, null];
        else if (c === "?") bounds = [0, 1];
        else if (c === "{") bounds = count();
        else return node;
        if (c !== "{") pos++;
        if (node.t === "assert" || node.t === "empty") bad("nothing to repeat");
        if (peek() === "?") pos++;  // Lazy: the same whole-string matches as greedy.
        else if (peek() === "+") bad("possessive quantifiers are not supported");
        node = { t: "rep", body: node, min: bounds[0], max: bounds[1] };
      }
      return node;
    };
    const atom = () => {
      const c = s[pos++];
      switch (c) {
        case "(": {
          if (++depth > 100) bad("groups nested too deeply");
          if (peek() === "?") {
            pos++;
            if (peek() === ":") pos++;
            else if (peek() === "<" && pos + 1 < s.length && s[pos + 1] !== "=" && s[pos + 1] !== "!") {
              const close = s.indexOf(">", pos);  // A named group matches like any group.
              if (close < 0) bad("unterminated group name");
              pos = close + 1;
            } else bad("lookaround, inline flags and other (? groups are not supported");
          }
          const inner = alternation();
          if (peek() !== ")") bad("missing ')'");
          pos++;
          depth--;
          return inner;
        }
        case ")": case "*": case "+": case "?": case "{": return bad("nothing to repeat");
        case ".": return { t: "any" };
        case "^": return { t: "assert", a: "start" };
        case "$": return { t: "assert", a: "end" };
        case "[": return { t: "set", set: charClass() };
        case "\\": return escape(false).node;
        default: return { t: "char", c: c.codePointAt(0) };
      }
    };
    const escape = (inClass) => {  // after `\`: { node, scalar } with scalar null for classes and assertions
      const c = s[pos++];
      if (c === undefined) bad("pattern ends with '\\'");
      const literal = (cp) => ({ node: { t: "char", c: cp }, scalar: cp });
      const property = (name, negated) => ({ node: { t: "set", set: { items: [{ name, negated }], negated: false } }, scalar: null });
      const assertion = (a) => ({ node: { t: "assert", a }, scalar: null });
      switch (c) {
        case "d": case "D": return property("digit", c === "D");
        case "w": case "W": return property("word", c === "W");
        case "s": case "S": return property("space", c === "S");
        case "p": case "P": {
          const close = s.indexOf("}", pos);
          const name = peek() === "{" && close >= 0 ? PROPERTY_NAMES.get(s.slice(pos + 1, close).join("")) : undefined;
          if (!name) bad("unsupported property");
          pos = close + 1;
          return property(name, c === "P");
        }
        case "n": return literal(10);
        case "t": return literal(9);
        case "r": return literal(13);
        case "f": return literal(12);
        case "a": return literal(7);
        case "e": return literal(27);
        case "x": case "u": {
          let digits = c === "x" ? 2 : 4, braced = false, value = 0, n = 0;
          if (c === "x" && peek() === "{") { braced = true; digits = 8; pos++; }
          while (n < digits && peek() !== undefined && /^[0-9a-fA-F]$/.test(peek())) { value = value * 16 + parseInt(s[pos++], 16); n++; }
          if (braced) { if (peek() !== "}") bad("malformed \\x{...}"); pos++; }
          if (n === 0 || (!braced && n !== digits) || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) bad("malformed escape");
          return literal(value);
        }
        case "b": case "B": case "A":
          if (!inClass) return assertion(c === "b" ? "word" : c === "B" ? "notWord" : "start");
          break;
        case "z": case "Z": if (!inClass) return assertion("end"); break;
        case "0": {
          let value = 0;
          for (let n = 0; n < 3 && /^[0-7]$/.test(peek() ?? ""); n++) value = value * 8 + Number(s[pos++]);
          return literal(value);
        }
        default: if (isDigit(c) || c === "k") bad("backreferences are not supported");
      }
      if (PROPS.letter.test(c) || isDigit(c)) bad("unsupported escape '\\" + c + "'");
      return literal(c.codePointAt(0));
    };
    const charClass = () => {  // after `[`
      const set = { items: [], negated: false };
      if (peek() === "^") { set.negated = true; pos++; }
      for (let first = true; ; first = false) {
        const c = peek();
        if (c === undefined) bad("missing ']'");
        if (c === "]" && !first) { pos++; return set; }
        if (c === "[") bad("nested classes are not supported");
        pos++;
        let low = c.codePointAt(0);
        if (c === "\\") {
          const e = escape(true);
          if (e.scalar === null) { set.items.push(...e.node.set.items); continue; }
          low = e.scalar;
        }
        // `a-z` is a range unless the `-` is last (`[a-]`).
        if (peek() === "-" && pos + 1 < s.length && s[pos + 1] !== "]") {
          const h = s[pos + 1];
          pos += 2;
          const high = h === "\\" ? escape(true).scalar ?? bad("a range cannot end in a class escape") : h.codePointAt(0);
          if (low > high) bad("range out of order in class");
          set.items.push({ low, high });
        } else set.items.push({ low, high: low });
      }
    };
    const node = alternation();
    if (pos < s.length) bad("unmatched ')'");
    return node;
  }

  function compileRegex(pattern, caseInsensitive) {  // RegexCompiler.swift: a Thompson NFA program
    const code = [];
    const emit = (node) => {
      // Bounds memory and time per input scalar: `a{1000}{1000}` would be a million states.
      if (code.length > 20000) bad("pattern too large after expanding repetitions");
      switch (node.t) {
        case "char": code.push({ op: "char", c: caseInsensitive ? foldScalar(node.c) : node.c }); break;
        case "any": case "set": case "assert": code.push({ op: node.t, set: node.set, a: node.a }); break;
        case "cat": node.items.forEach(emit); break;
        case "alt": {
          const jumps = [];
          node.branches.forEach((branch, k) => {
            if (k === node.branches.length - 1) return emit(branch);
            const split = code.push({ op: "split", x: code.length + 1, y: 0 }) - 1;
            emit(branch);
            jumps.push(code.push({ op: "jump", to: 0 }) - 1);
            code[split].y = code.length;
          });
          for (const j of jumps) code[j].to = code.length;
          break;
        }
        case "rep": {
          for (let k = 0; k < node.min; k++) emit(node.body);
          if (node.max !== null) {
            const splits = [];
            for (let k = node.min; k < node.max; k++) {
              splits.push(code.push({ op: "split", x: code.length + 1, y: 0 }) - 1);
              emit(node.body);
            }
            for (const sp of splits) code[sp].y = code.length;
          } else {
            const loop = code.push({ op: "split", x: code.length + 1, y: 0 }) - 1;
            emit(node.body);
            code.push({ op: "jump", to: loop });
            code[loop].y = code.length;
          }
        }
      }
    };
    emit(parseRegex(pattern));
    code.push({ op: "match" });
    return { code, caseInsensitive };
  }

  const inSet = (set, cp) => set.items.some((item) => (item.name
    ? hasProperty(item.name, cp) !== item.negated : item.low <= cp && cp <= item.high)) !== set.negated;

  function regexMatches(re, text) {  // SafeRegex.run, whole string: breadth-first, linear time
    const input = Array.from(text, (ch) => ch.codePointAt(0)), code = re.code;
    const mark = new Int32Array(code.length).fill(-1);
    const holds = (a, at) => {
      if (a === "start") return at === 0;
      if (a === "end") return at === input.length;
      const before = at > 0 && hasProperty("word", input[at - 1]);
      const after = at < input.length && hasProperty("word", input[at]);
      return (before !== after) === (a === "word");
    };
    const add = (start, at, list) => {  // the epsilon closure of `start`, marked by position
      const stack = [start];
      while (stack.length) {
        const pc = stack.pop(), ins = code[pc];
        if (mark[pc] === at) continue;
        mark[pc] = at;
        list.push(pc);
        if (ins.op === "jump") stack.push(ins.to);
        else if (ins.op === "split") stack.push(ins.y, ins.x);
        else if (ins.op === "assert" && holds(ins.a, at)) stack.push(pc + 1);
      }
    };
    const step = (ins, cp) => {
      switch (ins.op) {
        case "char": return ins.c === cp || (re.caseInsensitive && foldScalar(cp) === ins.c);
        case "any": return cp !== 10 && cp !== 13 && cp !== 0x85 && cp !== 0x2028 && cp !== 0x2029;
        case "set": return inSet(ins.set, cp) || (re.caseInsensitive && [mapScalar(cp, "toLowerCase"),
          mapScalar(cp, "toUpperCase")].some((v) => v !== null && inSet(ins.set, v)));
        default: return false;
      }
    };
    let current = [];
    add(0, 0, current);
    for (let at = 0; ; at++) {
      if (at === input.length) return current.some((pc) => code[pc].op === "match");
      if (current.length === 0) return false;
      const next = [];
      for (const pc of current) if (step(code[pc], input[at])) add(pc + 1, at + 1, next);
      current = next;
    }
  }

  const regexCache = new Map();
  function regex(pattern, caseInsensitive) {  // compiled once per pattern; an invalid one stays invalid
    const key = (caseInsensitive ? "i:" : "s:") + pattern;
    if (!regexCache.has(key)) {
      if (regexCache.size > 200) regexCache.clear();
      try { regexCache.set(key, compileRegex(pattern, caseInsensitive)); } catch (e) {
        if (!(e instanceof RegexError)) throw e;
        regexCache.set(key, e);
      }
    }
    const compiled = regexCache.get(key);
    return compiled instanceof RegexError ? fail("invalid MATCHES pattern: " + compiled.message) : compiled;
  }

  // ---- Comparisons (Evaluation/Comparison.swift) ---------------------------------------------------

  function equal(a, b, m) {
    if (a == null || b == null) return a == null && b == null;
    if (typeof a === "string" && typeof b === "string") return m ? fold(a, m) === fold(b, m) : a === b;
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i], m));
    if (isDict(a) && isDict(b)) {
      const keys = Object.keys(a);
      return keys.length === Object.keys(b).length && keys.every((k) => has(b, k) && equal(a[k], b[k], m));
    }
    // Numbers and booleans compare by value; any other mix of kinds is unequal.
    const x = numeric(a), y = numeric(b);
    return x !== undefined && y !== undefined && x === y;
  }

  function ordered(op, a, b, m) {
    if (a == null && b == null) return op === "<=" || op === ">=";  // GNUstep's null ordering
    if (a == null || b == null) return false;
    if (entries(a) || entries(b)) fail(`'${op}' cannot order ${kindName(a)} and ${kindName(b)}`);
    let order;
    if (typeof a === "string" && typeof b === "string") order = codePointOrder(fold(a, m), fold(b, m));
    else {
      const x = typeof a === "string" ? numericPrefix(a) : numeric(a);
      const y = typeof b === "string" ? numericPrefix(b) : numeric(b);
      order = x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;  // unordered doubles satisfy nothing
    }
    return op === "<" ? order < 0 : op === "<=" ? order <= 0 : op === ">" ? order > 0 : order >= 0;
  }

  const between = (v, low, high, m) => v != null && ordered(">=", v, low, m) && ordered("<=", v, high, m);

  function contains(haystack, needle, m, op) {  // `haystack CONTAINS needle`, `needle IN haystack`
    if (haystack == null) return false;
    const list = entries(haystack);
    if (list) return list.some((x) => equal(x, needle, ""));
    if (typeof haystack !== "string") return fail(`${op} needs a string or a collection, got ${kindName(haystack)}`);
    if (needle == null) return false;
    if (typeof needle !== "string") return fail(`${op} on a string needs a string, got ${kindName(needle)}`);
    const part = fold(needle, m);  // Foundation finds no range for an empty needle.
    return part !== "" && fold(haystack, m).includes(part);
  }

  function compare(op, l, r, m, literalRegex) {
    switch (op) {
      case "==": return equal(l, r, m);
      case "!=": return !equal(l, r, m);
      case "<": case "<=": case ">": case ">=": return ordered(op, l, r, m);
      case "BETWEEN":
        if (!Array.isArray(r) || r.length !== 2) fail("BETWEEN needs a two-element array {low, high} on the right");
        return between(l, r[0], r[1], m);
      case "IN": return contains(r, l, m, "IN");
      case "CONTAINS": return contains(l, r, m, "CONTAINS");
    }
    if (l == null || r == null) return false;
    if (typeof l !== "string" || typeof r !== "string") fail(`${op} needs strings, got ${kindName(l)} and ${kindName(r)}`);
    const mark = m.replace("c", "");  // MATCHES folds diacritics itself; case is the regex's flag
    switch (op) {
      case "BEGINSWITH": { const p = fold(r, m); return p !== "" && fold(l, m).startsWith(p); }
      case "ENDSWITH": { const p = fold(r, m); return p !== "" && fold(l, m).endsWith(p); }
      case "LIKE": return like(fold(l, m), fold(r, m));
      case "MATCHES": return regexMatches(literalRegex ?? regex(fold(r, mark), m.includes("c")), fold(l, mark));
    }
    return fail("unknown operator " + op);
  }

  // ---- Key paths and arithmetic (Evaluation/KeyPathEvaluation.swift, Arithmetic.swift) -------------

  function accessor(key, n) {
    switch (key) {
      case "doubleValue": case "floatValue": return n;
      case "intValue": case "integerValue": case "longValue": case "longLongValue": case "shortValue":
      case "unsignedIntValue": case "unsignedIntegerValue": return Number.isFinite(n) ? Math.trunc(n) : 0;
      case "boolValue": return n !== 0;
    }
    return undefined;
  }

  function valueForKey(key, v) {
    if (v === undefined) return undefined;  // messaging nil gives nil
    if (v === null) fail(`key '${key}' applied to null`);
    if (Array.isArray(v)) return v.map((x) => (x === null ? null : valueForKey(key, x) ?? null));
    if (isDict(v)) return has(v, key) ? v[key] : undefined;
    if (typeof v === "string") {
      if (key === "length") return v.length;  // UTF-16 units, as NSString counts
      return accessor(key, numericPrefix(v)) ?? fail(`a string has no key '${key}'`);
    }
    if (key === "stringValue") return typeof v === "boolean" ? (v ? "1" : "0") : numberText(v);
    return accessor(key, numeric(v)) ?? fail(`a ${kindName(v)} has no key '${key}'`);
  }

  function operand(v, op) {
    if (v == null) fail(`'${op}' with a null operand`);
    if (typeof v === "string") return numericPrefix(v);
    return numeric(v) ?? fail(`'${op}' on ${kindName(v)}`);
  }

  function arithmetic(op, x, y) {
    switch (op) {
      case "+": return x + y;
      case "-": return x - y;
      case "*": return x * y;
      case "/": return x / y;
    }
    // C's pow, where JS's differs: pow(1, NaN) and pow(-1, ±Infinity) are 1.
    return x === 1 || (x === -1 && !Number.isFinite(y) && !Number.isNaN(y)) ? 1 : x ** y;
  }

  function applyKeys(keys, start) {
    let current = start;
    for (let k = 0; k < keys.length; k++) {
      if (keys[k].startsWith("@")) return collectionOperator(keys[k], keys.slice(k + 1), current);
      current = valueForKey(keys[k], current);
    }
    return current;
  }

  function collectionOperator(name, rest, v) {
    if (v === undefined) return undefined;
    const list = entries(v) ?? fail(`${name} applied to a ${kindName(v)}`);
    if (name === "@count") return list.length;  // the key path right of @count is ignored
    if (!["@sum", "@avg", "@min", "@max"].includes(name)) fail(`unknown collection operator '${name}'`);
    if (!rest.length) fail(`${name} needs a key path on its right, such as ${name}.value`);
    const operands = list.map((x) => applyKeys(rest, x) ?? null).filter((x) => x !== null);
    if (name === "@sum" || name === "@avg") {
      const total = operands.reduce((sum, x) => sum + operand(x, "+"), 0);
      return name === "@sum" ? total : operands.length ? total / operands.length : null;
    }
    let best;
    for (const x of operands) if (best === undefined || ordered(name === "@min" ? "<" : ">", x, best, "")) best = x;
    return best ?? null;
  }

  function index(base, at, position) {
    if (base == null) return undefined;
    if (Array.isArray(base)) {
      if (at === "FIRST") return base[0];
      if (at === "LAST") return base[base.length - 1];
      if (at === "SIZE") return base.length;
      const n = numeric(position);
      if (n === undefined || !Number.isInteger(n) || n < 0 || n >= base.length) fail("index out of range");
      return base[n];
    }
    if (isDict(base)) {
      if (at === "SIZE") return Object.keys(base).length;
      if (at === "FIRST" || at === "LAST") fail("FIRST and LAST need an array, got a dictionary");
      if (typeof position !== "string") fail("a dictionary is indexed by a string key");
      return has(base, position) ? base[position] : undefined;
    }
    return fail(`cannot index a ${kindName(base)}`);
  }

  // ---- The evaluator (Evaluation/Evaluator.swift) --------------------------------------------------

  // `lookup(i)` answers the AST's variable i; undefined means unbound, an error. Throws PredicateError.
  function evaluate(ast, lookup) {
    if (!ast || ast.v !== 1) fail("unsupported predicate AST version");
    const value = (e) => {
      switch (e.t) {
        case "lit": return e.value;
        case "var": { const v = lookup(e.i); return v === undefined ? fail(`variable '$${e.name}' is not bound`) : v; }
        case "self": return undefined;
        case "path": return applyKeys(e.keys, e.e ? value(e.e) : undefined);
        case "index": {
          const base = value(e.e);  // the position is evaluated even when the base is null
          const position = typeof e.at === "string" ? undefined : value(e.at);
          return index(base, e.at, position);
        }
        case "agg": return e.es.map((x) => value(x) ?? null);
        case "arith": { const x = operand(value(e.l), e.op); return arithmetic(e.op, x, operand(value(e.r), e.op)); }
        case "neg": return -operand(value(e.e), "-");
      }
      return fail("unknown expression node " + e.t);
    };
    const comparison = (c) => {
      const m = c.m ?? "", left = value(c.l);
      if (!c.q && c.r.t === "agg") {
        // `BETWEEN {$lo, $hi}` and `IN {$a, $b}` read their elements directly; IN stops at a match.
        if (c.op === "BETWEEN" && c.r.es.length === 2) {
          return between(left ?? null, value(c.r.es[0]) ?? null, value(c.r.es[1]) ?? null, m);
        }
        if (c.op === "IN") return c.r.es.some((x) => equal(value(x) ?? null, left ?? null, ""));
      }
      const right = value(c.r);
      // A literal pattern is compiled as written (no [d] folding), and fails even against null.
      const literalRegex = c.op === "MATCHES" && c.r.t === "lit" && typeof c.r.value === "string"
        ? regex(c.r.value, m.includes("c")) : undefined;
      if (!c.q) return compare(c.op, left ?? null, right ?? null, m, literalRegex);
      const list = entries(left) ?? fail(`${c.q} needs an array on the left, got ${kindName(left)}`);
      for (const x of list) {
        const matched = compare(c.op, x, right ?? null, m, literalRegex);
        if (c.q === "ANY" && matched) return true;
        if (c.q === "ALL" && !matched) return false;
        if (c.q === "NONE" && matched) return false;
      }
      return c.q !== "ANY";
    };
    const test = (p) => {
      switch (p.t) {
        case "const": return p.value;
        case "not": return !test(p.p);
        case "and": return p.ps.every(test);  // left to right, stopping at the first false
        case "or": return p.ps.some(test);
        case "cmp": return comparison(p);
      }
      return fail("unknown predicate node " + p.t);
    };
    return test(ast.root);
  }

  // ---- Values as the server decodes them (FormEngine/Decoding) ------------------------------------

  const pad = (n) => String(n).padStart(2, "0");
  function isoTime(t) {  // ISOText.time: HH:MM[:SS[.fff]] → LocalTime.description
    const m = /^([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?$/.exec(t);
    if (!m || +m[1] > 23 || +m[2] > 59 || +(m[3] ?? 0) > 59) return null;
    return m[1] + ":" + m[2] + (+(m[3] ?? 0) ? ":" + m[3] : "");
  }
  function isoDate(t) {  // ISOText.date: YYYY-MM-DD naming a real day
    const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(t);
    if (!m) return null;
    const [y, mo, d] = [+m[1], +m[2], +m[3]];
    const days = mo === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
    return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= days ? t : null;
  }
  // A date-time as conditions read it (OffsetDateTime.read, then FormValue.predicateValue): the instant
  // in UTC with seconds, `2026-10-25T00:45:00Z`, so text order is time order even across a change of
  // the zone's offset. With an offset the text names that instant; without, it is the wall-clock time
  // of `zone`: null when the clocks skip it, the earlier instant when they show it twice.
  function dateTime(t, zone) {
    let body = t, offset = null;
    if (/[Zz]$/.test(t)) { body = t.slice(0, -1); offset = 0; }
    else {
      const sign = t.length > 13 ? t.slice(13).search(/[+-]/) : -1;  // the date has its own `-`
      if (sign >= 0) {
        const at = 13 + sign, m = /^([0-9]{2})(?::?([0-9]{2}))?$/.exec(t.slice(at + 1));
        if (!m || +m[1] > 23 || +(m[2] ?? 0) > 59) return null;
        offset = (t[at] === "-" ? -1 : 1) * (+m[1] * 3600 + +(m[2] ?? 0) * 60);
        body = t.slice(0, at);
      }
    }
    const date = isoDate(body.slice(0, 10)), time = body.length > 11 && "T ".includes(body[10]) ? isoTime(body.slice(11)) : null;
    if (!date || !time) return null;
    const [h, mi, sec] = /^([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?/.exec(body.slice(11)).slice(1).map((x) => +(x ?? 0));
    const wall = daysFromCivil(+date.slice(0, 4), +date.slice(5, 7), +date.slice(8, 10)) * 86400 + h * 3600 + mi * 60 + sec;
    const offsetAt = (seconds) => zoneOffset(zone || "UTC", seconds);
    let instant;
    if (offset !== null) {
      instant = wall - offset;
      // The zone's reading of the instant must be a date too (years 1 to 9999).
      if (!civil(instant + offsetAt(instant))) return null;
    } else {
      const before = offsetAt(wall - 86400), after = offsetAt(wall + 86400);
      const holds = (o) => offsetAt(wall - o) === o;
      const offsets = before === after ? [before] : [before, after].filter(holds);
      if (!offsets.length) return null;  // skipped: clocks went forward past it
      instant = wall - Math.max(...offsets);  // shown twice: the earlier instant
    }
    const utc = civil(instant);
    return utc ? utc + "Z" : null;
  }

  // Howard Hinnant's days_from_civil and civil_from_days, as LocalDate+Days.swift.
  function daysFromCivil(y, m, d) {
    y -= m <= 2 ? 1 : 0;
    const era = Math.floor(y / 400), yoe = y - era * 400;
    const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
    return era * 146097 + doe - 719468;
  }
  function civil(seconds) {  // the UTC reading of `seconds` since 1970, or null outside years 1 to 9999
    const days = Math.floor(seconds / 86400), rest = seconds - days * 86400, z = days + 719468;
    const era = Math.floor(z / 146097), doe = z - era * 146097;
    const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)), mp = Math.floor((5 * doy + 2) / 153);
    const d = doy - Math.floor((153 * mp + 2) / 5) + 1, m = mp < 10 ? mp + 3 : mp - 9, y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    if (y < 1 || y > 9999) return null;
    return String(y).padStart(4, "0") + "-" + pad(m) + "-" + pad(d) + "T" + pad(Math.floor(rest / 3600)) + ":"
      + pad(Math.floor(rest / 60) % 60) + ":" + pad(rest % 60);
  }

  // Seconds east of UTC that `zone` is at `seconds` since 1970, from the browser's own time-zone data.
  const zoneFormats = new Map();
  function zoneOffset(zone, seconds) {
    let format = zoneFormats.get(zone);
    if (!format) {
      format = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", era: "short", year: "numeric",
        month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
      zoneFormats.set(zone, format);
    }
    const p = {};
    for (const part of format.formatToParts(new Date(seconds * 1000))) p[part.type] = part.value;
    const year = p.era === "BC" || p.era === "B" ? 1 - +p.year : +p.year;
    return daysFromCivil(year, +p.month, +p.day) * 86400 + +p.hour * 3600 + +p.minute * 60 + +p.second - seconds;
  }

  // NumberSyntax.parts: ±digits × 10^exponent, the digits without leading or trailing zeros ("" for
  // zero); null when `t` is not in the number input's notation.
  function numberParts(t) {
    const m = /^([+-]?)([0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(t);
    if (!m || (m[2] === "" && m[3] === undefined)) return null;
    const fraction = m[3] ?? "";
    const all = (m[2] + fraction).replace(/^0+/, ""), digits = all.replace(/0+$/, "");
    const bound = 1e9, written = Math.max(-bound, Math.min(bound, Number(m[4] ?? 0)));
    return { negative: m[1] === "-", digits, exponent: digits ? written - fraction.length + all.length - digits.length : 0 };
  }
  function integer(t) {  // NumberText.integer: any notation of a whole number in Int's range
    const p = numberParts(t);
    if (!p || p.exponent < 0 || p.digits.length + p.exponent > 19) return null;
    const big = BigInt(p.digits || "0") * 10n ** BigInt(p.exponent) * (p.negative ? -1n : 1n);
    return big >= -(2n ** 63n) && big < 2n ** 63n ? Number(t) + 0 : null;
  }
  // The server reads a decimal exactly (Decimal) and gives conditions the nearest double of its text,
  // which is what Number() gives for the same text; one Decimal cannot hold exactly is refused
  // (NumberText.decimal: at most 38 significant digits, none below 10^-128, none from 10^165 up).
  function decimal(t) {
    const p = numberParts(t);
    if (!p || (p.digits && (p.digits.length > 38 || p.exponent < -128 || p.digits.length + p.exponent > 165))) return null;
    return Number(t) + 0;  // + 0: -0 reads as 0, as the server's Double("-0") + 0 does
  }

  function duration(t) {  // DurationText.seconds
    if (/^[+-]?[0-9]+$/.test(t)) { const n = integer(t); return n !== null && n >= 0 ? n : null; }
    const upper = t.toUpperCase();
    if (upper.startsWith("PT")) {  // `1H30M`, `45S`: each unit once, at most six digits
      let total = 0, number = "";
      const seen = new Set();
      for (const ch of upper.slice(2)) {
        if (ch >= "0" && ch <= "9") { number += ch; continue; }
        const unit = { H: 3600, M: 60, S: 1 }[ch];
        if (!number || number.length > 6 || !unit || seen.has(ch)) return null;
        seen.add(ch);
        total += Number(number) * unit;
        number = "";
      }
      return number === "" && seen.size ? total : null;
    }
    const parts = t.split(":");
    if ((parts.length !== 2 && parts.length !== 3) || !parts.every((p) => /^[0-9]{1,5}$/.test(p))) return null;
    const n = parts.map(Number);
    if (n.slice(1).some((x) => x >= 60)) return null;
    return n[0] * 3600 + n[1] * 60 + (n[2] ?? 0);
  }

  // String.looksBlank (FormEngine/Validation/Judgement.swift): whitespace, characters that draw
  // nothing, the blank Braille pattern.
  const BLANK = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

  // What a predicate reads for a row of `kind`, from the texts the browser would post under its name
  // (FieldDecoder.decode, then FormValue.predicateValue), date-times read in `zone`, the form's time
  // zone (the rules' `timeZone`). A value the server cannot decode is null; blank text is none, unless
  // `keepsBlank` (a password).
  function decodeTexts(kind, texts, keepsBlank, zone) {
    if (kind === "options") return texts.filter((t) => t !== "");  // nothing chosen is [], as on the server
    if (kind === "none" || texts.length > 1) return null;
    if (texts.length === 0) return kind === "bool" ? false : null;  // an unchecked box posts nothing
    const raw = texts[0];
    if (kind === "text" || kind === "file") {
      const t = raw.replace(/\r\n?/g, "\n");
      if (kind === "text" && (keepsBlank ? t === "" : BLANK.test(t))) return null;
      return t === "" || /[\x00-\x08\x0b-\x1f\x7f]/.test(t) ? null : t;
    }
    const t = raw.replace(/^[ \t\n\f\r]+|[ \t\n\f\r]+$/g, "");
    if (t === "") return kind === "bool" ? false : null;
    switch (kind) {
      case "integer": return integer(t);
      case "decimal": return decimal(t);
      case "bool": {
        const l = t.toLowerCase();
        return ["true", "1", "on", "yes"].includes(l) ? true : ["false", "0", "off", "no"].includes(l) ? false : null;
      }
      case "option": return t;
      case "date": return isoDate(t);
      case "time": return isoTime(t);
      case "dateTime": return dateTime(t, zone);
      case "duration": return duration(t);
    }
    return null;
  }

  // What a predicate reads for a multivalued section, from the texts posted for its items
  // (MultivaluedItems): at most ten per row `cap` allows are read; empty items are dropped before the
  // cap counts; an item that cannot be decoded counts but reads as nothing. Date-times read in `zone`.
  function itemValues(kind, texts, cap, keepsBlank, zone) {
    const values = [];
    let kept = 0;
    for (const t of texts.slice(0, cap * 10)) {
      // A boolean item is a choice with a blank option: blank is no item (FormEngine's MultivaluedItems).
      const empty = kind === "bool" ? /^[ \t\n\f\r]*$/.test(t) : kind === "text" ? (keepsBlank ? t === "" : BLANK.test(t))
        : kind === "file" || kind === "options" ? t === "" : /^[ \t\n\f\r]*$/.test(t);
      if (empty) continue;
      if (kept++ === cap) break;
      const value = decodeTexts(kind, [t], keepsBlank, zone);
      if (value !== null) values.push(value);
    }
    return values;
  }

  // ---- Facts in the compiler's order (FormEngine/Resolution/Resolution.swift) ----------------------

  // `io` answers what the page shows: value(i) and serverValue(i) (a disabled row's), items(s) (a
  // multivalued section's decoded non-empty items), disabled(i) and sectionHidden(s) (constant states,
  // a row's from the markup, a section's from its rule). Returns every row's and section's state;
  // rowRequired[i] is null when constant.
  function resolve(rules, io) {
    const rows = rules.rows, sections = rules.sections, clear = rules.hiddenValues === "clear";
    const facts = {
      rowHidden: rows.map(() => false), rowDisabled: rows.map(() => false), rowValue: rows.map(() => null),
      sectionHidden: sections.map(() => false), sectionValue: sections.map(() => []),
    };
    const decide = (condition, constant) => {
      if (!condition || typeof condition !== "object") return constant;
      try { return evaluate(condition.ast, (i) => facts[condition.reads[i][0]][condition.reads[i][1]]); } catch (e) {
        return false;  // a condition that cannot be evaluated is false: visible, enabled, optional
      }
    };
    for (const [fact, i] of rules.order) {
      const row = rows[i];
      switch (fact) {
        case "sectionHidden": facts.sectionHidden[i] = decide(sections[i].hidden, io.sectionHidden(i)); break;
        case "sectionValue": facts.sectionValue[i] = clear && facts.sectionHidden[i] ? null : io.items(i); break;
        case "rowHidden": facts.rowHidden[i] = facts.sectionHidden[row.section] || decide(row.hidden, row.hidden === true); break;
        case "rowDisabled": facts.rowDisabled[i] = rules.disabled === true || decide(row.disabled, io.disabled(i)); break;
        case "rowValue": {
          // A disabled row keeps the server's value; under `clear` a hidden row reads as null.
          const v = facts.rowDisabled[i] ? io.serverValue(i) : io.value(i);
          facts.rowValue[i] = clear && facts.rowHidden[i] ? null : v;
        }
      }
    }
    const rowRequired = rows.map((row) => (row.required ? decide(row.required, false) : null));
    return { rowHidden: facts.rowHidden, rowDisabled: facts.rowDisabled, rowRequired, sectionHidden: facts.sectionHidden };
  }

  const api = { evaluate, PredicateError, compileRegex, regexMatches, decodeTexts, itemValues, resolve, numberText };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else globalThis.FormwrightRules = api;
})();
