import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLanguages } from '../../src/cli/languages.js';
import type { RecordedCase, RepoSnapshot, Unit } from '../../src/languages/construction-types.js';
import { MaskBodyError } from '../../src/languages/language-adapter.js';
import { maskRustBody, MASKED_RUST_STATEMENT } from '../../src/languages/rust/mask-rust-body.js';
import { callsInText, isLiteralText, isRustSourceFile, parseRustUnits } from '../../src/languages/rust/parse-rust-units.js';
import { rustDependencyRules } from '../../src/languages/rust/rust-dependencies.js';
import { rustInputs, rustLiteralsOf } from '../../src/languages/rust/rust-inputs.js';
import { rustLeakRules } from '../../src/languages/rust/rust-leaks.js';
import { createRustPlugin } from '../../src/languages/rust/rust-plugin.js';
import { createRustRecorder } from '../../src/languages/rust/rust-recorder.js';
import { rustRepoTests } from '../../src/languages/rust/rust-repo-tests.js';
import { shortRustType } from '../../src/languages/rust/rust-values.js';
import { rustWriter } from '../../src/languages/rust/rust-writer.js';
import { projectRoot } from '../../src/project-root.js';

/** The units `createRustPlugin().parseUnits` finds in a crate of `files` (Cargo.toml added) written to a scratch folder. */
async function unitsOfCrate(files: Record<string, string>): Promise<Unit[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'rust-crate-'));
  try {
    const all: Record<string, string> = { 'Cargo.toml': '[package]\nname = "c"\nversion = "0.1.0"\nedition = "2021"\n', ...files };
    for (const [path, text] of Object.entries(all)) {
      mkdirSync(join(tmp, path, '..'), { recursive: true });
      writeFileSync(join(tmp, path), text);
    }
    return (await createRustPlugin().parseUnits({ dir: tmp, origin: tmp, revision: 'w', files: Object.keys(all).sort() })).units;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const RUSTKIT = join(projectRoot(), 'examples/rustkit');
const plugin = createRustPlugin();

function snapshotOf(dir: string): RepoSnapshot {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [relative(dir, join(d, n))]));
  return { dir, origin: dir, revision: 'working-tree', files: walk(dir).sort() };
}

let units: Unit[];
const unit = (id: string): Unit => {
  const found = units.find((u) => u.id === id);
  if (found === undefined) throw new Error(`no unit ${id}`);
  return found;
};
const source = (file: string): string => readFileSync(join(RUSTKIT, file), 'utf8');

beforeAll(async () => {
  const parsed = await plugin.parseUnits(snapshotOf(RUSTKIT));
  expect(parsed.problems).toEqual([]);
  units = parsed.units;
});

const rv = (v: string, type: string) => ({ t: 'rust', type, v });
const fc = (over: Partial<RecordedCase>): RecordedCase => ({ id: 'c', module: 'src/numbers.rs', target: 'floor_div', init: null, args: [], kwargs: {}, expect: { returns: null }, argsAfter: null, source: 'type-hint', ...over });

