import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { pythonDependencyRules } from '../../src/languages/python/python-dependencies.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { MISSING_DEPENDENCIES_FILE } from '../../src/sandbox/runtime-dependencies.js';

const { declared, missingModule, installer } = pythonDependencyRules;

/** The snapshot's files from text. */
function files(entries: Record<string, string>): Map<string, Buffer> {
  return new Map(Object.entries(entries).map(([path, text]) => [path, Buffer.from(text)]));
}

/** The declared names of a snapshot made of `entries`. */
function names(entries: Record<string, string>): string[] {
  return declared(files(entries)).map((d) => d.name);
}

describe('pythonDependencyRules.declared: pyproject.toml', () => {
  it('reads [project] dependencies across lines, with comments, both quotes and brackets inside strings', () => {
    const pyproject = [
      '[build-system]',
      'requires = ["setuptools>=61"]',
      '',
      '[project]',
      'name = "demo"',
      "classifiers = ['License :: OSI Approved', \"x = [y]\"]",
      'dependencies = [',
      '  "requests[socks]>=2.0",  # http',
      "  'click (>=8)',",
      '  # "commented-out>=1",',
      '  "six",',
      ']',
      '',
      '[project.optional-dependencies]',
      'test = ["pytest"]',
    ].join('\n');
    expect(names({ 'pyproject.toml': pyproject })).toEqual(['click', 'requests', 'six']);
  });

  it('reads [tool.poetry.dependencies] keys, leaving out python and optional ones', () => {
    const pyproject = [
      '[tool.poetry]',
      'name = "demo"',
      '',
      '[tool.poetry.dependencies]',
      'python = "^3.8"',
      'requests = "^2.31"',
      '"ruamel.yaml" = { version = "^0.17" }',
      'lxml = { version = "^4", optional = true }',
      'colorama = { version = "*", markers = "python_version < \'3\'" }',
      'numpy = [',
      '  { version = "<2", python = "<3.9" },',
      '  { version = ">=2", python = ">=3.9" },',
      ']',
      '',
      '[tool.poetry.group.dev.dependencies]',
      'pytest = "^7"',
    ].join('\n');
    expect(names({ 'pyproject.toml': pyproject })).toEqual(['numpy', 'requests', 'ruamel.yaml']);
  });
});

