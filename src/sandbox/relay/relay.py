#!/usr/bin/env python3
"""CodeMidas sandbox relay: the sandbox's main process.

Reads newline-delimited JSON requests on stdin and answers newline-delimited JSON on stdout, so the
host talks to a sandbox over one long-lived stream instead of paying for a `docker exec` per
command. Every request carries an `id`; requests run concurrently on threads and answers may come
out of order. Bytes travel as base64. Python 3.11 standard library only.

Requests (`op`):
  exec    {argv: [..]} or {shell: "..."} (run with /bin/bash -c), cwd, env, stdin (b64),
          timeoutMs, maxOutputBytes, session (bool)
          -> {exitCode, stdout, stderr, timedOut, truncated, durationMs[, sessionRestarted]}
  read    {path, offset, limit} -> {content (b64), size, truncated}
  write   {path, content (b64)} -> {} (parent directories created)
  cancel  {target: <id of a running exec>} -> {cancelled: bool}
  ping    -> {pid, uid, gid, workdir}
Answers: {"id": .., "ok": true, "result": {..}} or {"id": .., "ok": false, "error": {reason, message}}
with reason one of not-found, is-directory, denied, invalid, other. At start the relay prints
{"event": "ready", ...} once.

Exit codes of `exec`:
  - the command's own code; a command ended by signal N reports 128+N (the shell convention);
  - 124 with timedOut=true when timeoutMs ran out (the whole process group got SIGKILL);
  - 137 with truncated=true when it printed more than OVERFLOW_FACTOR x maxOutputBytes on one
    stream (the group got SIGKILL: an endless printer must not keep a CPU busy forever);
  - 127 when the program does not exist, 126 when it cannot be executed.
Each command runs in its own session (process group). When the command's main process exits,
whatever it left in the background keeps running (so an agent can start a server with `&`); the
relay stops waiting for their output after a short quiet period.

Output of each stream is capped head+tail: when it exceeds maxOutputBytes, the first half and the
last half are kept, joined by a marker line naming how many bytes were dropped, cut only at UTF-8
character boundaries. Invalid UTF-8 is decoded with U+FFFD replacement characters.

Session commands (`session: true`) run in one long-lived `bash --noprofile --norc` instead of a new
process (see `Session`): cwd and exported variables carry over between calls like a terminal, and
a builtin costs no process start. Semantics:
  - the answer has `sessionRestarted: true` when the shell's state was lost: this command ended the
    shell (`exit N` -> exit code N; timeout 124; overflow 137; cancel 137; an error that is fatal to
    a non-interactive shell, such as `${X:?}` on an unset X or a failure under `set -e`), or the
    shell had died since the last call and this command ran in a fresh one. Ending the shell kills
    its whole process group, background processes of earlier commands included; the next session
    command starts a fresh shell in the workdir with the relay's environment;
  - with `cwd` or `env` given, the command runs in a subshell with them, so nothing carries over;
  - argv is joined into a quoted shell command line;
  - the command's stdin is /dev/null; a request with `stdin` bytes runs the old way, as does a
    session request that arrives while another session command is running (no queueing);
  - processes left in the background keep running and never delay the answer; they share the
    session's output pipes, so their later output shows up in whichever session command runs next
    (or blocks them once the 64 KiB pipe buffer is full while no session command reads: redirect a
    chatty background process to a file). The buffers are left at the default on purpose: pipe
    pages count against a per-uid limit shared by every sandbox on the host.

Relative paths (cwd, read, write) are relative to the workdir: $CODEMIDAS_WORKDIR, else the relay's
starting directory.

Channel: stdin/stdout by default. When $CODEMIDAS_RELAY_SOCKET names a Unix socket the host listens
on (a read-only bind mount), the relay connects to it at start and speaks the same protocol over
that connection instead: a round trip then skips the engine's attach path (dockerd and the shim),
about 0.7 ms of a millisecond-scale step. The host accepts one connection and removes the socket, so
no later process can reach it. If the connection fails, the relay falls back to stdin/stdout.
"""

import _thread
import binascii
import fcntl
import os
import sys
import time


