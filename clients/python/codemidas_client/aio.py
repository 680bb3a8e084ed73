"""The asyncio client of the CodeMidas environment server, on ``grpc.aio``.

    from codemidas_client.aio import AsyncEnvironmentClient

    async with AsyncEnvironmentClient("127.0.0.1:50051") as env:
        async with env.group("sample/slugify", 4) as group:       # ResetGroup; Close on exit
            await asyncio.gather(*(ep.submit() for ep in group))  # episodes run concurrently
            scores = await group.reward()

This is the one module that talks to the server: :class:`~codemidas_client.EnvironmentClient` runs
an :class:`AsyncEnvironmentClient` on a private event loop. The channel is opened on first use, in
the event loop that makes the first call, so a client may be built outside a coroutine (a trainer's
``__init__``); all its calls must then come from that one loop.

Step indexes are tracked per episode: each successful Step moves the episode's index on by one, and
a retried Step (after ``UNAVAILABLE``) resends the same index, which the server answers from its
cache. Every failed RPC raises :class:`~codemidas_client.errors.CodeMidasError`.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Generator, Generic, Iterable, Iterator, Mapping, TypeVar

import grpc
import grpc.aio

from . import _wire
from ._stubs import pb2, pb2_grpc
from .errors import CodeMidasError, EpisodeError
from .results import EpisodeInfo, GroupReward, RewardResult, StepResult, TaskInfo

T = TypeVar("T")


class AsyncEnvironmentClient:
    """asyncio client of the ``codemidas.v1.Environment`` service.

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
        channel: an existing ``grpc.aio`` channel to use instead of opening one (the client will not
            close it).
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
        channel: grpc.aio.Channel | None = None,
    ) -> None:
        self.address = address
        self.timeout_s = timeout_s
        self.reset_timeout_s = reset_timeout_s
        self.reward_timeout_s = reward_timeout_s
        self.retries = max(0, retries)
        self._metadata = _wire.bearer_metadata(token)
        self._root_certificates = root_certificates
        self._owns_channel = channel is None
        self._channel: grpc.aio.Channel | None = channel
        self._stub: Any = pb2_grpc.EnvironmentStub(channel) if channel is not None else None
        self._closed = False
        # Touched only from the client's event loop, so no lock.
        self._next_step: dict[str, int] = {}
        self._group_members: dict[str, tuple[str, ...]] = {}

    # -- lifecycle -------------------------------------------------------------------------------

    def _open(self) -> tuple[grpc.aio.Channel, Any]:
        if self._closed:
            raise EpisodeError(f"the client of {self.address} is shut down; make a new one")
        if self._channel is None:
            options = list(_wire.CHANNEL_OPTIONS)
            if self._root_certificates is not None:
                creds = grpc.ssl_channel_credentials(root_certificates=self._root_certificates)
                self._channel = grpc.aio.secure_channel(self.address, creds, options=options)
            else:
                self._channel = grpc.aio.insecure_channel(self.address, options=options)
            self._stub = pb2_grpc.EnvironmentStub(self._channel)
        return self._channel, self._stub

    async def wait_ready(self, timeout_s: float = 30.0) -> None:
        """Waits until the channel connects; raises ``CodeMidasError(UNAVAILABLE)`` otherwise."""
        channel, _ = self._open()
        try:
            await asyncio.wait_for(channel.channel_ready(), timeout_s)
        except asyncio.TimeoutError:
            raise CodeMidasError("connect", grpc.StatusCode.UNAVAILABLE,
                                 f"no server answered at {self.address} within {timeout_s:g} s; "
                                 "is `codemidas serve` running?") from None

    async def shutdown(self) -> None:
        """Closes the channel (episodes on the server are left alone; close them first).

        Idempotent; calls made afterwards raise :class:`EpisodeError`."""
        self._closed = True
        channel, self._channel, self._stub = self._channel, None, None
        if channel is not None and self._owns_channel:
            await channel.close()

    async def __aenter__(self) -> "AsyncEnvironmentClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.shutdown()

    # -- calls -----------------------------------------------------------------------------------

    async def _call(self, method: str, request: Any, timeout_s: float | None, *, retry: bool) -> Any:
        _, stub = self._open()
        rpc: Callable[..., Any] = getattr(stub, method)
        attempts = 1 + (self.retries if retry else 0)
        for attempt in range(attempts):
            try:
                return await rpc(request, timeout=timeout_s or self.timeout_s, metadata=self._metadata)
            except grpc.RpcError as err:
                code = err.code() if hasattr(err, "code") else None
                if code in _wire.RETRYABLE and attempt + 1 < attempts:
                    await asyncio.sleep(_wire.retry_delay_s(attempt))
                    continue
                raise CodeMidasError.from_rpc_error(method, err) from None
        raise AssertionError("unreachable")

    async def list_tasks(self, suite: str = "", language: str = "") -> list[TaskInfo]:
        response = await self._call("ListTasks", pb2.ListTasksRequest(suite=suite, language=language),
                                    None, retry=True)
        return [_wire.task_info(t) for t in response.tasks]

    async def get_task(self, task_id: str) -> tuple[TaskInfo, str]:
        """Returns the task's info and its prompt."""
        response = await self._call("GetTask", pb2.GetTaskRequest(task_id=task_id), None, retry=True)
        return _wire.task_info(response.task), response.prompt

    async def reset(self, task_id: str, seed: int = 0, *, timeout_s: float | None = None) -> EpisodeInfo:
        """Starts one episode of ``task_id`` in a fresh sandbox (never retried)."""
        response = await self._call("Reset", pb2.ResetRequest(task_id=task_id, seed=seed),
                                    timeout_s or self.reset_timeout_s, retry=False)
        info = _wire.episode_info(response)
        self._next_step[info.episode_id] = 0
        return info

    async def reset_group(self, task_id: str, group_size: int, seed: int = 0, *,
                          timeout_s: float | None = None) -> tuple[str, list[EpisodeInfo]]:
        """Starts ``group_size`` episodes of ``task_id`` (a GRPO group); returns (group_id, episodes)."""
        response = await self._call(
            "ResetGroup", pb2.ResetGroupRequest(task_id=task_id, group_size=group_size, seed=seed),
            timeout_s or self.reset_timeout_s, retry=False)
        episodes = [_wire.episode_info(e) for e in response.episodes]
        for info in episodes:
            self._next_step[info.episode_id] = 0
        self._group_members[response.group_id] = tuple(e.episode_id for e in episodes)
        return response.group_id, episodes

    def next_step_index(self, episode_id: str) -> int:
        """The index the next Step of this episode will carry (0 for an episode not seen)."""
        return self._next_step.get(episode_id, 0)

    async def step(self, episode_id: str, action: Any, *, step_index: int | None = None,
                   timeout_s: float | None = None) -> StepResult:
        """Relays one action: a ``codemidas.v1.Action`` or ``{"kind": {fields}}`` (see make_action).

        ``step_index`` defaults to the tracked index of the episode; after a success the tracked
        index becomes the answered index + 1.
        """
        wire_action = _wire.make_action(action)
        index = self.next_step_index(episode_id) if step_index is None else step_index
        request = pb2.StepRequest(episode_id=episode_id, step_index=index, action=wire_action)
        response = await self._call("Step", request, timeout_s, retry=True)
        current = self._next_step.get(episode_id, 0)
        self._next_step[episode_id] = max(current, response.step_index + 1)
        return _wire.step_result(response)

    async def shell(self, episode_id: str, command: str, timeout_ms: int = 0, **kw: Any) -> StepResult:
        """Runs ``command`` with ``sh -c`` in the episode's workdir; ``timeout_ms`` 0: server default."""
        return await self.step(episode_id, {"shell": {"command": command, "timeout_ms": timeout_ms}}, **kw)

    async def read_file(self, episode_id: str, path: str, offset: int = 0, limit: int = 0,
                        **kw: Any) -> StepResult:
        """Reads ``path`` (relative to the workdir); the content comes back as ``stdout``."""
        return await self.step(episode_id, {"read_file": {"path": path, "offset": offset, "limit": limit}},
                               **kw)

    async def write_file(self, episode_id: str, path: str, content: str, **kw: Any) -> StepResult:
        return await self.step(episode_id, {"write_file": {"path": path, "content": content}}, **kw)

    async def edit(self, episode_id: str, path: str, old_text: str, new_text: str,
                   **kw: Any) -> StepResult:
        """Replaces ``old_text`` (which must occur once) by ``new_text`` in ``path``."""
        return await self.step(
            episode_id, {"edit": {"path": path, "old_text": old_text, "new_text": new_text}}, **kw)

    async def submit(self, episode_id: str, **kw: Any) -> StepResult:
        return await self.step(episode_id, {"submit": {}}, **kw)

    async def call_tool(self, episode_id: str, name: str, arguments: Mapping[str, Any] | None = None,
                        **kw: Any) -> StepResult:
        """Relays a tool call as offered in ``EpisodeInfo.tools``: the tool names are the action
        kinds and their arguments the action's fields, so an LLM's tool call maps straight on."""
        return await self.step(episode_id, {name: dict(arguments or {})}, **kw)

    async def reward(self, episode_id: str, *, timeout_s: float | None = None) -> RewardResult:
        """Scores the episode with the hidden tests (idempotent: a second call returns the same)."""
        response = await self._call("Reward", pb2.RewardRequest(episode_id=episode_id),
                                    timeout_s or self.reward_timeout_s, retry=True)
        return _wire.reward_result(response)

    async def reward_group(self, group_id: str, *, timeout_s: float | None = None) -> GroupReward:
        """Scores every episode of the group and returns the GRPO advantages."""
        response = await self._call("RewardGroup", pb2.RewardGroupRequest(group_id=group_id),
                                    timeout_s or self.reward_timeout_s, retry=True)
        return _wire.group_reward(response)

    async def close(self, episode_id: str = "", group_id: str = "") -> int:
        """Releases an episode or a whole group (idempotent); returns how many episodes closed."""
        if not episode_id and not group_id:
            raise EpisodeError("close: pass episode_id or group_id")
        response = await self._call("Close", pb2.CloseRequest(episode_id=episode_id, group_id=group_id),
                                    None, retry=True)
        self._next_step.pop(episode_id, None)
        for member in self._group_members.pop(group_id, ()) if group_id else ():
            self._next_step.pop(member, None)
        return int(response.closed)

    # -- context managers ------------------------------------------------------------------------

    def episode(self, task_id: str, seed: int = 0) -> "Opening[AsyncEpisode]":
        """Resets ``task_id``: ``async with env.episode(t) as ep`` (closed on exit) or
        ``ep = await env.episode(t)`` (close it yourself)."""
        async def start() -> AsyncEpisode:
            return AsyncEpisode(self, await self.reset(task_id, seed))
        return Opening(start)

    def group(self, task_id: str, group_size: int, seed: int = 0) -> "Opening[AsyncGroup]":
        """Resets a GRPO group: ``async with env.group(t, 8) as group`` closes it on exit."""
        async def start() -> AsyncGroup:
            group_id, infos = await self.reset_group(task_id, group_size, seed)
            return AsyncGroup(self, group_id, infos)
        return Opening(start)