describe('pythonDependencyRules.declared: setup.cfg, setup.py, requirements', () => {
  it('reads setup.cfg install_requires from indented continuation lines, comment lines left out', () => {
    const cfg = ['[metadata]', 'name = demo', '', '[options]', 'packages = find:', 'install_requires =', '    attrs>=19', '    # a comment', '', '    six; python_version >= "3"', 'zip_safe = False', '', '[options.extras_require]', 'test = pytest'].join('\n');
    expect(names({ 'setup.cfg': cfg })).toEqual(['attrs', 'six']);
  });

  it('reads a one-line setup.cfg install_requires as ;-separated', () => {
    expect(names({ 'setup.cfg': '[options]\ninstall_requires = click>=7; six\n' })).toEqual(['click', 'six']);
  });

  it('reads setup.py install_requires written as a list in the call', () => {
    const setup = "from setuptools import setup\nsetup(\n    name='demo',\n    install_requires=[\n        'requests>=2',  # http\n        \"PyYAML\",\n    ],\n    tests_require=['pytest'],\n)\n";
    expect(names({ 'setup.py': setup })).toEqual(['PyYAML', 'requests']);
  });

  it('reads setup.py install_requires passed as a module-level variable, and a tuple', () => {
    const setup = "REQUIRES = [\n    'click',\n    'jinja2>=3',\n]\nEXTRA = ('simplejson',)\nsetup(name='demo', install_requires=REQUIRES)\n";
    expect(names({ 'setup.py': setup })).toEqual(['click', 'jinja2']);
    expect(names({ 'setup.py': "setup(install_requires=('a-pkg', 'b_pkg'))" })).toEqual(['a-pkg', 'b_pkg']);
  });

  it('takes no strings from setup.py code that only computes install_requires', () => {
    const setup = "setup(install_requires=[l.strip() for l in open('requirements.in')], other=['x' + y])\nsetup(install_requires=read('reqs.txt'))\n";
    expect(names({ 'setup.py': setup })).toEqual([]);
  });

  it('reads requirements.txt, requirements/base.txt and requirements/prod.txt, but not dev or test lists', () => {
    const txt = ['# pinned', '-r other.txt', '-e git+https://example.invalid/x.git#egg=x', '--index-url https://example.invalid/simple', 'https://example.invalid/pkg.whl', './local/pkg', 'git+https://example.invalid/y.git', 'Django==4.2 \\', '    --hash=sha256:abc', 'requests  # http', ''].join('\n');
    const snapshot = { 'requirements.txt': txt, 'requirements/base.txt': 'celery\n', 'requirements/prod.txt': 'gunicorn\n', 'requirements/dev.txt': 'black\n', 'requirements-test.txt': 'pytest\n' };
    expect(names(snapshot)).toEqual(['Django', 'celery', 'gunicorn', 'requests']);
  });

  it("adds what the tests import, by the tests' requirement list where it names it, never the standard library or the repository's own modules", () => {
    const test = [
      'import os, sys',
      'from __future__ import annotations',
      'import yaml',
      'from mock import Mock',
      'try:',
      '    import capturer',
      'except ImportError:',
      '    pass',
      'from .compat import unittest',
      'from helpers import make',
      'from demo import core',
      'def test_x():',
      '        import numpy  # a test that needs it imports it itself',
    ].join('\n');
    const snapshot = {
      'setup.py': "setup(install_requires=['six'])\n",
      'requirements-tests.txt': 'capturer >= 2.4\npytest-cov\n',
      'demo/__init__.py': '',
      'demo/core.py': 'import json\n',
      'demo/tests/test_core.py': test,
      'demo/tests/helpers.py': 'import yaml\n',
    };
    const found = declared(files(snapshot));
    expect(found.map((d) => [d.name, d.from, d.install, d.forTests ?? false])).toEqual([
      ['capturer', 'requirements-tests.txt', 'python3-capturer', true],
      ['mock', "imported by the repository's tests", 'python3-mock', true],
      ['pyyaml', "imported by the repository's tests", 'python3-yaml', true],
      ['six', 'setup.py', 'python3-six', false],
    ]);
  });

  it('adds nothing for tests that import only the library, the standard library and pytest', () => {
    expect(names({ 'pkg/__init__.py': '', 'tests/test_pkg.py': 'import unittest\nimport pkg\nfrom pkg import x\n' })).toEqual([]);
    // pytest is in the Python image itself: a suite that imports it needs no dependency image
    expect(names({ 'pkg/__init__.py': '', 'tests/test_pkg.py': 'import pytest\nfrom _pytest.monkeypatch import MonkeyPatch\nimport pluggy\n' })).toEqual([]);
  });

  it('reads manifests only at the repository root', () => {
    expect(names({ 'sub/requirements.txt': 'six\n', 'sub/pyproject.toml': '[project]\ndependencies = ["click"]\n' })).toEqual([]);
  });
});