class _LazyModule:
    """A module imported on its first use, which then takes its own global name. Every episode's
    sandbox runs a relay, and most of them sit idle between Reset and their first command (the warm
    pool's always do). An idle relay imports only C modules and ctypes: 3.0 MB of anonymous memory
    per sandbox, against 6.1 MB with json, re, signal, selectors, socket and threading loaded up front
    (enum, collections and functools come with them) and 11 MB with subprocess, shlex, secrets and
    tempfile too. The first request pays for them instead. So the ready line is written without json,
    bytes are coded with binascii (base64 imports re), locks come from _thread, and the channel's
    socket from _socket."""

    def __init__(self, name):
        self.__dict__["_name"] = name

    def __getattr__(self, attr):
        name = self.__dict__["_name"]
        module = __import__(name)
        globals()[name] = module  # later uses go straight to the module
        return getattr(module, attr)


json = _LazyModule("json")
queue = _LazyModule("queue")
re = _LazyModule("re")
secrets = _LazyModule("secrets")
selectors = _LazyModule("selectors")
shlex = _LazyModule("shlex")
signal = _LazyModule("signal")
subprocess = _LazyModule("subprocess")
tempfile = _LazyModule("tempfile")
threading = _LazyModule("threading")

OVERFLOW_FACTOR = 64
# After the main process exits, background processes may still hold the pipes open: stop reading
# once they have been quiet this long.
DRAIN_QUIET_S = 0.1
# After a kill, processes that escaped the group may hold the pipes open: stop reading after this.
KILL_DRAIN_S = 0.5
READ_CHUNK = 65536
DEFAULT_TIMEOUT_MS = 30_000
DEFAULT_MAX_OUTPUT = 65_536
MAX_READ_LIMIT = 64 * 1024 * 1024
# Bash reads a script on a pipe one byte per read(2) (1-2 us a byte): a session command over 1 KiB
# (a heredoc writing a file, say) goes through a temporary file, which bash reads in blocks.
SESSION_INLINE_MAX = 1024
SHELL_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"

WORKDIR = os.environ.get("CODEMIDAS_WORKDIR") or os.getcwd()
_out = sys.stdout.buffer
_out_lock = _thread.allocate_lock()
_running_lock = _thread.allocate_lock()
_running = {}  # request id -> Exec


def send(message):
    write_line(json.dumps(message, separators=(",", ":"), ensure_ascii=True))


def write_line(text):
    """Writes one ASCII line of the protocol, whole, to the host."""
    data = (text + "\n").encode("ascii")
    with _out_lock:
        _out.write(data)
        _out.flush()


def json_string(text):
    """`text` as a JSON string literal in ASCII, without importing json (see `_LazyModule`)."""
    out = ['"']
    for char in text:
        code = ord(char)
        if 0x20 <= code < 0x7F and char not in '"\\':
            out.append(char)
        elif code > 0xFFFF:
            code -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
        else:
            out.append("\\u%04x" % code)
    out.append('"')
    return "".join(out)


def send_ready(channel):
    write_line(
        '{"event":"ready","pid":%d,"uid":%d,"workdir":%s,"channel":%s}'
        % (os.getpid(), os.getuid(), json_string(WORKDIR), json_string(channel))
    )


def utf8_head(data):
    """Drops an incomplete multibyte character at the end of `data`."""
    n = len(data)
    i = n - 1
    # Walk back over at most 3 continuation bytes to the last lead byte.
    while i >= 0 and n - i <= 4 and (data[i] & 0xC0) == 0x80:
        i -= 1
    if i < 0:
        return data[:0] if n and (data[0] & 0xC0) == 0x80 else data
    lead = data[i]
    if lead < 0x80:
        need = 1
    elif lead >= 0xF0:
        need = 4
    elif lead >= 0xE0:
        need = 3
    elif lead >= 0xC0:
        need = 2
    else:
        need = 1
    return data if i + need <= n else data[:i]


def utf8_tail(data):
    """Drops continuation bytes at the start of `data` (the rest of a character cut off in front)."""
    i = 0
    while i < len(data) and i < 3 and (data[i] & 0xC0) == 0x80:
        i += 1
    return data[i:]


def truncation_marker(dropped):
    return "\n[... %d bytes truncated ...]\n" % dropped


