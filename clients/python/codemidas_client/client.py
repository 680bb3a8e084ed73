"""A small synchronous client for the CodeMidas environment server.

    from codemidas_client import EnvironmentClient

    with EnvironmentClient("127.0.0.1:50051") as env:
        with env.episode("sample/slugify") as ep:
            print(ep.info.prompt)
            print(ep.shell("ls").stdout)
            ep.write_file("textkit/slug.py", source)
            ep.submit()
            print(ep.reward().reward)

Step indexes are tracked per episode: each successful Step moves the episode's index on by one, and
a retried Step (after ``UNAVAILABLE``) resends the same index, which the server answers from its
cache. Every failed RPC raises :class:`~codemidas_client.errors.CodeMidasError` with the gRPC status
code and the server's message.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterable, Mapping, TypeVar

import grpc

from ._stubs import pb2, pb2_grpc
from .errors import CodeMidasError, EpisodeError
from .results import (EpisodeInfo, EpisodeLimits, GroupReward, RewardResult, StepResult, TaskInfo,
                    TestResult, ToolSpec, parse_parameters)

T = TypeVar("T")

#: Action kinds of the wire contract's ``Action`` oneof, with their message types.
ACTION_KINDS: dict[str, str] = {
    "shell": "ShellAction",
    "read_file": "ReadFileAction",
    "write_file": "WriteFileAction",
    "edit": "EditAction",
    "submit": "SubmitAction",
}

_OUTCOMES = {1: "SCORED", 2: "TIMEOUT", 3: "INFRA_ERROR"}
# Only a transport failure is retried: the server never saw the call or its answer was lost.
_RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE})
_MAX_MESSAGE_BYTES = 64 * 1024 * 1024


def make_action(action: Any) -> Any:
    """Builds a wire ``Action`` from one already built or from ``{"kind": {fields}}``.

    ``{"shell": {"command": "ls"}}``, ``{"write_file": {"path": "a.py", "content": "..."}}``,
    ``{"submit": {}}``.
    """
    if isinstance(action, pb2.Action):
        return action
    if isinstance(action, Mapping) and len(action) == 1:
        ((kind, fields),) = action.items()
        if kind in ACTION_KINDS:
            message = getattr(pb2, ACTION_KINDS[kind])(**dict(fields or {}))
            return pb2.Action(**{kind: message})
    raise EpisodeError(
        f"not an action: {action!r}; pass a codemidas.v1.Action or a one-key dict "
        f"{{kind: fields}} with kind one of {sorted(ACTION_KINDS)}")


class EnvironmentClient:
    """Synchronous client of the ``codemidas.v1.Environment`` service.

    Args:
        address: ``host:port`` of the server.
        token: bearer token, sent as ``authorization: Bearer <token>`` (required by a server bound
            to a non-loopback address).
        timeout_s: deadline of every call but scoring and resets. Default 120 s.
        reset_timeout_s: deadline of Reset and ResetGroup (container starts). Default 300 s.
        reward_timeout_s: deadline of Reward and RewardGroup (scoring runs the hidden tests).
            Default 900 s.
        retries: how many times a call that failed with ``UNAVAILABLE`` is retried, for the calls
            that are safe to repeat (everything but Reset and ResetGroup). Default 2.
        root_certificates: PEM bytes; when given, the channel uses TLS.
        channel: an existing channel to use instead of opening one (the client will not close it).
    """

    def __init__(
        self,
        address: str,
        token: str | None = None,
        timeout_s: float = 120.0,
        *,
        reset_timeout_s: float = 300.0,
        reward_timeout_s: float = 900.0,
        retries: int = 2,
        root_certificates: bytes | None = None,
        channel: grpc.Channel | None = None,
    ) -> None:
        self.address = address
        self.timeout_s = timeout_s
        self.reset_timeout_s = reset_timeout_s
        self.reward_timeout_s = reward_timeout_s
        self.retries = max(0, retries)
        self._metadata: tuple[tuple[str, str], ...] = (
            (("authorization", f"Bearer {token}"),) if token else ())
        options = [
            ("grpc.max_receive_message_length", _MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", _MAX_MESSAGE_BYTES),
        ]
        self._owns_channel = channel is None
        if channel is not None:
            self._channel = channel
        elif root_certificates is not None:
            creds = grpc.ssl_channel_credentials(root_certificates=root_certificates)
            self._channel = grpc.secure_channel(address, creds, options=options)
        else:
            self._channel = grpc.insecure_channel(address, options=options)
        self._stub = pb2_grpc.EnvironmentStub(self._channel)
        self._lock = threading.Lock()
        self._next_step: dict[str, int] = {}
        self._group_members: dict[str, tuple[str, ...]] = {}

    # -- lifecycle -------------------------------------------------------------------------------

    def wait_ready(self, timeout_s: float = 30.0) -> None:
        """Blocks until the channel connects; raises ``CodeMidasError(UNAVAILABLE)`` otherwise."""
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout_s)
        except grpc.FutureTimeoutError:
            raise CodeMidasError("connect", grpc.StatusCode.UNAVAILABLE,
                                 f"no server answered at {self.address} within {timeout_s:g} s; "
                                 "is `codemidas serve` running?") from None

    def shutdown(self) -> None:
        """Closes the channel (episodes on the server are left alone; close them first)."""
        if self._owns_channel:
            self._channel.close()

    def __enter__(self) -> "EnvironmentClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # -- calls -----------------------------------------------------------------------------------

    def _call(self, method: str, request: Any, timeout_s: float | None, *, retry: bool) -> Any:
        rpc: Callable[..., Any] = getattr(self._stub, method)
        attempts = 1 + (self.retries if retry else 0)
        for attempt in range(attempts):
            try:
                return rpc(request, timeout=timeout_s or self.timeout_s, metadata=self._metadata)
            except grpc.RpcError as err:
                code = err.code() if hasattr(err, "code") else None
                if code in _RETRYABLE and attempt + 1 < attempts:
                    time.sleep(0.2 * 2 ** attempt)
                    continue
                raise CodeMidasError.from_rpc_error(method, err) from None
        raise AssertionError("unreachable")

    def list_tasks(self, suite: str = "", language: str = "") -> list[TaskInfo]:
        response = self._call("ListTasks", pb2.ListTasksRequest(suite=suite, language=language),
                              None, retry=True)
        return [_task_info(t) for t in response.tasks]

    def get_task(self, task_id: str) -> tuple[TaskInfo, str]:
        """Returns the task's info and its prompt."""
        response = self._call("GetTask", pb2.GetTaskRequest(task_id=task_id), None, retry=True)
        return _task_info(response.task), response.prompt

    def reset(self, task_id: str, seed: int = 0, *, timeout_s: float | None = None) -> EpisodeInfo:
        """Starts one episode of ``task_id`` in a fresh sandbox."""
        response = self._call("Reset", pb2.ResetRequest(task_id=task_id, seed=seed),
                              timeout_s or self.reset_timeout_s, retry=False)
        info = _episode_info(response)
        with self._lock:
            self._next_step[info.episode_id] = 0
        return info

    def reset_group(self, task_id: str, group_size: int, seed: int = 0, *,
                    timeout_s: float | None = None) -> tuple[str, list[EpisodeInfo]]:
        """Starts ``group_size`` episodes of ``task_id`` (a GRPO group); returns (group_id, episodes)."""
        response = self._call("ResetGroup",
                              pb2.ResetGroupRequest(task_id=task_id, group_size=group_size, seed=seed),
                              timeout_s or self.reset_timeout_s, retry=False)
        episodes = [_episode_info(e) for e in response.episodes]
        with self._lock:
            for info in episodes:
                self._next_step[info.episode_id] = 0
            self._group_members[response.group_id] = tuple(e.episode_id for e in episodes)
        return response.group_id, episodes

    def next_step_index(self, episode_id: str) -> int:
        """The index the next Step of this episode will carry (0 for an episode not seen)."""
        with self._lock:
            return self._next_step.get(episode_id, 0)

    def step(self, episode_id: str, action: Any, *, step_index: int | None = None,
             timeout_s: float | None = None) -> StepResult:
        """Relays one action: a ``codemidas.v1.Action`` or ``{"kind": {fields}}`` (see make_action).

        ``step_index`` defaults to the tracked index of the episode; after a success the tracked
        index becomes the answered index + 1.
        """
        wire_action = make_action(action)
        index = self.next_step_index(episode_id) if step_index is None else step_index
        request = pb2.StepRequest(episode_id=episode_id, step_index=index, action=wire_action)
        response = self._call("Step", request, timeout_s, retry=True)
        with self._lock:
            current = self._next_step.get(episode_id, 0)
            self._next_step[episode_id] = max(current, response.step_index + 1)
        return _step_result(response)

    def shell(self, episode_id: str, command: str, timeout_ms: int = 0, **kw: Any) -> StepResult:
        """Runs ``command`` with ``sh -c`` in the episode's workdir; ``timeout_ms`` 0: server default."""
        return self.step(episode_id, {"shell": {"command": command, "timeout_ms": timeout_ms}}, **kw)

    def read_file(self, episode_id: str, path: str, offset: int = 0, limit: int = 0,
                  **kw: Any) -> StepResult:
        """Reads ``path`` (relative to the workdir); the content comes back as ``stdout``."""
        return self.step(episode_id, {"read_file": {"path": path, "offset": offset, "limit": limit}}, **kw)

    def write_file(self, episode_id: str, path: str, content: str, **kw: Any) -> StepResult:
        return self.step(episode_id, {"write_file": {"path": path, "content": content}}, **kw)

    def edit(self, episode_id: str, path: str, old_text: str, new_text: str, **kw: Any) -> StepResult:
        """Replaces ``old_text`` (which must occur once) by ``new_text`` in ``path``."""
        return self.step(episode_id, {"edit": {"path": path, "old_text": old_text, "new_text": new_text}},
                         **kw)

    def submit(self, episode_id: str, **kw: Any) -> StepResult:
        return self.step(episode_id, {"submit": {}}, **kw)

    def call_tool(self, episode_id: str, name: str, arguments: Mapping[str, Any] | None = None,
                  **kw: Any) -> StepResult:
        """Relays a tool call as offered in ``EpisodeInfo.tools``: the tool names are the action
        kinds and their arguments the action's fields, so an LLM's tool call maps straight on."""
        return self.step(episode_id, {name: dict(arguments or {})}, **kw)

    def reward(self, episode_id: str, *, timeout_s: float | None = None) -> RewardResult:
        """Scores the episode with the hidden tests (idempotent: a second call returns the same)."""
        response = self._call("Reward", pb2.RewardRequest(episode_id=episode_id),
                              timeout_s or self.reward_timeout_s, retry=True)
        return _reward_result(response)

    def reward_group(self, group_id: str, *, timeout_s: float | None = None) -> GroupReward:
        """Scores every episode of the group and returns the GRPO advantages."""
        response = self._call("RewardGroup", pb2.RewardGroupRequest(group_id=group_id),
                              timeout_s or self.reward_timeout_s, retry=True)
        return GroupReward(
            group_id=response.group_id,
            rewards=tuple(_reward_result(r) for r in response.rewards),
            advantages=tuple(response.advantages),
            mask=tuple(response.mask),
            raw=response,
        )

    def close(self, episode_id: str = "", group_id: str = "") -> int:
        """Releases an episode or a whole group (idempotent); returns how many episodes closed."""
        if not episode_id and not group_id:
            raise EpisodeError("close: pass episode_id or group_id")
        response = self._call("Close", pb2.CloseRequest(episode_id=episode_id, group_id=group_id),
                              None, retry=True)
        with self._lock:
            self._next_step.pop(episode_id, None)
            for member in self._group_members.pop(group_id, ()) if group_id else ():
                self._next_step.pop(member, None)
        return int(response.closed)

    # -- context managers ------------------------------------------------------------------------

    def episode(self, task_id: str, seed: int = 0) -> "Episode":
        """Resets ``task_id`` and returns an :class:`Episode` that closes itself on ``with`` exit."""
        return Episode(self, self.reset(task_id, seed))

    def group(self, task_id: str, group_size: int, seed: int = 0) -> "Group":
        """Resets a GRPO group and returns a :class:`Group` that closes it on ``with`` exit."""
        group_id, infos = self.reset_group(task_id, group_size, seed)
        return Group(self, group_id, infos)