describe('pythonDependencyRules.declared: PEP 508 and the result', () => {
  it('drops extras and versions, and requirements whose markers exclude Python 3 or need an extra', () => {
    const txt = [
      'a-kept[extra1,extra2]>=1,<2',
      'py2-only; python_version < "3"',
      "py27; python_version == '2.7'",
      "py2-tight;python_version<'3.0'",
      'reversed-py2; "3" > python_version',
      'py2-or-extra; python_version < "3" or extra == "docs"',
      'needs-extra; extra == "test"',
      'windows; sys_platform == "win32"',
      'new-python; python_version >= "3.8"',
      'full-version; python_full_version >= "3.6.1" and platform_machine != "arm"',
      'grouped; (python_version < "3" and os_name == "nt") or python_version >= "3.10"',
      'grouped-out; python_version < "3" and (os_name == "nt" or os_name == "posix")',
      'compatible; python_version ~= "3.7"',
      'wildcard-out; python_version == "3.6.*"',
      'unreadable; python_version <<< what',
    ].join('\n');
    expect(names({ 'requirements.txt': txt })).toEqual(['a-kept', 'compatible', 'full-version', 'grouped', 'new-python', 'unreadable', 'windows']);
  });

  it('deduplicates by normalised name, from naming the first manifest', () => {
    const result = declared(
      files({
        'pyproject.toml': '[project]\ndependencies = ["Typing_Extensions>=4"]\n',
        'setup.py': "setup(install_requires=['typing-extensions', 'Six'])",
        'requirements.txt': 'six\ntyping.extensions\n',
      }),
    );
    expect(result.map((d) => [d.name, d.from])).toEqual([
      ['Six', 'setup.py'],
      ['Typing_Extensions', 'pyproject.toml'],
    ]);
  });

  it('leaves out standard-library backports but keeps packages that are more than one', () => {
    expect(names({ 'requirements.txt': 'enum34\nfutures\ntyping\ndataclasses; python_version < "3.7"\npathlib\nargparse\nimportlib-metadata\n' })).toEqual(['importlib-metadata']);
  });

  it('names the Debian package python3-<name>, a leading python- dropped, and the import names', () => {
    const [levenshtein, dateutil, requests] = declared(files({ 'requirements.txt': 'python-dateutil\nrequests\npython-Levenshtein\n' }));
    expect(dateutil).toEqual({ name: 'python-dateutil', from: 'requirements.txt', install: 'python3-dateutil', modules: ['dateutil'] });
    expect(requests).toEqual({ name: 'requests', from: 'requirements.txt', install: 'python3-requests', modules: ['requests'] });
    expect(levenshtein?.install).toBe('python3-levenshtein');
    expect(levenshtein?.modules).toEqual(['levenshtein', 'Levenshtein']);
  });

  it('maps the well-known exceptions to their Debian package and import names', () => {
    const txt = 'PyYAML\nbeautifulsoup4\nPillow\nattrs\nscikit-learn\nPyJWT\nmsgpack-python\npycryptodome\ntyping_extensions\nMarkupSafe\nzope.interface\njaraco.text\n';
    const byName = new Map(declared(files({ 'requirements.txt': txt })).map((d) => [d.name, [d.install, d.modules]]));
    expect(Object.fromEntries(byName)).toEqual({
      PyYAML: ['python3-yaml', ['yaml']],
      beautifulsoup4: ['python3-bs4', ['bs4']],
      Pillow: ['python3-pil', ['PIL']],
      attrs: ['python3-attr', ['attr', 'attrs']],
      'scikit-learn': ['python3-sklearn', ['sklearn']],
      PyJWT: ['python3-jwt', ['jwt']],
      'msgpack-python': ['python3-msgpack', ['msgpack']],
      pycryptodome: ['python3-pycryptodome', ['Crypto']],
      typing_extensions: ['python3-typing-extensions', ['typing_extensions']],
      MarkupSafe: ['python3-markupsafe', ['markupsafe', 'MarkupSafe']],
      'zope.interface': ['python3-zope.interface', ['zope']],
      'jaraco.text': ['python3-jaraco.text', ['jaraco']],
    });
  });

  it('keeps the dots of a namespace package in its Debian name, and maps its dashed spelling too', () => {
    const installs = declared(files({ 'requirements.txt': 'jaraco.functools\nZope-Interface\nruamel_yaml\n' })).map((d) => d.install);
    expect(installs).toEqual(['python3-zope.interface', 'python3-jaraco.functools', 'python3-ruamel.yaml']);
  });

  it('gives no install, and says why, for a name that makes no Debian package name', () => {
    const [odd] = declared(files({ 'requirements.txt': 'odd_\n' }));
    expect(odd?.install).toBeNull();
    expect(odd?.why).toMatch(/no Debian package name/);
  });

  it('sorts by name', () => {
    expect(names({ 'requirements.txt': 'zeta\nalpha\nmid\n' })).toEqual(['alpha', 'mid', 'zeta']);
  });
});

describe('pythonDependencyRules.declared: malformed manifests', () => {
  const garbage = ['[project\ndependencies = ["a"', 'dependencies = [[[[', '"""', "install_requires=['x", '[options]\ninstall_requires =', '\u0000\u00ff\ufffd', '[tool.poetry.dependencies]\n= "x"\n"unterminated = 1', 'install_requires=REQUIRES', ';;;', '@@@ ; ((('];

  it.each(garbage)('never throws on %j', (text) => {
    const snapshot = files({ 'pyproject.toml': text, 'setup.cfg': text, 'setup.py': text, 'requirements.txt': text });
    expect(() => declared(snapshot)).not.toThrow();
  });

  it('keeps what an unterminated array still lists, and reads nothing from binary content', () => {
    expect(names({ 'pyproject.toml': '[project]\ndependencies = ["six", "click"\n' })).toEqual(['click', 'six']);
    expect(names({ 'requirements.txt': '\u0000\u0001\u0002\n', 'setup.cfg': '\u00ff\u00fe' })).toEqual([]);
  });
});