class CappedOutput:
    """Keeps the first and the last maxBytes/2 bytes of a stream; counts everything."""

    def __init__(self, max_bytes):
        self.max_bytes = max(0, int(max_bytes))
        self.tail_cap = self.max_bytes // 2
        self.head_cap = self.max_bytes - self.tail_cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, data):
        self.total += len(data)
        room = self.head_cap - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data and self.tail_cap > 0:
            self.tail += data
            excess = len(self.tail) - self.tail_cap
            if excess > 0:
                del self.tail[:excess]

    @property
    def truncated(self):
        return self.total > self.max_bytes

    def text(self):
        if not self.truncated:
            return bytes(self.head + self.tail).decode("utf-8", "replace")
        head = utf8_head(bytes(self.head))
        tail = utf8_tail(bytes(self.tail))
        dropped = self.total - len(head) - len(tail)
        return head.decode("utf-8", "replace") + truncation_marker(dropped) + tail.decode("utf-8", "replace")


NUL_IN_COMMAND = "the command contains a NUL byte, which no shell command can hold; remove it (printf '\\0' writes one)"


class RequestError(Exception):
    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def resolve(path):
    if not isinstance(path, str) or path == "":
        raise RequestError("invalid", "path must be a non-empty string")
    if "\x00" in path:
        raise RequestError("invalid", "the path contains a NUL byte, which no file name can hold")
    return os.path.normpath(os.path.join(WORKDIR, path))


def os_error(path, err):
    if isinstance(err, FileNotFoundError):
        return RequestError("not-found", "%s: no such file or directory" % path)
    if isinstance(err, IsADirectoryError):
        return RequestError("is-directory", "%s: is a directory" % path)
    if isinstance(err, NotADirectoryError):
        return RequestError("not-found", "%s: a parent is not a directory" % path)
    if isinstance(err, PermissionError):
        return RequestError("denied", "%s: permission denied" % path)
    return RequestError("other", "%s: %s" % (path, err.strerror or err))


def base_env():
    env = dict(os.environ)
    env.pop("CODEMIDAS_WORKDIR", None)
    env.pop("CODEMIDAS_RELAY_SOCKET", None)
    return env


def exit_code_of(returncode):
    return 128 - returncode if returncode < 0 else returncode


def write_some(fd, data):
    """Writes what the non-blocking `fd` takes now and returns the rest; b"" when the reader is gone
    (for the session's shell, EOF on its completion pipe follows)."""
    try:
        return data[os.write(fd, data) :]
    except BlockingIOError:
        return data
    except OSError:
        return b""


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Exec:
    def __init__(self, req):
        if "argv" in req:
            argv = req["argv"]
            if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
                raise RequestError("invalid", "argv must be a non-empty list of strings")
            self.argv = argv
        elif isinstance(req.get("shell"), str):
            self.argv = ["/bin/bash", "-c", req["shell"]]
        else:
            raise RequestError("invalid", "exec needs argv or shell")
        if any("\x00" in a for a in self.argv):
            raise RequestError("invalid", NUL_IN_COMMAND)
        self.cwd = resolve(req.get("cwd") or ".")
        env = req.get("env") or {}
        if not isinstance(env, dict):
            raise RequestError("invalid", "env must be an object")
        self.env = base_env()
        self.env.update({str(k): str(v) for k, v in env.items()})
        self.stdin = binascii.a2b_base64(req["stdin"]) if req.get("stdin") is not None else None
        self.timeout_s = max(0.0, float(req.get("timeoutMs", DEFAULT_TIMEOUT_MS)) / 1000.0)
        self.max_output = int(req.get("maxOutputBytes", DEFAULT_MAX_OUTPUT))
        self.cancelled = threading.Event()
        self.proc = None

    def result(self, exit_code, stdout, stderr, timed_out, truncated, started):
        return {
            "exitCode": exit_code,
            "stdout": stdout,
            "stderr": stderr,
            "timedOut": timed_out,
            "truncated": truncated,
            "durationMs": round((time.monotonic() - started) * 1000.0, 3),
        }

    def run(self):
        started = time.monotonic()
        if not os.path.isdir(self.cwd):
            return self.result(1, "", "codemidas: cwd %s: no such directory\n" % self.cwd, False, False, started)
        try:
            proc = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.PIPE if self.stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
            )
        except FileNotFoundError:
            return self.result(127, "", "%s: command not found\n" % self.argv[0], False, False, started)
        except PermissionError:
            return self.result(126, "", "%s: permission denied\n" % self.argv[0], False, False, started)
        except OSError as err:
            return self.result(126, "", "%s: %s\n" % (self.argv[0], err), False, False, started)
        self.proc = proc
        if self.stdin is not None:
            threading.Thread(target=self._feed_stdin, args=(proc,), daemon=True).start()

        out = CappedOutput(self.max_output)
        err = CappedOutput(self.max_output)
        overflow = max(self.max_output, 1024) * OVERFLOW_FACTOR
        deadline = started + self.timeout_s
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ, out)
        sel.register(proc.stderr, selectors.EVENT_READ, err)
        open_pipes = 2
        killed = None  # 'timeout' | 'overflow' | 'cancel'
        killed_at = 0.0
        exited_at = None
        last_data = started
        try:
            while open_pipes:
                now = time.monotonic()
                if killed is None:
                    if self.cancelled.is_set():
                        killed = "cancel"
                    elif now >= deadline:
                        killed = "timeout"
                    if killed:
                        kill_group(proc.pid)
                        killed_at = now
                if killed is not None:
                    if now - killed_at >= KILL_DRAIN_S:
                        break
                    wait = KILL_DRAIN_S - (now - killed_at)
                else:
                    if exited_at is None and proc.poll() is not None:
                        exited_at = now
                    if exited_at is not None and now - max(exited_at, last_data) >= DRAIN_QUIET_S:
                        break
                    wait = min(deadline - now, 0.05)
                for key, _ in sel.select(max(0.0, wait)):
                    data = os.read(key.fd, READ_CHUNK)
                    if not data:
                        sel.unregister(key.fileobj)
                        open_pipes -= 1
                        continue
                    last_data = time.monotonic()
                    key.data.feed(data)
                    if killed is None and key.data.total > overflow:
                        killed = "overflow"
                        killed_at = last_data
                        kill_group(proc.pid)
        finally:
            sel.close()
            proc.stdout.close()
            proc.stderr.close()

        if killed is None:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                killed = "timeout"
                kill_group(proc.pid)
        if killed is not None:
            proc.wait()
        if killed == "timeout":
            code = 124
        elif killed == "overflow":
            code = 137
        else:
            code = exit_code_of(proc.returncode)
        return self.result(
            code,
            out.text(),
            err.text(),
            killed == "timeout",
            out.truncated or err.truncated or killed == "overflow",
            started,
        )

    def _feed_stdin(self, proc):
        try:
            proc.stdin.write(self.stdin)
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass


