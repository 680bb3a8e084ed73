/**
 * The scoring codec on subclasses of builtin value types: a namedtuple, an OrderedDict, a Counter
 * and enum members encode exactly (type and content), so a result of one of those types can be a
 * recorded expectation, and two such values with different content never compare equal. Classes and
 * functions a module holds by name encode as refs (a constructor storing `len` or `KeyError`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

const CODEC_DIR = join(projectRoot(), 'src', 'languages', 'python', 'judge');

function python(script: string): unknown {
  const run = spawnSync('/usr/bin/python3', ['-I', '-c', `import sys; sys.path.insert(0, ${JSON.stringify(CODEC_DIR)})\n${script}`], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

/** Python lines: `refuses(value)` (whether the codec refuses to encode it) and `e`, the codec's encode. */
const REFUSES = `def refuses(value):
    try:
        codec.encode(value)
        return False
    except codec.EncodeError:
        return True
e = codec.encode`;

describe('codec: subclasses of builtin value types', () => {
  it('keeps type and content, and tells apart what differs in either', () => {
    const out = python(`
import codec, collections, enum, json
P = collections.namedtuple("P", "x y")
class Colour(enum.Enum):
    RED = 1
    BLUE = 2
class Level(enum.IntEnum):
    LOW = 1
class Tagged(list):
    pass
t = Tagged([1]); t.note = "n"
e = codec.encode
print(json.dumps({
  "namedtuple": e(P(1, 2)),
  "namedtupleVsTuple": codec.same(e(P(1, 2)), e((1, 2))),
  "namedtupleContent": codec.same(e(P(1, 2)), e(P(1, 3))),
  "orderedDictContent": codec.same(e(collections.OrderedDict(a=1)), e(collections.OrderedDict())),
  "counterVsDict": codec.same(e(collections.Counter("ab")), e({"a": 1, "b": 1})),
  "enumMembers": codec.same(e(Colour.RED), e(Colour.BLUE)),
  "intEnumVsInt": codec.same(e(Level.LOW), e(1)),
  "attrs": e(t)["v"]["state"],
  "describe": codec.describe(e(P(1, 2))),
}))
`) as Record<string, unknown>;
    expect(out.namedtuple).toEqual({
      t: 'object',
      v: { type: '__main__.P', state: { t: 'dict', v: [[{ t: 'str', v: 'value' }, { t: 'tuple', v: [{ t: 'int', v: '1' }, { t: 'int', v: '2' }] }]] } },
    });
    expect(out).toMatchObject({ namedtupleVsTuple: false, namedtupleContent: false, orderedDictContent: false, counterVsDict: false, enumMembers: false, intEnumVsInt: false });
    expect(out.attrs).toEqual({
      t: 'dict',
      v: [
        [{ t: 'str', v: 'value' }, { t: 'list', v: [{ t: 'int', v: '1' }] }],
        [{ t: 'str', v: 'attrs' }, { t: 'dict', v: [[{ t: 'str', v: 'note' }, { t: 'str', v: 'n' }]] }],
      ],
    });
    expect(out.describe).toBe("<__main__.P {'value': (1, 2)}>");
  });
});