describe('Rust units', () => {
  it('finds free functions, impl methods and structs of the library sources; tests, build scripts and binaries left out', () => {
    expect(units.map((u) => `${u.id} ${u.kind}`)).toEqual([
      'src/geom.rs:Point class',
      'src/geom.rs:Point.new method',
      'src/geom.rs:Point.quadrant method',
      'src/geom.rs:Point.shift method',
      'src/lib.rs:version function',
      'src/numbers.rs:gcd function',
      'src/numbers.rs:capped_sum function',
      'src/numbers.rs:floor_div function',
      'src/numbers.rs:percent_of function',
      'src/numbers.rs:digits function',
      'src/numbers.rs:mean function',
      'src/numbers.rs:kth_smallest function',
      'src/text.rs:slugify function',
      'src/text.rs:word_count function',
      'src/text.rs:is_vowel function',
      'src/text.rs:vowel_count function',
      'src/text.rs:parse_pair function',
      'src/text.rs:capitalize function',
      'src/text.rs:title_case function',
    ]);
    expect(isRustSourceFile('src/lib.rs')).toBe(true);
    expect(isRustSourceFile('crates/a/src/x/mod.rs')).toBe(true);
    expect(isRustSourceFile('tests/api.rs')).toBe(false);
    expect(isRustSourceFile('build.rs')).toBe(false);
    expect(isRustSourceFile('src/main.rs')).toBe(false);
    expect(isRustSourceFile('src/bin/tool.rs')).toBe(false);
    expect(isRustSourceFile('target/debug/build/x/out/gen.rs')).toBe(false);
  });

  it('records visibility, the impl type and receiver, the doc comment, the signature, parameters and the return type', () => {
    expect(unit('src/geom.rs:Point.shift').decorators).toEqual(['pub', 'impl:Point', 'self:&mut self']);
    expect(unit('src/geom.rs:Point.quadrant').decorators).toEqual(['pub', 'impl:Point', 'self:&self']);
    expect(unit('src/geom.rs:Point.new').decorators).toEqual(['pub', 'impl:Point', 'static']);
    expect(unit('src/text.rs:capitalize').decorators).toEqual(['private']);
    const floorDiv = unit('src/numbers.rs:floor_div');
    expect(floorDiv.module).toBe('src/numbers.rs');
    expect(floorDiv.signature).toBe('pub fn floor_div(a: i32, b: i32) -> Result<i32, String>');
    expect(floorDiv.params.map((p) => `${p.name}: ${p.annotation}`)).toEqual(['a: i32', 'b: i32']);
    expect(floorDiv.returnAnnotation).toBe('Result<i32, String>');
    expect(floorDiv.docstring).toBe('Divides `a` by `b`, rounding toward negative infinity; an error when `b` is zero.');
    expect(unit('src/text.rs:parse_pair').docstring).toContain('\nempty, or the value is not a number.');
    expect(source('src/numbers.rs').split('\n')[floorDiv.bodyStartLine - 1]).toContain('if b == 0 {');
    expect(source('src/numbers.rs').split('\n')[floorDiv.bodyEndLine - 1]).toBe('    }');
  });

  it('finds call sites, calls inside macros (assert_eq!) and integration tests included, and tells literal ones', () => {
    const slug = unit('src/text.rs:slugify').callSites;
    expect(slug.map((s) => [s.caller, s.argumentTexts, s.allLiteral])).toEqual([
      ['<tests>', ['"Hello, World!"'], true],
      ['<tests>', ['"  Rust 2021 edition "'], true],
    ]);
    expect(unit('src/numbers.rs:gcd').callSites.map((s) => [s.file, s.argumentTexts])).toEqual([['tests/api.rs', ['12', '18']]]);
    // `Vec::new()` is not a call of `Point::new`
    expect(unit('src/geom.rs:Point.new').callSites.map((s) => s.file)).toEqual(['tests/api.rs']);
    expect(unit('src/text.rs:is_vowel').callSites.map((s) => [s.caller, s.allLiteral])).toEqual([['vowel_count', false]]);
    expect(callsInText('(slugify("a, b"), "a-b")')).toEqual([{ callee: 'slugify', offset: 1, args: ['"a, b"'] }]);
    expect(isLiteralText('&[1, -2, 3]')).toBe(true);
    expect(isLiteralText('vec!["a", "b"]')).toBe(true);
    expect(isLiteralText('Some(1.5)')).toBe(true);
    expect(isLiteralText('x + 1')).toBe(false);
  });

  it('refuses unsafe functions, keeps lifetime-only generics, leaves generic impls out, and hints impurity', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'rust-units-'));
    try {
      mkdirSync(join(tmp, 'src'));
      writeFileSync(join(tmp, 'Cargo.toml'), '[package]\nname = "g"\nversion = "0.1.0"\n');
      writeFileSync(
        join(tmp, 'src/lib.rs'),
        [
          'pub fn largest<T: PartialOrd + Copy>(xs: &[T]) -> T { let mut m = xs[0]; for &x in xs { if x > m { m = x; } } m }',
          "pub fn first<'a>(s: &'a str) -> &'a str { let w = s.split(' ').next(); let w = w.unwrap_or(\"\"); w }",
          'pub fn show(x: impl std::fmt::Display) -> String { let s = format!("{}", x); let t = s.clone(); t }',
          'pub unsafe fn raw(p: *const u8) -> u8 { let v = *p; let w = v; w }',
          'pub fn now_ms() -> u128 { let t = std::time::SystemTime::now(); let d = t.duration_since(std::time::UNIX_EPOCH).unwrap(); d.as_millis() }',
          'impl<T> Wrapper<T> { pub fn get(&self) -> u8 { 1 } }',
          '',
        ].join('\n'),
      );
      const parsed = await parseRustUnits({ dir: tmp, origin: tmp, revision: 'w', files: ['Cargo.toml', 'src/lib.rs'] });
      const by = new Map(parsed.units.map((u) => [u.qualname, u]));
      expect([...by.keys()]).toEqual(['largest', 'first', 'show', 'raw', 'now_ms']);
      // generic, with concrete types for their bounds (an i64 for PartialOrd + Copy and for Display)
      expect(by.get('largest')!.decorators).toContain('concrete-params:["&[i64]"]');
      expect(by.get('show')!.decorators).toContain('concrete-params:["i64"]');
      expect(plugin.unbuildable(by.get('largest')!)).toBeNull();
      expect(plugin.unbuildable(by.get('first')!)).toBeNull();
      expect(plugin.unbuildable(by.get('raw')!)?.code).toBe('unsafe');
      expect(by.get('now_ms')!.impurities).toEqual(['clock:SystemTime::now']);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('Rust masking', () => {
  it('replaces the body with unimplemented!(), keeping the signature, attributes and doc comment', () => {
    const masked = maskRustBody(source('src/numbers.rs'), unit('src/numbers.rs:floor_div'));
    expect(masked).toContain('/// Divides `a` by `b`, rounding toward negative infinity; an error when `b` is zero.\npub fn floor_div(a: i32, b: i32) -> Result<i32, String> {\n    unimplemented!()\n}\n');
    expect(masked).not.toContain('division by zero');
    expect(masked).toContain('pub fn gcd(a: u64, b: u64) -> u64 {\n    let (mut a, mut b) = (a, b);');
  });

  it('masks a method inside its impl block at the impl indentation', () => {
    const masked = maskRustBody(source('src/geom.rs'), unit('src/geom.rs:Point.shift'));
    expect(masked).toContain(`    pub fn shift(&mut self, dx: i32, dy: i32) -> i32 {\n        ${MASKED_RUST_STATEMENT}\n    }\n}`);
    expect(masked).toContain('self.x == 0 || self.y == 0');
  });

  it('throws MaskBodyError when the function is not where the unit says', () => {
    const moved = { ...unit('src/numbers.rs:gcd'), bodyStartLine: 2 };
    expect(() => maskRustBody(source('src/numbers.rs'), moved)).toThrow(MaskBodyError);
  });
});

describe('Rust inputs and the record target', () => {
  it('writes typed literals for each parameter type, none for a type it does not know', () => {
    expect(rustLiteralsOf('i32').slice(0, 3)).toEqual(['0', '1', '-1']);
    expect(rustLiteralsOf('u8')).not.toContain('1000');
    expect(rustLiteralsOf('&str')[2]).toBe('"abc"');
    expect(rustLiteralsOf('String')[1]).toBe('String::from("a")');
    expect(rustLiteralsOf('&[i64]')).toEqual(['&[]', '&[1]', '&[1, -1]', '&[-1, 1, 2, 1]']);
    expect(rustLiteralsOf('&mut Vec<u32>')[1]).toBe('&mut vec![1]');
    expect(rustLiteralsOf('Option<bool>')).toEqual(['None', 'Some(true)', 'Some(false)']);
    expect(rustLiteralsOf('(i32, &str)')[0]).toBe('(0, "a")');
    expect(rustLiteralsOf('HashMap<String, i32>')).toEqual([]);
    expect(rustLiteralsOf('[u8; 3]')).toEqual(['[0, 1, 2]', '[1, 2, 7]']);
    expect(rustLiteralsOf('&[u8; 256]')[0]).toBe('&[0; 256]');
  });

  it('takes the repository literal calls first (tests as repo-test), then one parameter varied at a time from two bases, then seeded combinations', () => {
    const inputs = rustInputs(unit('src/text.rs:slugify'), 0, 60);
    expect(inputs.slice(0, 3)).toEqual([
      { args: ['"Hello, World!"'], source: 'repo-test' },
      { args: ['"  Rust 2021 edition "'], source: 'repo-test' },
      { args: ['""'], source: 'type-hint' },
    ]);
    const gcd = rustInputs(unit('src/numbers.rs:gcd'), 0, 60);
    expect(gcd[0]).toEqual({ args: ['12', '18'], source: 'repo-test' });
    expect(gcd.slice(1, 4).map((i) => i.args)).toEqual([['0', '0'], ['1', '0'], ['2', '0']]);
    // varied again from the second literal of each: `gcd(7, 1)`, `gcd(1, 7)`
    expect(gcd.map((i) => i.args.join(','))).toEqual(expect.arrayContaining(['1,1', '7,1', '1,7']));
    expect(gcd.every((i) => i.args.length === 2 && i.source !== 'call-site')).toBe(true);
    expect(rustInputs(unit('src/numbers.rs:gcd'), 0, 60)).toEqual(gcd);
  });

  it('gives a method its receivers: literal constructor calls, a struct literal, as the driver takes them', () => {
    const classes = new Map(units.filter((u) => u.kind === 'class').map((u) => [u.id, u] as const));
    const target = createRustRecorder().target({ unit: unit('src/geom.rs:Point.shift'), reasons: [] }, classes, []);
    expect(target['module']).toBe('src/geom.rs');
    expect(target['selfKind']).toBe('&mut self');
    expect(target['selfType']).toBe('Point');
    expect(target['receivers']).toEqual(['Point::new(1, 2)', 'Point { x: 1, y: -1 }', 'Point { x: 2, y: 10 }', 'Point { x: 0, y: 0 }']);
    expect(target['params']).toEqual([{ name: 'dx', type: 'i32' }, { name: 'dy', type: 'i32' }]);
  });

  it('leaves out the module files declared under #[cfg(test)] (their calls are tests), and takes public constants of a struct as its values', async () => {
    const units = await unitsOfCrate({
      'src/lib.rs': 'pub mod config;\n#[cfg(test)]\nmod tests;\n\npub fn width(c: config::Config, n: usize) -> usize { let w = n * 4; let p = if c.pad { 3 } else { 0 }; (w + p) / 3 }\n',
      'src/config.rs': 'pub struct Config { pub pad: bool, table: std::collections::HashMap<u8, u8> }\npub const STANDARD: Config = Config { pad: true, table: std::collections::HashMap::new() };\nconst HIDDEN: Config = STANDARD;\n',
      'src/tests.rs': 'pub fn helper(n: usize) -> usize { let a = n; let b = a + 1; b * 2 }\n#[test]\nfn widths() { assert_eq!(crate::width(crate::config::STANDARD, 3), 5); }\n',
    });
    expect(units.map((u) => u.id)).toEqual(['src/config.rs:Config', 'src/lib.rs:width']);
    const config = units.find((u) => u.qualname === 'Config')!;
    expect(config.decorators).toContain('const-expr:crate::config::STANDARD');
    expect(config.decorators).toContain('receiver-expr:crate::config::STANDARD');
    const width = units.find((u) => u.qualname === 'width')!;
    expect(width.callSites.map((s) => s.caller)).toEqual(['<tests>']);
    const classes = new Map(units.filter((u) => u.kind === 'class').map((u) => [u.id, u] as const));
    const inputs = createRustRecorder().target({ unit: width, reasons: [] }, classes, [])['inputs'] as { args: string[] }[];
    expect(inputs[0]?.args).toEqual(['crate::config::STANDARD', '0']);
  });

  it('gives a generic function concrete types from its bounds where it can, and refuses the others', async () => {
    const units = await unitsOfCrate({
      'src/lib.rs': [
        'pub fn digest<T: AsRef<[u8]>>(data: T) -> u32 { let b = data.as_ref(); let n = b.len() as u32; n * 3 }',
        'pub fn greet(name: impl Into<String>, times: usize) -> String { let s: String = name.into(); let r = s.repeat(times); r }',
        "pub fn largest<'a, T>(xs: &'a [T]) -> T where T: PartialOrd + Copy { let mut m = xs[0]; for &x in xs { if x > m { m = x; } } m }",
        'pub fn total<I: IntoIterator<Item = E>, E: Into<u64>>(items: I) -> u64 { let mut s = 0; for x in items { s += x.into(); } s }',
        "pub fn jaro<'a, I>(a: &'a I) -> usize where &'a I: IntoIterator { let n = a.into_iter().count(); let m = n; m }",
        'pub fn parse<T: std::str::FromStr>(s: &str) -> Option<T> { let t = s.trim(); let v = t.parse().ok(); v }',
        'pub fn apply<F: Fn(i32) -> i32>(f: F) -> i32 { let a = f(1); let b = a; b }',
        '',
      ].join('\n'),
    });
    const plugin = createRustPlugin();
    const by = new Map(units.map((u) => [u.qualname, u]));
    const concrete = (name: string): string | undefined => by.get(name)!.decorators.find((d) => d.startsWith('concrete-params:'));
    expect(concrete('digest')).toBe('concrete-params:["&[u8]"]');
    expect(concrete('greet')).toBe('concrete-params:["&str","usize"]');
    expect(concrete('largest')).toBe('concrete-params:["&[i64]"]');
    expect(concrete('total')).toBe('concrete-params:["Vec<u8>"]');
    for (const name of ['digest', 'greet', 'largest', 'total']) expect(plugin.unbuildable(by.get(name)!), name).toBeNull();
    // a where clause on a reference, a type parameter only the return names, a closure: still refused
    for (const name of ['jaro', 'parse', 'apply']) expect(plugin.unbuildable(by.get(name)!)?.code, name).toBe('generic');
    const inputs = createRustRecorder().target({ unit: by.get('digest')!, reasons: [] }, new Map(), [])['inputs'] as { args: string[] }[];
    expect(inputs[1]?.args).toEqual(['&[1]']);
  });

  it("builds receivers from the type's own constructors' parameter literals when its fields have none", async () => {
    const units = await unitsOfCrate({
      'src/lib.rs': [
        'pub struct Tally { counts: std::collections::HashMap<String, u32>, limit: usize }',
        'impl Tally {',
        '    pub fn with_limit(limit: usize) -> Self { let counts = std::collections::HashMap::new(); let t = Tally { counts, limit }; t }',
        '    pub fn build<T: Into<usize>>(limit: T) -> Self { Self::with_limit(limit.into()) }',
        '    pub fn total(&self) -> u32 { let mut s = 0; for v in self.counts.values() { s += v; } s.min(self.limit as u32) }',
        '}',
        '',
      ].join('\n'),
    });
    const tally = units.find((u) => u.kind === 'class' && u.qualname === 'Tally')!;
    // the generic `build` is not called; `with_limit` is, with usize literals
    expect(tally.decorators.filter((d) => d.startsWith('receiver-expr:'))).toEqual(['receiver-expr:Tally::with_limit(0)', 'receiver-expr:Tally::with_limit(1)', 'receiver-expr:Tally::with_limit(7)']);
  });
});

describe('Rust writer', () => {
  const cases: RecordedCase[] = [
    fc({ id: 'a', args: [rv('7', 'i32'), rv('2', 'i32')], expect: { returns: rv('Ok(3)', 'core::result::Result<i32, alloc::string::String>') } }),
    fc({ id: 'b', args: [rv('1', 'i32'), rv('0', 'i32')], expect: { returns: rv('Err("division by zero")', 'core::result::Result<i32, alloc::string::String>') }, path: 'returns Err' }),
    fc({ id: 'c', args: [rv('-7', 'i32'), rv('2', 'i32')], expect: { returns: rv('Ok(-4)', 'core::result::Result<i32, alloc::string::String>') } }),
  ];

  it('shows the signature, the doc comment and one example per behaviour class as Rust calls with their results', () => {
    const prompt = rustWriter.renderPrompt({ unit: unit('src/numbers.rs:floor_div'), cases, libraryName: plugin.describeLibrary(units) });
    expect(prompt).toContain('# Implement `floor_div` in `src/numbers.rs`');
    expect(prompt).toContain('```rust\npub fn floor_div(a: i32, b: i32) -> Result<i32, String>\n```');
    expect(prompt).toContain('rounding toward negative infinity');
    expect(prompt).toContain('floor_div(1, 0) // → Err("division by zero") (Result<i32, String>)');
    expect(prompt).toContain('floor_div(7, 2) // → Ok(3) (Result<i32, String>)');
    expect(prompt).toContain('`unimplemented!()`');
    expect(rustWriter.exampleLines(prompt)).toHaveLength(3);
    expect(rustWriter.title(unit('src/numbers.rs:floor_div'))).toBe('Divides `a` by `b`, rounding toward negative infinity; an error when `b` is zero');
  });

  it('writes a method call on its receiver, what the receiver holds afterwards, and a panic', () => {
    const shift = fc({ target: 'Point.shift', init: { args: [{ t: 'rust', v: 'Point::new(1, 2)', type: 'Point', self: '&mut self' }], kwargs: {} }, args: [rv('1', 'i32'), rv('1', 'i32')], expect: { returns: rv('5', 'i32') }, argsAfter: [rv('Point { x: 2, y: 3 }', 'rustkit::geom::Point'), rv('1', 'i32'), rv('1', 'i32')] });
    expect(rustWriter.exampleBlock(unit('src/geom.rs:Point.shift'), shift)).toBe('Point::new(1, 2).shift(1, 1) // → 5 (i32)\n// afterwards the receiver is Point { x: 2, y: 3 }');
    const push = fc({ target: 'push_twice', args: [rv('&mut vec![1]', '&mut Vec<i32>'), rv('2', 'i32')], expect: { returns: rv('()', '()') }, argsAfter: [rv('[1, 2, 2]', '&mut alloc::vec::Vec<i32>'), rv('2', 'i32')] });
    expect(rustWriter.exampleBlock(unit('src/numbers.rs:gcd'), push)).toBe('push_twice(&mut vec![1], 2) // → ()\n// afterwards argument 1 is [1, 2, 2]');
    const panic = fc({ target: 'kth_smallest', args: [rv('&[]', '&[i64]'), rv('0', 'usize')], expect: { raises: 'panic' } });
    expect(rustWriter.exampleBlock(unit('src/numbers.rs:kth_smallest'), panic)).toBe('kth_smallest(&[], 0) // panics');
    expect(rustWriter.exampleBlock(unit('src/geom.rs:Point.new'), fc({ target: 'Point.new', args: [rv('1', 'i32'), rv('1', 'i32')], expect: { returns: rv('Point { x: 1, y: 1 }', 'rustkit::geom::Point') } }))).toBe('Point::new(1, 1) // → Point { x: 1, y: 1 } (Point)');
    expect(shortRustType('core::option::Option<alloc::vec::Vec<alloc::string::String>>')).toBe('Option<Vec<String>>');
  });
});

describe('Rust repository tests, leaks and dependencies', () => {
  it('removes the #[test] functions that name the target from a source file, keeping the library and the other tests', () => {
    const out = rustRepoTests.removeTestsOf(source('src/text.rs'), unit('src/text.rs:slugify'));
    expect(out.removed).toEqual(['slugs']);
    expect(out.source).toContain('fn counts_words()');
    expect(out.source).not.toContain('fn slugs()');
    expect(out.source).toContain('pub fn slugify(s: &str) -> String {');
  });

  it('drops an integration test file whose every test names the target, and keeps one with tests left', () => {
    const onlyGcd = 'use rustkit::numbers::gcd;\n\n#[test]\nfn a() {\n    assert_eq!(gcd(2, 4), 2);\n}\n';
    expect(rustRepoTests.removeTestsOf(onlyGcd, unit('src/numbers.rs:gcd'))).toEqual({ source: null, removed: ['a'] });
    const out = rustRepoTests.removeTestsOf(source('tests/api.rs'), unit('src/numbers.rs:gcd'));
    expect(out.removed).toEqual(['gcd_of_two']);
    expect(out.source).toContain('fn digits_of_a_number()');
    expect(rustRepoTests.isTestFile('tests/api.rs')).toBe(true);
  });

  it('tokenizes Rust: comments dropped, strings, raw strings, chars and lifetimes whole, paths and ranges as operators', () => {
    const { tokens, lines } = rustLeakRules.tokenize('/// doc\nfn f<\'a>(s: &\'a str) -> char { /* a /* nested */ c */ let r = r#"x"y"#; for i in 0..=2 {} \'z\' }\n');
    expect(tokens).toEqual(['fn', 'f', '<', "'a", '>', '(', 's', ':', '&', "'a", 'str', ')', '->', 'char', '{', 'let', 'r', '=', 'r#"x"y"#', ';', 'for', 'i', 'in', '0', '..=', '2', '{', '}', "'z'", '}']);
    expect(lines[0]).toBe(2);
    expect(rustLeakRules.findLibraryCopies(['/usr/share/cargo/registry/rustkit-0.1.0/src/text.rs', '/usr/share/cargo/registry/rustkit-0.1.0/src/numbers.rs', '/usr/share/cargo/registry/rustkit-0.1.0/src/geom.rs', '/usr/share/cargo/registry/other-1.0.0/src/lib.rs'], { units, files: new Set(['src/lib.rs', 'src/text.rs', 'src/numbers.rs', 'src/geom.rs']) })).toEqual(['/usr/share/cargo/registry/rustkit-0.1.0']);
    expect(rustLeakRules.indexesImageFile('/usr/lib/rustlib/src/rust/library/core/src/lib.rs')).toBe(false);
  });

  it("declares Cargo.toml's dependencies, none installed, each with why and its Debian package", () => {
    const manifest = '[package]\nname = "x"\n\n[dependencies]\nserde_json = "1"\nlocal = { path = "../local" }\n\n[dependencies.regex]\nversion = "1"\n\n[dev-dependencies]\nproptest = "1"\n';
    const declared = rustDependencyRules.declared(new Map([['Cargo.toml', Buffer.from(manifest)]]));
    expect(declared.map((d) => [d.name, d.from, d.install, d.forTests ?? false, d.modules])).toEqual([
      ['proptest', 'Cargo.toml [dev-dependencies]', null, true, ['proptest']],
      ['regex', 'Cargo.toml [dependencies]', null, false, ['regex']],
      ['serde_json', 'Cargo.toml [dependencies]', null, false, ['serde_json']],
    ]);
    expect(declared[2]!.why).toContain('librust-serde-json-dev');
    expect(rustDependencyRules.declared(new Map([['Cargo.toml', Buffer.from(source('Cargo.toml'))]]))).toEqual([]);
    expect(rustDependencyRules.missingModule('error: no matching package named `serde` found')).toBe('serde');
  });

  it('is registered: the rust task language, runner and image', () => {
    const languages = createLanguages();
    const rust = languages.get('rust');
    expect(rust.image).toBe('rust');
    expect(rust.testRunners.map((r) => r.name)).toEqual(['rust']);
    expect(rust.detect(snapshotOf(RUSTKIT)).detected).toBe(true);
    expect(rust.describeLibrary(units)).toBe('a Rust crate (modules `src/geom.rs`, `src/lib.rs`, `src/numbers.rs`, `src/text.rs`)');
  });
});