class Opening(Generic[T]):
    """What :meth:`AsyncEnvironmentClient.episode` and ``group`` return before the reset has run:
    await it for the started object, or enter it with ``async with``, which closes it on exit."""

    def __init__(self, start: Callable[[], Awaitable[T]]) -> None:
        self._start = start
        self._opened: Any = None

    def __await__(self) -> Generator[Any, None, T]:
        return self._start().__await__()

    async def __aenter__(self) -> T:
        self._opened = await self._start()
        return await self._opened.__aenter__()

    async def __aexit__(self, exc_type: object, exc: object, tb: object) -> None:
        await self._opened.__aexit__(exc_type, exc, tb)


class AsyncEpisode:
    """One episode: the actions as coroutine methods, closed on ``async with`` exit (or by
    :meth:`close`)."""

    def __init__(self, client: AsyncEnvironmentClient, info: EpisodeInfo, *, owned: bool = True) -> None:
        self.client = client
        self.info = info
        self._owned = owned
        self._closed = False

    @property
    def episode_id(self) -> str:
        return self.info.episode_id

    async def step(self, action: Any, **kw: Any) -> StepResult:
        return await self.client.step(self.episode_id, action, **kw)

    async def shell(self, command: str, timeout_ms: int = 0) -> StepResult:
        return await self.client.shell(self.episode_id, command, timeout_ms)

    async def read_file(self, path: str, offset: int = 0, limit: int = 0) -> StepResult:
        return await self.client.read_file(self.episode_id, path, offset, limit)

    async def write_file(self, path: str, content: str) -> StepResult:
        return await self.client.write_file(self.episode_id, path, content)

    async def edit(self, path: str, old_text: str, new_text: str) -> StepResult:
        return await self.client.edit(self.episode_id, path, old_text, new_text)

    async def submit(self) -> StepResult:
        return await self.client.submit(self.episode_id)

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> StepResult:
        return await self.client.call_tool(self.episode_id, name, arguments)

    async def reward(self) -> RewardResult:
        return await self.client.reward(self.episode_id)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.client.close(episode_id=self.episode_id)

    async def __aenter__(self) -> "AsyncEpisode":
        return self

    async def __aexit__(self, exc_type: object, exc: object, tb: object) -> None:
        if self._owned:
            await _close_quietly_if_failing(self.close, exc is not None)

    def __repr__(self) -> str:
        return f"AsyncEpisode({self.episode_id!r}, task={self.info.task_id!r})"


class AsyncGroup:
    """A GRPO group: ``episodes`` in reset order; closed as a whole on ``async with`` exit."""

    def __init__(self, client: AsyncEnvironmentClient, group_id: str,
                 infos: Iterable[EpisodeInfo]) -> None:
        self.client = client
        self.group_id = group_id
        self.episodes = [AsyncEpisode(client, info, owned=False) for info in infos]
        self._closed = False

    async def reward(self) -> GroupReward:
        return await self.client.reward_group(self.group_id)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.client.close(group_id=self.group_id)

    def __len__(self) -> int:
        return len(self.episodes)

    def __iter__(self) -> Iterator[AsyncEpisode]:
        return iter(self.episodes)

    def __getitem__(self, i: int) -> AsyncEpisode:
        return self.episodes[i]

    async def __aenter__(self) -> "AsyncGroup":
        return self

    async def __aexit__(self, exc_type: object, exc: object, tb: object) -> None:
        await _close_quietly_if_failing(self.close, exc is not None)


async def _close_quietly_if_failing(close: Callable[[], Awaitable[None]], failing: bool) -> None:
    # While another exception propagates, a failed Close must not hide it.
    try:
        await close()
    except CodeMidasError:
        if not failing:
            raise