describe('codec: instance state', () => {
  it("leaves out the bound methods an instance keeps as shortcuts (sortedcontainers' SortedDict), keeps a module's function, and encodes a sentinel", () => {
    const out = python(`
import codec, json
class Sorted(dict):
    def __init__(self, *args):
        super().__init__(*args)
        self._keys = sorted(self)
        self._add = self._keys.append
class Box:
    def __init__(self):
        self.items = [2]
        self.push = self.items.append
        self.key = len
s, b = Sorted({"b": 1, "a": 2}), Box()
_absent = object()
class Node:
    def __init__(self, key=_absent):
        self.key = key
print(json.dumps({"sorted": codec.describe(codec.encode(s)), "box": codec.describe(codec.encode(b)),
                  "differs": codec.same(codec.encode(s), codec.encode(Sorted({"b": 1}))),
                  "sentinel": codec.describe(codec.encode(Node())), "sentinelVsValue": codec.same(codec.encode(Node()), codec.encode(Node(None)))}))
`) as Record<string, unknown>;
    // a bare object() (a module's sentinel) is an object without state
    expect(out.sentinel).toBe('<__main__.Node {\'key\': <builtins.object {}>}>');
    expect(out.sentinelVsValue).toBe(false);
    expect(out.sorted).toBe("<__main__.Sorted {'value': {'b': 1, 'a': 2}, 'attrs': {'_keys': ['a', 'b']}}>");
    expect(out.box).toBe("<__main__.Box {'items': [2], 'key': builtins.len}>");
    expect(out.differs).toBe(false);
  });
});

describe('codec: classes and functions', () => {
  it('encodes a class or function its module holds under its name as a ref, decodes it back, and refuses the rest', () => {
    const out = python(`
import codec, functools, json, operator, os.path
${REFUSES}
def make():
    def local():
        return 1
    return local
local = make()
print(json.dumps({
  "len": e(len), "error": e(ValueError), "join": e(os.path.join), "add": e(operator.add),
  "state": e({"funcs": (len, str), "exc": KeyError}),
  "roundTrip": codec.decode(e(os.path.join)) is os.path.join and codec.decode(e(ValueError)) is ValueError,
  "lenVsStr": codec.same(e(len), e(str)),
  "describe": codec.describe(e(ValueError)),
  "refused": [refuses(v) for v in (lambda x: x, local, functools.partial(max, 1), "a".upper, [].append)],
}))
`) as Record<string, unknown>;
    expect(out.len).toEqual({ t: 'ref', v: ['builtins', 'len'] });
    expect(out.error).toEqual({ t: 'ref', v: ['builtins', 'ValueError'] });
    expect(out.join).toEqual({ t: 'ref', v: ['posixpath', 'join'] });
    expect((out.add as { v: string[] }).v[1]).toBe('add');
    expect(out.state).toEqual({
      t: 'dict',
      v: [
        [{ t: 'str', v: 'funcs' }, { t: 'tuple', v: [{ t: 'ref', v: ['builtins', 'len'] }, { t: 'ref', v: ['builtins', 'str'] }] }],
        [{ t: 'str', v: 'exc' }, { t: 'ref', v: ['builtins', 'KeyError'] }],
      ],
    });
    expect(out).toMatchObject({ roundTrip: true, lenVsStr: false, describe: 'builtins.ValueError' });
    // a lambda, a function its module does not hold by that name (defined in a function), a partial, bound methods
    expect(out.refused).toEqual([true, true, true, true, true]);
  });

  it('encodes an instance whose class defines __call__ in Python by its state (an expression that evaluates itself), still refusing C callables', () => {
    const out = python(`
import codec, functools, json
class Symbol:
    def __init__(self, name):
        self.name = name
    def __call__(self, **values):
        return values[self.name]
${REFUSES}
print(json.dumps({
  "symbol": e(Symbol("a")),
  "differ": codec.same(e(Symbol("a")), e(Symbol("b"))),
  "refused": [refuses(v) for v in (functools.partial(max, 1), lambda x: x, Symbol("a").__call__)],
}))
`) as Record<string, unknown>;
    expect(out.symbol).toEqual({ t: 'object', v: { type: '__main__.Symbol', state: { t: 'dict', v: [[{ t: 'str', v: 'name' }, { t: 'str', v: 'a' }]] } } });
    expect(out.differ).toBe(false);
    expect(out.refused).toEqual([true, true, true]);
  });

  it('decodes a string of name characters as the interned object a literal in source is, others as plain strings', () => {
    const out = python(`
import codec, json
sentinel = "".join(["__no", "__pad__"])  # built at run time: not interned
literal = "__no__pad__"          # compiled: interned
decoded = codec.decode({"t": "str", "v": sentinel})
spaced = codec.decode({"t": "str", "v": "a b"})
print(json.dumps([sentinel is literal, decoded is literal, decoded == literal, spaced == "a b", type(spaced).__name__]))
`);
    // a sentinel check (\`pad is no_pad\`) sees a decoded input as a test written in source would
    expect(out).toEqual([false, true, true, true, 'str']);
  });
});