describe('pythonDependencyRules.missingModule', () => {
  it('reads the top-level module of "No module named"', () => {
    expect(missingModule("ModuleNotFoundError: No module named 'six'")).toBe('six');
    expect(missingModule("Traceback ...\nModuleNotFoundError: No module named 'six.moves'")).toBe('six');
    expect(missingModule('ImportError: No module named yaml')).toBe('yaml');
  });

  it('is null when the module is there or the message is about something else', () => {
    expect(missingModule("ImportError: cannot import name 'x' from 'y' (/usr/lib/python3/y.py)")).toBeNull();
    expect(missingModule("ModuleNotFoundError: No module named 'foo.bar'; 'foo' is not a package")).toBeNull();
    expect(missingModule('TypeError: unsupported operand')).toBeNull();
  });
});

describe('pythonDependencyRules.installer', () => {
  it('is apt, and pins by sorting and de-duplicating', async () => {
    expect(installer.tool).toBe('apt');
    expect(await installer.pin(['python3-six', 'python3-attr', 'python3-six'], {})).toEqual(['python3-attr', 'python3-six']);
  });

  it('installs each package with its own apt-get, a failure listed as missing, in one RUN that cleans up', async () => {
    const { dockerfile, files: context } = await installer.layer(['python3-six', 'python3-zope.interface'], {});
    expect(context).toEqual([]);
    const lines = dockerfile.split('\n');
    expect(lines[0]).toBe(`RUN mkdir -p /opt/codemidas/dependencies && : > ${MISSING_DEPENDENCIES_FILE} \\`);
    expect(lines.filter((l) => l.startsWith('RUN '))).toHaveLength(1);
    const apt = 'DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends';
    // the name as asked, else the one python3- package named like it but for dashes and dots
    // (python3-jsonpointer is Debian's python3-json-pointer), else listed as missing
    const namesake = (squashed: string): string =>
      `{ alt=$(apt-cache pkgnames python3- | awk -v want=${squashed} '{ s = $0; gsub(/[-.]/, "", s); if (s == want) print $0 }'); [ -n "$alt" ] && [ "$(echo "$alt" | wc -l)" = 1 ] && ${apt} "$alt"; }`;
    expect(lines.filter((l) => l.includes('apt-get install'))).toEqual([
      ` && { ${apt} python3-six || ${namesake('python3six')} || echo python3-six >> ${MISSING_DEPENDENCIES_FILE}; } \\`,
      ` && { ${apt} python3-zope.interface || ${namesake('python3zopeinterface')} || echo python3-zope.interface >> ${MISSING_DEPENDENCIES_FILE}; } \\`,
    ]);
    const order = ['apt-get update ||', 'python3-six ||', 'python3-zope.interface ||', 'rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /usr/share/doc /usr/share/man', `chmod a+r ${MISSING_DEPENDENCIES_FILE}`];
    const positions = order.map((text) => dockerfile.indexOf(text));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it.each(['python3-six; rm -rf /', 'Python3-six', '-oDebug::pkgProblemResolver=1', 'python3 six', '$(id)', 'x'])('rejects %j as a package', async (name) => {
    await expect(installer.layer(['python3-six', name], {})).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe('the Python plugin', () => {
  it('declares its dependencies with these rules', () => {
    expect(createPythonPlugin().dependencies).toBe(pythonDependencyRules);
  });
});

describe('installed metadata (a repository that is a site-packages folder)', () => {
  const files = (entries: Record<string, string>): Map<string, Buffer> => new Map(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v)]));

  it('reads egg-info requires.txt above its conditional sections, and dist-info Requires-Dist headers', () => {
    const found = pythonDependencyRules.declared(
      files({
        'isodate-0.6.1.egg-info/requires.txt': 'six\n\n[test]\npytest\n',
        'kit-1.0.dist-info/METADATA': "Metadata-Version: 2.1\nName: kit\nRequires-Dist: attrs (>=20)\nRequires-Dist: pytest ; extra == 'test'\nRequires-Dist: enum34 ; python_version < \"3\"\n\nRequires-Dist: in-the-body\n",
        'deep/x.egg-info/requires.txt': 'nested-not-read\n',
      }),
    );
    expect(found.map((d) => [d.name, d.from, d.install])).toEqual([
      ['attrs', 'kit-1.0.dist-info/METADATA', 'python3-attr'],
      ['six', 'isodate-0.6.1.egg-info/requires.txt', 'python3-six'],
    ]);
  });
});
