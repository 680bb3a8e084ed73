"""The subject: runs the agent's code for recorded cases, out of the judge's process.

Started by judge.py as the unprivileged agent user with `python3 -I -B subject.py <workspace>
<request fd> <result fd> [<import path> ...]`, from a neutral folder outside the workspace,
stdin/stdout/stderr on /dev/null; the import paths are the task's import roots (`src`, a package
of a monorepo) already joined under the workspace by the judge. It never sees an expected value: each request holds only a case's inputs (module,
target, init, args, kwargs); it answers with the tagged encoding of what happened. Everything in
this process is untrusted once the agent's module is imported; the judge treats the answer as
data and compares it with codec's canonical equality.
"""
import importlib
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_private(name, filename):
    # Loaded by path under a private name so that neither this folder goes on sys.path nor a
    # workspace module called `codec` or `framing` can collide with ours.
    spec = importlib.util.spec_from_file_location(name, os.path.join(_HERE, filename))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


codec = _load_private("_codemidas_codec", "codec.py")
framing = _load_private("_codemidas_framing", "framing.py")


def _harden_self():
    try:
        import resource

        # Processes of the agent user, threads included; lowering the hard limit cannot be undone
        # by an unprivileged process, so a fork bomb cannot starve the judge's clean-up.
        resource.setrlimit(resource.RLIMIT_NPROC, (256, 256))
    except (ImportError, ValueError, OSError):
        pass
    try:
        # Behind the judge and the relay for the sandbox's CPU (children inherit it; an unprivileged
        # process cannot undo it): a CPU-bound fork bomb cannot starve them past their deadlines.
        # Only nice, not SCHED_IDLE: an idle-class process is preempted by every task on the host
        # and an honest run slows down under the load of other sandboxes.
        os.nice(19)
    except OSError:
        pass
    try:
        # Under memory pressure the kernel kills this process before the judge.
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write("1000")
    except OSError:
        pass


def _type_name(t):
    return "%s.%s" % (getattr(t, "__module__", "?"), getattr(t, "__qualname__", getattr(t, "__name__", "?")))


def _short_error(exc):
    import traceback  # only when a case raises: ~4 ms of every subject start otherwise

    lines = traceback.format_exception_only(type(exc), exc)
    text = "".join(lines).strip()
    return text[-500:]


def _resolve(module_name, target, init):
    module = importlib.import_module(module_name)
    parts = target.split(".")
    if init is None:
        obj = module
        for part in parts:
            obj = getattr(obj, part)
        return obj, None
    klass = module
    for part in parts[:-1]:
        klass = getattr(klass, part)
    return None, (klass, parts[-1])


def _encode_args(args):
    try:
        return [codec.encode(a) for a in args]
    except Exception as exc:  # noqa: BLE001 - anything the agent's objects raise
        return {"unencodable": _short_error(exc)}


def run_case(case):
    """Returns the answer frame for one case. Never raises."""
    namespace = {}
    try:
        args = [codec.decode(a, namespace) for a in case.get("args", [])]
        kwargs = {k: codec.decode(v, namespace) for k, v in (case.get("kwargs") or {}).items()}
        init = case.get("init")
        if init is not None:
            init_args = [codec.decode(a, namespace) for a in init.get("args", [])]
            init_kwargs = {k: codec.decode(v, namespace) for k, v in (init.get("kwargs") or {}).items()}
    except Exception as exc:  # noqa: BLE001
        return {"kind": "error", "message": "cannot build the inputs: %s" % _short_error(exc)}

    try:
        func, method = _resolve(case["module"], case["target"], init)
    except BaseException as exc:  # noqa: BLE001 - SystemExit, pytest outcomes, ... at import time
        return {"kind": "error", "message": "cannot load %s.%s: %s" % (case["module"], case["target"], _short_error(exc))}

    try:
        if method is not None:
            klass, name = method
            instance = klass(*init_args, **init_kwargs)
            func = getattr(instance, name)
        result = func(*args, **kwargs)
    except BaseException as exc:  # noqa: BLE001 - the exact type is the answer
        return {"kind": "raises", "type": _type_name(type(exc)), "message": _short_error(exc), "argsAfter": _encode_args(args)}

    try:
        value = codec.encode(result)
    except BaseException as exc:  # noqa: BLE001
        return {"kind": "error", "message": "the return value cannot be serialised: %s" % _short_error(exc)}
    return {"kind": "returns", "value": value, "argsAfter": _encode_args(args)}


def main():
    workspace, request_fd, result_fd = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    import_paths = sys.argv[4:]
    _harden_self()
    sys.dont_write_bytecode = True
    # Appended, never prepended: a workspace file cannot shadow the standard library or pytest.
    # The import roots come after the workspace, in the task's order, as the same rule applies.
    sys.path.append(workspace)
    sys.path.extend(import_paths)
    read_frame = framing.read_frame_blocking
    write_frame = framing.write_frame_blocking
    while True:
        try:
            request = read_frame(request_fd)
        except framing.FrameEOF:
            os._exit(0)
        answer = run_case(request["case"])
        answer["seq"] = request["seq"]
        try:
            write_frame(result_fd, answer)
        except framing.FrameError as exc:
            write_frame(result_fd, {"seq": request["seq"], "kind": "error", "message": str(exc)})


if __name__ == "__main__":
    main()
