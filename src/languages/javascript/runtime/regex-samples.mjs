// Strings a regular expression accepts, built from its source: what a string parameter must look
// like to get past a body's `/^\d+\.\d+/.test(v)` or `v.match(...)`. A small walk over the pattern
// (alternation, groups, classes, escapes, quantifiers; lookarounds and backreferences give nothing)
// in a few modes: the least it takes, one of each optional part, and each branch of each
// alternation in turn. Digits count up (`1.2.3`), letters come from the class. Only samples the
// regular expression really accepts are kept.

const DIGITS = '123456789';

/** Parses a pattern into nodes: {alt: [seq...]}, seq = [item...], item = {atom, min, max}. */
function parse(source) {
  let i = 0;
  let ids = 0;
  const peek = () => source[i];
  const alternation = () => {
    const node = { id: ids++, alt: [] };
    node.alt.push(sequence());
    while (peek() === '|') {
      i++;
      node.alt.push(sequence());
    }
    return node;
  };
  const sequence = () => {
    const items = [];
    while (i < source.length && peek() !== '|' && peek() !== ')') {
      const atom = atomAt();
      const [min, max] = quantifier();
      if (atom !== null) items.push({ atom, min, max });
    }
    return items;
  };
  const quantifier = () => {
    let q = [1, 1];
    const c = peek();
    if (c === '?') q = [0, 1];
    else if (c === '*') q = [0, Infinity];
    else if (c === '+') q = [1, Infinity];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (m === null) return q;
      i += m[0].length - 1;
      q = [Number(m[1]), m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3])];
    } else return q;
    i++;
    if (peek() === '?') i++;
    return q;
  };
  const atomAt = () => {
    const c = source[i++];
    if (c === '^' || c === '$') return null;
    if (c === '.') return { chars: 'a' };
    if (c === '(') {
      let skip = false;
      if (source.startsWith('?:', i)) i += 2;
      else if (/^\?<?[=!]/.test(source.slice(i))) {
        i += source[i + 1] === '<' ? 3 : 2;
        skip = true;
      } else if (source.startsWith('?<', i)) i = source.indexOf('>', i) + 1;
      const inner = alternation();
      i++; // ')'
      return skip ? null : { group: inner };
    }
    if (c === '[') return classAt();
    if (c === '\\') return escapeAt(false);
    return { chars: c };
  };
  const escapeAt = (inClass) => {
    const c = source[i++];
    if (c === 'd') return { chars: DIGITS, digit: true };
    if (c === 'w') return { chars: 'abc' };
    if (c === 's') return { chars: ' ' };
    if (c === 'D' || c === 'W') return { chars: '-' };
    if (c === 'S') return { chars: 'a' };
    if (c === 'n') return { chars: '\n' };
    if (c === 't') return { chars: '\t' };
    if (c === 'r') return { chars: '\r' };
    if (c === 'x' || c === 'u') {
      const m = /^(?:[0-9a-fA-F]{2,4}|\{[0-9a-fA-F]+\})/.exec(source.slice(i));
      if (m !== null) {
        i += m[0].length;
        return { chars: String.fromCodePoint(parseInt(m[0].replace(/[{}]/g, ''), 16)) };
      }
    }
    if (!inClass && (c === 'b' || c === 'B')) return null;
    if (/\d/.test(c) && !inClass) return null; // a backreference
    return { chars: c };
  };
  const classAt = () => {
    let negated = false;
    if (peek() === '^') {
      negated = true;
      i++;
    }
    let chars = '';
    let digit = false;
    let first = true;
    while (i < source.length && (peek() !== ']' || first)) {
      first = false;
      let from;
      if (peek() === '\\') {
        i++;
        const e = escapeAt(true);
        digit ||= e?.digit === true;
        from = e?.chars ?? '';
        if (from.length > 1) {
          chars += from;
          continue;
        }
      } else from = source[i++];
      if (peek() === '-' && source[i + 1] !== ']' && source[i + 1] !== undefined) {
        i++;
        const to = source[i] === '\\' ? source[(i += 2) - 1] : source[i++];
        const start = from.codePointAt(0);
        const end = to.codePointAt(0);
        for (let k = start; k <= end && k - start < 26; k++) chars += String.fromCodePoint(k);
        if (start <= 0x31 && end >= 0x39) digit = true;
      } else chars += from;
    }
    i++; // ']'
    // a negated class: ordinary characters it lets through, one per pick (`[^\]]` gives `a`, `A`, `1`, `.`, ...)
    if (negated) return { chars: ['a', 'A', '1', '.', '-', '_', ' ', '/', ':'].filter((x) => !chars.includes(x)).join('') };
    const digits = digit && /^[0-9]/.test(chars.replace(/^0/, ''));
    return { chars: digits ? chars : ordinaryFirst(chars), digit: digits };
  };
  return alternation();
}

/**
 * A class's characters with one of each sort first, the most ordinary first: a lowercase letter, an
 * uppercase one, a digit, then the rest in their order (`[!#$0-9A-Za-z]` gives `a`, `A`, `0`, `!`,
 * ...): each pick of a class shows another sort of text, not another punctuation mark.
 */