describe('codec: standard-library value types (dates, decimals, fractions, UUIDs)', () => {
  it('keeps each as the call Python prints, which decodes to an equal value, and tells apart what differs', () => {
    const out = python(`
import codec, datetime, decimal, fractions, json, uuid
class Fixed(datetime.tzinfo):
    def __init__(self, minutes): self.minutes = minutes
    def utcoffset(self, d): return datetime.timedelta(minutes=self.minutes)
e = codec.encode
values = [datetime.date(2024, 2, 29), datetime.datetime(2024, 1, 1, 5, 6, tzinfo=datetime.timezone.utc), datetime.time(1, 2),
          datetime.timedelta(days=-1, seconds=5), decimal.Decimal("1.50"), fractions.Fraction(1, 3), uuid.UUID(int=5)]
print(json.dumps({
  "texts": [e(v)["v"] for v in values],
  "roundTrip": all(codec.decode(e(v)) == v and type(codec.decode(e(v))) is type(v) for v in values),
  "decimalScale": codec.same(e(decimal.Decimal("1.5")), e(decimal.Decimal("1.50"))),
  "dateVsDatetime": codec.same(e(datetime.date(2024, 1, 1)), e(datetime.datetime(2024, 1, 1))),
  "ownTzinfo": e(datetime.datetime(2024, 1, 1, tzinfo=Fixed(60)))["t"],
  "ownTzinfoDiffers": codec.same(e(datetime.datetime(2024, 1, 1, tzinfo=Fixed(60))), e(datetime.datetime(2024, 1, 1, tzinfo=Fixed(120)))),
}))
`) as Record<string, unknown>;
    expect(out.texts).toEqual([
      'datetime.date(2024, 2, 29)',
      'datetime.datetime(2024, 1, 1, 5, 6, tzinfo=datetime.timezone.utc)',
      'datetime.time(1, 2)',
      'datetime.timedelta(days=-1, seconds=5)',
      "decimal.Decimal('1.50')",
      'fractions.Fraction(1, 3)',
      "uuid.UUID('00000000-0000-0000-0000-000000000005')",
    ]);
    expect(out).toMatchObject({ roundTrip: true, decimalScale: false, dateVsDatetime: false, ownTzinfo: 'object', ownTzinfoDiffers: false });
  });
});

describe('codec: NotImplemented and Ellipsis', () => {
  it('encodes each by its name, decodes it to the very singleton, and tells it apart from None', () => {
    const out = python(`
import codec, json
class URL:
    def __eq__(self, other):
        if not isinstance(other, URL):
            return NotImplemented
        return True
e = codec.encode
print(json.dumps({
  "eqOther": e(URL().__eq__(1)),
  "ellipsis": e(...),
  "roundTrip": [codec.decode(e(NotImplemented)) is NotImplemented, codec.decode(e(...)) is Ellipsis],
  "vsNone": codec.same(e(NotImplemented), e(None)),
  "vsEllipsis": codec.same(e(NotImplemented), e(...)),
}))
`) as Record<string, unknown>;
    expect(out['eqOther']).toEqual({ t: 'repr', v: 'NotImplemented', imports: [] });
    expect(out['ellipsis']).toEqual({ t: 'repr', v: 'Ellipsis', imports: [] });
    expect(out['roundTrip']).toEqual([true, true]);
    expect(out['vsNone']).toBe(false);
    expect(out['vsEllipsis']).toBe(false);
  });
});