class Episode:
    """One episode: the actions as methods, closed on ``with`` exit (or by :meth:`close`)."""

    def __init__(self, client: EnvironmentClient, info: EpisodeInfo, *, owned: bool = True) -> None:
        self.client = client
        self.info = info
        self._owned = owned
        self._closed = False

    @property
    def episode_id(self) -> str:
        return self.info.episode_id

    def step(self, action: Any, **kw: Any) -> StepResult:
        return self.client.step(self.episode_id, action, **kw)

    def shell(self, command: str, timeout_ms: int = 0) -> StepResult:
        return self.client.shell(self.episode_id, command, timeout_ms)

    def read_file(self, path: str, offset: int = 0, limit: int = 0) -> StepResult:
        return self.client.read_file(self.episode_id, path, offset, limit)

    def write_file(self, path: str, content: str) -> StepResult:
        return self.client.write_file(self.episode_id, path, content)

    def edit(self, path: str, old_text: str, new_text: str) -> StepResult:
        return self.client.edit(self.episode_id, path, old_text, new_text)

    def submit(self) -> StepResult:
        return self.client.submit(self.episode_id)

    def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> StepResult:
        return self.client.call_tool(self.episode_id, name, arguments)

    def reward(self) -> RewardResult:
        return self.client.reward(self.episode_id)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.client.close(episode_id=self.episode_id)

    def __enter__(self) -> "Episode":
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if not self._owned:
            return
        _close_quietly_if_failing(self.close, exc is not None)

    def __repr__(self) -> str:
        return f"Episode({self.episode_id!r}, task={self.info.task_id!r})"