class SessionCommand:
    """A session exec request, parsed. `text` is the shell text the session's bash evaluates."""

    def __init__(self, req):
        if "argv" in req:
            argv = req["argv"]
            if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
                raise RequestError("invalid", "argv must be a non-empty list of strings")
            text = shlex.join(argv)
        elif isinstance(req.get("shell"), str):
            text = req["shell"]
        else:
            raise RequestError("invalid", "exec needs argv or shell")
        if "\x00" in text:
            raise RequestError("invalid", NUL_IN_COMMAND)
        env = req.get("env") or {}
        if not isinstance(env, dict):
            raise RequestError("invalid", "env must be an object")
        self.cwd = resolve(req["cwd"]) if req.get("cwd") else None
        self.runnable = all(re.match(SHELL_NAME_PATTERN, str(k)) for k in env)
        if self.cwd is not None or env:
            # A subshell, so a per-call cwd or env does not leak into the session.
            parts = []
            if self.cwd is not None:
                parts.append("cd -- %s || exit 1" % shlex.quote(self.cwd))
            parts.extend("export %s=%s" % (k, shlex.quote(str(v))) for k, v in env.items())
            parts.append("builtin eval %s" % shlex.quote(text))
            text = "( %s )" % "; ".join(parts)
        self.text = text
        self.timeout_s = max(0.0, float(req.get("timeoutMs", DEFAULT_TIMEOUT_MS)) / 1000.0)
        self.max_output = int(req.get("maxOutputBytes", DEFAULT_MAX_OUTPUT))
        self.cancelled = threading.Event()
        self.proc = None  # the session's bash while this command runs (killed if the relay's host leaves)


