import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParseResult } from '../../src/languages/language-adapter.js';
import { parsePythonUnits } from '../../src/languages/python/parse-python-units.js';

const SOURCE = `import os
import subprocess as sp
from pathlib import Path
from os import environ
import numpy.random


def shadowed(time, random):
    a = time + 1
    b = random * 2
    return a + b


def keywords(x):
    import time
    y = dict(time=x)
    z = y["time"]
    return z


def touches_everything(path, data):
    home = environ["HOME"]
    sp.run(["ls"])
    Path(path).write_text(data)
    with open(path) as f:
        f.read()
    print(home)
    numpy.random.seed(1)
    return os.getenv("X")


def outer(items):
    def inner():
        yield 1
    result = list(inner())
    return result


class Point:
    pass


@dataclass(frozen=True)
class Pair:
    left: int
    right: int = 0
    kind: ClassVar[str] = "pair"


if os.name == "nt":
    def sep():
        return "\\\\"
else:
    def sep():
        return "/"


@overload
def conv(x: int) -> int: ...
@typing.overload
def conv(x: str) -> str: ...
def conv(x):
    return x


class Box:
    @property
    def size(self):
        return 1

    @size.setter
    def size(self, value):
        pass


class Twice:
    def run(self):
        return 1


class Twice:
    def run(self):
        return 2
`;

let dir: string;
let result: ParseResult;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cm-impure-'));
  mkdirSync(join(dir, 'pkg'));
  writeFileSync(join(dir, 'pkg', 'mod.py'), SOURCE);
  result = await parsePythonUnits({ dir, origin: dir, revision: 'working-tree', files: ['pkg/mod.py'] });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const impurities = (qualname: string) => result.units.find((u) => u.qualname === qualname)?.impurities;

describe('names defined more than once', () => {
  it('skips @overload stubs, keeps a property getter for its setter, and drops ambiguous redefinitions with a problem', () => {
    expect(result.units.filter((u) => u.qualname === 'conv').map((u) => u.startLine)).toEqual([62]);
    expect(result.units.filter((u) => u.qualname === 'Box.size').map((u) => u.decorators)).toEqual([['property']]);
    expect(result.units.some((u) => u.qualname === 'sep' || u.qualname.startsWith('Twice'))).toBe(false);
    expect(result.problems).toEqual([
      { file: 'pkg/mod.py', code: 'redefined', message: "'sep' is defined 2 times (lines 51, 54); which one runs depends on the code path, so none is a unit" },
      { file: 'pkg/mod.py', code: 'redefined', message: "'Twice' is defined 2 times (lines 76, 81); which one runs depends on the code path, so none is a unit" },
    ]);
  });
});

describe('impurity detection', () => {
  it('ignores parameters, keyword names and subscripts that share a module name', () => {
    expect(impurities('shadowed')).toEqual([]);
    expect(impurities('keywords')).toEqual([]);
  });

  it('finds the environment, processes, file writes, builtins and module aliases, in order', () => {
    expect(impurities('touches_everything')).toEqual([
      'environment:os.environ',
      'process:subprocess.run',
      'filesystem:.write_text()',
      'filesystem:open',
      'io:print',
      'random:numpy.random.seed',
      'environment:os.getenv',
    ]);
  });

  it('does not call a function a generator because a nested function yields', () => {
    expect(result.units.find((u) => u.qualname === 'outer')?.isGenerator).toBe(false);
  });

  it('gives a dataclass its fields as constructor parameters, ClassVar excluded', () => {
    const pair = result.units.find((u) => u.qualname === 'Pair');
    expect(pair?.decorators).toEqual(['dataclass(frozen=True)']);
    expect(pair?.params).toEqual([
      { name: 'self', kind: 'positional', annotation: null, defaultValue: null },
      { name: 'left', kind: 'positional', annotation: 'int', defaultValue: null },
      { name: 'right', kind: 'positional', annotation: 'int', defaultValue: '0' },
    ]);
    expect(result.units.find((u) => u.qualname === 'Point')?.params).toEqual([]);
  });
});