class Group:
    """A GRPO group: ``episodes`` in reset order; closed as a whole on ``with`` exit."""

    def __init__(self, client: EnvironmentClient, group_id: str, infos: Iterable[EpisodeInfo]) -> None:
        self.client = client
        self.group_id = group_id
        self.episodes = [Episode(client, info, owned=False) for info in infos]
        self._closed = False

    def reward(self) -> GroupReward:
        return self.client.reward_group(self.group_id)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.client.close(group_id=self.group_id)

    def __len__(self) -> int:
        return len(self.episodes)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.episodes)

    def __getitem__(self, i: int) -> Episode:
        return self.episodes[i]

    def __enter__(self) -> "Group":
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        _close_quietly_if_failing(self.close, exc is not None)


def _close_quietly_if_failing(close: Callable[[], None], failing: bool) -> None:
    # While another exception propagates, a failed Close must not hide it.
    if failing:
        try:
            close()
        except CodeMidasError:
            pass
    else:
        close()


def _task_info(t: Any) -> TaskInfo:
    return TaskInfo(task_id=t.task_id, suite=t.suite, language=t.language, title=t.title,
                    difficulty=t.difficulty, reward_mode=t.reward_mode)


def _episode_info(r: Any) -> EpisodeInfo:
    limits = r.limits
    return EpisodeInfo(
        episode_id=r.episode_id,
        task_id=r.task_id,
        prompt=r.prompt,
        workdir=r.workdir,
        tools=tuple(ToolSpec(t.name, t.description, parse_parameters(t.parameters_json)) for t in r.tools),
        limits=EpisodeLimits(limits.max_steps, limits.max_wall_ms, limits.max_command_ms,
                             limits.max_output_bytes, limits.max_file_bytes),
        raw=r,
    )


def _step_result(r: Any) -> StepResult:
    o = r.observation
    return StepResult(step_index=r.step_index, stdout=o.stdout, stderr=o.stderr, exit_code=o.exit_code,
                      timed_out=o.timed_out, output_truncated=o.truncated, duration_ms=o.duration_ms,
                      terminated=r.terminated, truncated=r.truncated, raw=r)


def _reward_result(r: Any) -> RewardResult:
    return RewardResult(
        episode_id=r.episode_id,
        reward=r.reward,
        outcome=_OUTCOMES.get(r.outcome, "REWARD_OUTCOME_UNSPECIFIED"),
        passed=r.passed,
        total=r.total,
        tests=tuple(TestResult(t.name, t.status, t.message) for t in r.tests),
        detail=r.detail,
        duration_ms=r.duration_ms,
        raw=r,
    )