class Session:
    """The sandbox's persistent shell: one `bash --noprofile --norc` in its own session (process
    group), started lazily in the workdir, fed commands on its stdin.

    At start the shell moves three pipes the relay reads to fds 3 (stdout), 4 (stderr) and 5
    (completion), and defines one function, `__cm`, that runs a command and reports its status:
        __cm() { builtin eval "$1" </dev/null >&3 2>&4 3>&- 4>&- 5>&-; builtin printf '%s %d\\n' "$2" "$?" >&5; }
    Each command is then one short line, `__cm '<cmd>' <nonce>` (bash reads a pipe one byte per
    read(2), about 2.6 us a byte here, so every byte of it counts). `eval` keeps a syntax error
    from ending the shell and undoes the command's own `exec >file` afterwards; the command never
    holds fd 5, and the nonce is new per command, so neither its output nor a write into the
    completion pipe (through /proc) can end the call early. On the
    marker the relay drains what the command left in fds 3/4 and answers. Bash's own fds 1/2 are
    /dev/null. A command over SESSION_INLINE_MAX is read from a temporary file instead of quoted
    inline. Used by one command at a time (`lock`)."""

    def __init__(self):
        self.lock = _thread.allocate_lock()
        self.proc = None
        self.out_r = self.err_r = self.done_r = self.in_w = -1
        # A cancelled command's answer is dropped by the host, so the next one reports the restart.
        self.lost_unreported = False

    def _start(self):
        pipes = [os.pipe() for _ in range(3)]
        # Write ends at fds >= 10 in the child, so moving them to 3/4/5 cannot clobber one another.
        high = [fcntl.fcntl(w, fcntl.F_DUPFD_CLOEXEC, 10) for _, w in pipes]
        try:
            proc = subprocess.Popen(
                ["/bin/bash", "--noprofile", "--norc"],
                cwd=WORKDIR,
                env=base_env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=high,
                start_new_session=True,
                close_fds=True,
            )
        except BaseException:
            for r, w in pipes:
                os.close(r)
                os.close(w)
            for fd in high:
                os.close(fd)
            raise
        for _, w in pipes:
            os.close(w)
        for fd in high:
            os.close(fd)
        self.proc = proc
        self.out_r, self.err_r, self.done_r = (r for r, _ in pipes)
        self.in_w = proc.stdin.fileno()
        for fd in (self.out_r, self.err_r, self.done_r, self.in_w):
            os.set_blocking(fd, False)
        # The per-command line stays short: the redirections live in a function defined once.
        return (
            "exec 3>&%d 4>&%d 5>&%d %d>&- %d>&- %d>&-\n"
            "__cm() { builtin eval \"$1\" </dev/null >&3 2>&4 3>&- 4>&- 5>&-; builtin printf '%%s %%d\\n' \"$2\" \"$?\" >&5; }\n"
            % (*high, *high)
        ).encode("ascii")

    def _end(self):
        """Kills the shell's whole process group and forgets the shell."""
        kill_group(self.proc.pid)
        self.proc.wait()
        for fd in (self.out_r, self.err_r, self.done_r):
            os.close(fd)
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc = None

    def kill(self):
        proc = self.proc
        if proc is not None:
            kill_group(proc.pid)

    def run(self, cmd):
        """Runs one command; the caller holds `lock`."""
        started = time.monotonic()

        def answer(code, out, err, timed_out, truncated, restarted):
            return {
                "exitCode": code,
                "stdout": out.text(),
                "stderr": err.text(),
                "timedOut": timed_out,
                "truncated": truncated,
                "durationMs": round((time.monotonic() - started) * 1000.0, 3),
                "sessionRestarted": restarted,
            }

        out = CappedOutput(cmd.max_output)
        err = CappedOutput(cmd.max_output)
        if cmd.cwd is not None and not os.path.isdir(cmd.cwd):
            err.feed(("codemidas: cwd %s: no such directory\n" % cmd.cwd).encode())
            return answer(1, out, err, False, False, False)
        restarted, self.lost_unreported = self.lost_unreported, False
        if self.proc is not None and self.proc.poll() is not None:
            self._end()  # died since the last call (killed from inside, out of memory, ...)
            restarted = True
        pending = self._start() if self.proc is None else b""
        cmd.proc = self.proc
        nonce = secrets.token_hex(8)
        script = cmd.text.encode("utf-8", "replace")
        script_path = None
        if len(script) > SESSION_INLINE_MAX:
            try:
                fd, script_path = tempfile.mkstemp(prefix="codemidas-cmd-")
                with open(fd, "wb") as f:
                    f.write(script)
            except OSError:
                script_path = None
        if script_path is None:
            prefix, script = "", shlex.quote(cmd.text)
        else:
            prefix = "IFS= builtin read -r -d '' __codemidas_cmd <%s; " % shlex.quote(script_path)
            script = '"$__codemidas_cmd"'
        pending += (
            "%s__cm %s %s%s\n" % (prefix, script, nonce, "; builtin unset __codemidas_cmd" if script_path else "")
        ).encode("utf-8", "replace")
        marker = nonce.encode("ascii") + b" "

        overflow = max(cmd.max_output, 1024) * OVERFLOW_FACTOR
        deadline = started + cmd.timeout_s
        ended = None  # 'done' | 'exit' | 'timeout' | 'overflow' | 'cancel'
        code = 0
        done_buf = b""
        sel = selectors.DefaultSelector()
        sel.register(self.out_r, selectors.EVENT_READ, out)
        sel.register(self.err_r, selectors.EVENT_READ, err)
        sel.register(self.done_r, selectors.EVENT_READ, None)
        # The command line nearly always fits the pipe at once; the selector waits for what did not.
        pending = write_some(self.in_w, pending)
        if pending:
            sel.register(self.in_w, selectors.EVENT_WRITE, None)
        try:
            while ended is None:
                now = time.monotonic()
                if cmd.cancelled.is_set():
                    ended = "cancel"
                    break
                if now >= deadline:
                    ended = "timeout"
                    break
                for key, _ in sel.select(min(deadline - now, 0.05)):
                    if key.fd == self.in_w:
                        pending = write_some(self.in_w, pending)
                        if not pending:
                            sel.unregister(self.in_w)
                        continue
                    try:
                        data = os.read(key.fd, READ_CHUNK)
                    except BlockingIOError:
                        continue
                    if key.fd == self.done_r:
                        if not data:
                            ended = "exit"
                            break
                        *lines, done_buf = (done_buf + data).split(b"\n")
                        for line in lines:
                            if line.startswith(marker) and line[len(marker) :].isdigit():
                                code = int(line[len(marker) :])
                                ended = "done"
                                break
                        if ended:
                            break
                        done_buf = done_buf[-256:]
                    elif not data:
                        sel.unregister(key.fd)
                    else:
                        key.data.feed(data)
                        if key.data.total > overflow:
                            ended = "overflow"
                            break
                if ended is None and self.proc.poll() is not None:
                    ended = "exit"
        finally:
            sel.close()
            if script_path is not None:
                try:
                    os.unlink(script_path)
                except OSError:
                    pass
        if ended != "done":
            kill_group(self.proc.pid)
        # What the command printed before the marker is already in the pipes.
        for fd, sink in ((self.out_r, out), (self.err_r, err)):
            while sink.total <= overflow:
                try:
                    data = os.read(fd, READ_CHUNK)
                except BlockingIOError:
                    break
                if not data:
                    break
                sink.feed(data)
            if ended == "done" and sink.total > overflow:
                ended = "overflow"  # a background process kept printing
        if ended == "done":
            return answer(code, out, err, False, out.truncated or err.truncated, restarted)
        self._end()
        self.lost_unreported = ended == "cancel"
        if ended == "timeout":
            code = 124
        elif ended == "overflow":
            code = 137
        else:
            code = exit_code_of(cmd.proc.returncode)
        return answer(code, out, err, ended == "timeout", out.truncated or err.truncated or ended == "overflow", True)