function ordinaryFirst(chars) {
  const all = [...chars];
  const firsts = [/[a-z]/, /[A-Z]/, /[0-9]/].map((re) => all.find((c) => re.test(c))).filter((c) => c !== undefined);
  if (firsts.length === 0) return chars;
  const rest = [...all];
  for (const c of firsts) rest.splice(rest.indexOf(c), 1);
  return [...firsts, ...rest].join('');
}

/**
 * One string the pattern tree gives in `mode`: {optional: take optional parts once, branch: [id, k]
 * take branch k of the alternation numbered id (else the first)}; `state` counts digits.
 */
function generate(node, mode, state, depth = 0) {
  const branches = node.alt;
  // the default branch: the first made of digits, where one is (`[x*]|\d+` gives a number)
  const digits = branches.findIndex((seq) => seq.length > 0 && seq.every(({ atom }) => atom.digit));
  const k = mode.branch && mode.branch[0] === node.id ? mode.branch[1] : Math.max(digits, 0);
  const seq = branches[Math.min(k, branches.length - 1)];
  let out = '';
  for (const item of seq) {
    const { atom, min, max } = item;
    // with a depth, optional groups are taken that many levels deep, with `only` one optional group
    // (and those around it); optional characters in neither
    // with `holds`, an optional group holding that alternation is taken, other optional parts not
    const holding = mode.holds !== undefined && atom.group !== undefined && holdsAlternation(atom.group, mode.holds);
    const take = holding || (mode.only !== undefined ? mode.only.has(item.optional) : mode.depth === undefined ? mode.optional : atom.group !== undefined && depth < mode.depth);
    const times = take ? Math.min(Math.max(min, 1), max) : min;
    for (let n = 0; n < times; n++) {
      if (atom.group) out += generate(atom.group, mode, state, min === 0 ? depth + 1 : depth);
      else if (atom.digit) out += DIGITS[state.digits++ % DIGITS.length];
      else out += atom.chars[Math.min(mode.pick ?? 0, atom.chars.length - 1)] ?? '';
    }
  }
  return out;
}

/** Numbers the optional groups of the tree (`item.optional`); gives each one's enclosing optional groups, by number. */
function optionalGroups(node, around = [], out = []) {
  for (const seq of node.alt) {
    for (const item of seq) {
      if (!item.atom.group) continue;
      if (item.min === 0) {
        item.optional = out.length;
        out.push(around);
        optionalGroups(item.atom.group, [...around, item.optional], out);
      } else optionalGroups(item.atom.group, around, out);
    }
  }
  return out;
}

/** True when the alternation numbered `id` is `node` or lies inside it. */
function holdsAlternation(node, id) {
  if (node.id === id) return true;
  return node.alt.some((seq) => seq.some(({ atom }) => atom.group !== undefined && holdsAlternation(atom.group, id)));
}

/** Alternations of the tree with their branch counts, by id. */
function alternationsOf(node, out = []) {
  out[node.id] = node.alt.length;
  for (const seq of node.alt) for (const { atom } of seq) if (atom.group) alternationsOf(atom.group, out);
  return out;
}

/** Branches of alternations taken one at a time, at most (a unit table `ms|s|m|h|d|w|y`: each of them). */
const MAX_BRANCHES = 32;

/**
 * Up to `limit` different strings `regex` accepts, the shortest kinds first. Default: 12, and two
 * more per branch of its alternations (each branch alone, with and without its optional parts).
 */
export function regexSamples(regex, limit) {
  let tree;
  try {
    tree = parse(regex.source);
  } catch {
    return [];
  }
  if (limit === undefined) {
    let branches = 0;
    alternationsOf(tree).forEach((count) => {
      branches += Math.min(count, MAX_BRANCHES) - 1;
    });
    limit = 12 + 3 * branches;
  }
  const modes = [{ optional: false }, { depth: 1 }, { depth: 2 }, { depth: 3 }, { optional: true }];
  // each class's other characters (`[<>=~^]` gives `<`, `>`, `=`, ...)
  for (let pick = 1; pick < 6; pick++) modes.push({ optional: false, pick });
  // and those of optional parts (`\[([^\]]*)\]` gives `[A]`, `[1]`, `[.]` besides `[a]`)
  for (let pick = 1; pick < 4; pick++) modes.push({ optional: true, pick });
  optionalGroups(tree).forEach((around, id) => {
    if (id < 12) modes.push({ only: new Set([...around, id]) });
  });
  alternationsOf(tree).forEach((count, id) => {
    for (let k = 1; k < Math.min(count, MAX_BRANCHES); k++) modes.push({ optional: true, branch: [id, k] }, { optional: false, branch: [id, k] });
  });
  // each branch alone, its own optional parts left out (`years?` gives `year` too)
  alternationsOf(tree).forEach((count, id) => {
    for (let k = 0; k < Math.min(count, MAX_BRANCHES); k++) modes.push({ optional: false, branch: [id, k], holds: id });
  });
  const out = [];
  const tester = new RegExp(regex.source, regex.flags.replace(/[gy]/g, ''));
  for (const mode of modes) {
    let sample;
    try {
      sample = generate(tree, mode, { digits: 0 });
    } catch {
      continue;
    }
    if (!out.includes(sample) && tester.test(sample)) out.push(sample);
    if (out.length >= limit) break;
  }
  return out;
}
