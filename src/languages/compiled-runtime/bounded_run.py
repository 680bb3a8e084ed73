"""Running the agent's code from a sandbox-side driver, bounded whatever that code does. Shared by
the Go, Rust and Java runtimes: each image copies this folder beside its own runtime files
(sandbox-images/<language>/sources.txt), and each record harness sends it with its own files.

`run_bounded` starts a command in its own process group (as the agent user when `run_as` is set),
reads its output while it runs, keeping only the first `keep` bytes of each stream (an endless
stream is read and dropped, never held), and stops waiting at `timeout_s`. When it ends, its group
is killed, and as the agent user every process of that user too: what the code started outside
the group (setsid, double forks) cannot outlive the run, rewrite what the run wrote, or hold the
output pipes open. The caller is root there and survives; without `run_as` (the record run) only
the group is killed.

`read_lines` and `read_jsonl` read a file the agent's code could also write to: only a regular file
(a link or a FIFO planted at its path reads as nothing), at most `total` bytes, each line at most
`line_max`, a line that does not parse skipped.
"""
import json
import os
import signal
import stat
import subprocess
import threading

OUTPUT_KEEP = 1 << 20
JSONL_KEEP = 256 << 20
JSONL_LINE_MAX = 16 << 20


def as_user(run_as):
    return {} if run_as is None else {"user": run_as[0], "group": run_as[1], "extra_groups": []}


def kill_user(run_as):
    """Every process of the agent user, killed (nothing when `run_as` is None)."""
    if run_as is not None:
        subprocess.run(["kill", "-9", "-1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, **as_user(run_as))


def _pump(stream, kept, keep):
    while True:
        chunk = stream.read1(1 << 16)
        if not chunk:
            return
        if len(kept) < keep:
            kept.extend(chunk[: keep - len(kept)])


def run_bounded(argv, cwd, env, timeout_s, run_as=None, stdin_text=None, keep=OUTPUT_KEEP, merge=True):
    """(exit code, or -1 when it was killed at timeout_s; stdout; stderr) of `argv`, as text, each
    its first `keep` bytes. `merge`: stderr goes to stdout (its text then comes back empty)."""
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                            start_new_session=True, **as_user(run_as))
    streams = [proc.stdout] if merge else [proc.stdout, proc.stderr]
    kept = [bytearray() for _ in streams]
    readers = [threading.Thread(target=_pump, args=(s, k, keep), daemon=True) for s, k in zip(streams, kept)]
    for reader in readers:
        reader.start()
    if stdin_text is not None:
        def feed():
            try:
                proc.stdin.write(stdin_text.encode("utf-8"))
                proc.stdin.close()
            except OSError:
                pass
        threading.Thread(target=feed, daemon=True).start()
    try:
        code = proc.wait(timeout=max(1, timeout_s))
    except subprocess.TimeoutExpired:
        code = -1
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    kill_user(run_as)
    proc.wait()
    for reader in readers:
        # a process that escaped and still holds a pipe (were the user not killed) is not waited for
        reader.join(timeout=2)
    texts = [bytes(k).decode("utf-8", errors="replace") for k in kept]
    return code, texts[0], texts[1] if len(texts) > 1 else ""


def read_lines(path, total=JSONL_KEEP, line_max=JSONL_LINE_MAX):
    """The lines of `path` as text (none when it is missing or not a regular file), bounded as above."""
    out = []
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return out
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return out
    with os.fdopen(fd, "rb") as f:
        read = 0
        while read < total:
            line = f.readline(line_max)
            if not line:
                break
            read += len(line)
            out.append(line.decode("utf-8", errors="replace"))
    return out


def read_jsonl(path, total=JSONL_KEEP, line_max=JSONL_LINE_MAX):
    """The JSON values of the lines of `path`, bounded as above; a line that does not parse skipped."""
    out = []
    for line in read_lines(path, total, line_max):
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out