_session = Session()


def op_exec(req_id, req):
    if req.get("session") is True and req.get("stdin") is None:
        cmd = SessionCommand(req)
        # Busy (a concurrent call) or an env the shell cannot export: run it the old way.
        if cmd.runnable and _session.lock.acquire(blocking=False):
            with _running_lock:
                _running[req_id] = cmd
            try:
                return _session.run(cmd)
            finally:
                with _running_lock:
                    _running.pop(req_id, None)
                _session.lock.release()
    job = Exec(req)
    with _running_lock:
        _running[req_id] = job
    try:
        return job.run()
    finally:
        with _running_lock:
            _running.pop(req_id, None)


def op_cancel(req):
    with _running_lock:
        job = _running.get(req.get("target"))
    if job is None:
        return {"cancelled": False}
    job.cancelled.set()
    return {"cancelled": True}


def op_read(req):
    path = resolve(req.get("path"))
    offset = max(0, int(req.get("offset", 0)))
    limit = max(0, min(int(req.get("limit", MAX_READ_LIMIT)), MAX_READ_LIMIT))
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            f.seek(offset)
            data = f.read(limit)
    except OSError as err:
        raise os_error(req.get("path"), err) from None
    return {
        "content": binascii.b2a_base64(data, newline=False).decode("ascii"),
        "size": size,
        "truncated": offset + len(data) < size,
    }


