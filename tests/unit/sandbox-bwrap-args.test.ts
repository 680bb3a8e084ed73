import { describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../src/sandbox/local/bwrap-args.js';

const layout = {
  hostWorkspace: '/h/ws',
  hostVarLib: '/h/vl',
  hostRelay: '/p/relay.py',
  hostScoring: '/p/scoring',
  workdir: '/workspace',
};

/** A fake host tree; entries the real lstat cannot see are skipped, so use names that exist. */
const listDir = (dir: string): string[] => ({ '/': ['etc', 'opt', 'proc', 'tmp', 'var'], '/opt': [], '/var': ['lib'], '/var/lib': [] })[dir] ?? [];

describe('bwrapArgs', () => {
  it('mirrors the host read-only and makes room for mount points the host lacks', () => {
    const args = bwrapArgs({ ...layout, role: 'episode' }, listDir).join(' ');
    expect(args).toContain('--ro-bind-try /etc /etc');
    // /opt and /var/lib hold mount points: they become folders on bwrap's root, not read-only binds.
    expect(args).toContain('--dir /opt');
    expect(args).toContain('--dir /var --dir /var/lib');
    expect(args).not.toContain('--ro-bind-try /opt /opt');
    expect(args).not.toContain('--ro-bind-try /proc');
    expect(args).not.toContain('--ro-bind-try /tmp');
    expect(args).toContain('--bind /h/ws /workspace --bind /h/vl /var/lib/codemidas --ro-bind /p/relay.py /opt/codemidas/relay.py');
    expect(args).toContain('--tmpfs /tmp --proc /proc --dev /dev');
    expect(args).toContain('--unshare-all');
    expect(args).toContain('--unshare-user --uid 1000 --gid 1000 --cap-drop ALL');
    expect(args).toContain('--chdir /workspace');
  });

  it('keeps scoring sandboxes as the host user (root when the server is root)', () => {
    const args = bwrapArgs({ ...layout, role: 'scoring' }, listDir);
    expect(args).not.toContain('--uid');
  });

  it('covers scrubbed folders with an empty tmpfs and scrubbed files with an empty file; a missing path needs nothing', () => {
    const args = bwrapArgs({ ...layout, role: 'episode', scrub: ['/etc', '/etc/hostname', '/no/such/path'], hostEmptyFile: '/h/empty' }, listDir).join(' ');
    expect(args).toContain('--tmpfs /etc');
    expect(args).toContain('--ro-bind /h/empty /etc/hostname');
    expect(args).not.toContain('/no/such/path');
    // after the mirror, so the cover wins over the read-only bind
    expect(args.indexOf('--tmpfs /etc')).toBeGreaterThan(args.indexOf('--ro-bind-try /etc /etc'));
  });
});