def op_write(req):
    path = resolve(req.get("path"))
    data = binascii.a2b_base64(req.get("content") or "")
    try:
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    except FileExistsError:
        raise RequestError("not-found", "%s: a parent is not a directory" % req.get("path")) from None
    except OSError as err:
        raise os_error(req.get("path"), err) from None
    return {"size": len(data)}


def op_ping(_req):
    return {"pid": os.getpid(), "uid": os.getuid(), "gid": os.getgid(), "workdir": WORKDIR}


def answer(req):
    """The answer to one request (every request gets one, errors included)."""
    req_id = req.get("id") if isinstance(req, dict) else None
    try:
        if not isinstance(req, dict):
            raise RequestError("invalid", "a request must be a JSON object")
        op = req.get("op")
        if op == "exec":
            result = op_exec(req_id, req)
        elif op == "read":
            result = op_read(req)
        elif op == "write":
            result = op_write(req)
        elif op == "cancel":
            result = op_cancel(req)
        elif op == "ping":
            result = op_ping(req)
        else:
            raise RequestError("invalid", "unknown op %r" % (op,))
        return {"id": req_id, "ok": True, "result": result}
    except RequestError as err:
        return {"id": req_id, "ok": False, "error": {"reason": err.reason, "message": str(err)}}
    except Exception as err:  # noqa: BLE001 - every request must be answered
        return {"id": req_id, "ok": False, "error": {"reason": "other", "message": "%s: %s" % (type(err).__name__, err)}}


class Workers:
    """The threads that answer requests. A thread start costs about 0.2 ms here, a hand-over through a
    queue about 0.03 ms: finished threads wait for the next request instead of exiting, and a new one
    starts only when every thread is busy (a command that never ends holds its thread, never the
    others). Nothing starts before the first request, so an idle sandbox holds no worker."""

    def __init__(self):
        self.lock = _thread.allocate_lock()
        self.idle = 0  # threads minus requests handed out and not yet answered
        self.jobs = None

    def dispatch(self, req):
        if self.jobs is None:
            self.jobs = queue.SimpleQueue()
        with self.lock:
            start = self.idle == 0
            if not start:
                self.idle -= 1
        if start:
            threading.Thread(target=self._work, daemon=True).start()
        self.jobs.put(req)

    def _work(self):
        while True:
            message = answer(self.jobs.get())
            # Free before the answer leaves: the host's next request may come the moment it lands,
            # and must find this thread free rather than start another.
            with self.lock:
                self.idle += 1
            send(message)


_workers = Workers()


def harden():
    """Makes /proc/<relay>/fd unreadable to other processes of the same uid, so agent code cannot
    write forged answers into the relay's stdout. Best effort: needs ctypes and libc."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    except Exception:  # noqa: BLE001
        pass


def open_channel():
    """The request stream: the host's Unix socket when one is offered, else stdin (see the docstring)."""
    global _out
    path = os.environ.get("CODEMIDAS_RELAY_SOCKET")
    if path:
        import _socket

        try:
            sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
            sock.connect(path)
            fd = sock.detach()  # owned from here by the writer, which lives as long as the relay
            # Buffered: a large answer is written whole, then flushed.
            _out = open(fd, "wb")
            return open(fd, "rb", closefd=False), "socket"
        except OSError as err:
            sys.stderr.write("relay: cannot connect to %s (%s); using stdin/stdout\n" % (path, err))
    return sys.stdin.buffer, "stdio"


def main():
    harden()
    requests, channel = open_channel()
    send_ready(channel)
    for line in requests:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError as err:
            send({"id": None, "ok": False, "error": {"reason": "invalid", "message": "bad JSON: %s" % err}})
            continue
        _workers.dispatch(req)
    # stdin closed: the host is gone. End every command still running, then exit.
    with _running_lock:
        jobs = list(_running.values())
    for job in jobs:
        if job.proc is not None:
            kill_group(job.proc.pid)
    _session.kill()


if __name__ == "__main__":
    main()
