"""The synchronous client of the CodeMidas environment server.

    from codemidas_client import EnvironmentClient

    with EnvironmentClient("127.0.0.1:50051") as env:
        with env.episode("sample/slugify") as ep:
            print(ep.info.prompt)
            print(ep.shell("ls").stdout)
            ep.write_file("textkit/slug.py", source)
            ep.submit()
            print(ep.reward().reward)

It is a facade over :class:`~codemidas_client.aio.AsyncEnvironmentClient`: the async client runs on
a private event loop in a background thread, and every method here submits the matching coroutine
to that loop and waits for it. So the retry policy, step-index tracking and result conversion exist
once, the client may be shared by threads (their calls run concurrently on the loop), and it works
from code that already runs an event loop of its own. :meth:`EnvironmentClient.shutdown` (or
leaving ``with``) closes the channel and stops the thread.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable, Coroutine, Iterable, Iterator, Mapping, TypeVar

import grpc
import grpc.aio

from ._wire import ACTION_KINDS, make_action
from .aio import AsyncEnvironmentClient
from .errors import CodeMidasError, EpisodeError
from .results import EpisodeInfo, GroupReward, RewardResult, StepResult, TaskInfo

__all__ = ["ACTION_KINDS", "EnvironmentClient", "Episode", "Group", "make_action"]

T = TypeVar("T")


class _LoopThread:
    """An event loop running forever in a daemon thread, until :meth:`stop`."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        if threading.current_thread() is self._thread:
            coro.close()
            raise EpisodeError("a synchronous client call from inside its own event loop would deadlock")
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result()
        except BaseException:
            # Interrupted (KeyboardInterrupt) or failed: do not leave the call running on the loop.
            future.cancel()
            raise

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()


class EnvironmentClient:
    """Synchronous client of the ``codemidas.v1.Environment`` service: a facade over
    :class:`AsyncEnvironmentClient` running on a private event loop thread.

    Args:
        address, token, timeout_s, reset_timeout_s, reward_timeout_s, retries, root_certificates:
            as for :class:`AsyncEnvironmentClient`.
        channel: a zero-argument callable returning a ``grpc.aio`` channel to use instead of opening
            one (called on the client's loop; the client will not close the channel). A blocking
            ``grpc.Channel`` cannot serve the async client underneath and is refused.
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
        channel: Callable[[], grpc.aio.Channel] | None = None,
    ) -> None:
        if channel is not None and not callable(channel):
            raise TypeError("channel: pass a callable that returns a grpc.aio channel "
                            "(the synchronous client runs the asyncio client)")
        self.address = address

        async def build() -> AsyncEnvironmentClient:
            return AsyncEnvironmentClient(
                address, token, timeout_s, reset_timeout_s=reset_timeout_s,
                reward_timeout_s=reward_timeout_s, retries=retries,
                root_certificates=root_certificates,
                channel=channel() if channel is not None else None)

        self._loop = _LoopThread(name=f"codemidas-client {address}")
        self._shutdown_lock = threading.Lock()
        self._aio = self._loop.run(build())

    # -- configuration, read through to the async client ----------------------------------------

    @property
    def timeout_s(self) -> float:
        return self._aio.timeout_s

    @property
    def reset_timeout_s(self) -> float:
        return self._aio.reset_timeout_s

    @property
    def reward_timeout_s(self) -> float:
        return self._aio.reward_timeout_s

    @property
    def retries(self) -> int:
        return self._aio.retries

    @property
    def aio(self) -> AsyncEnvironmentClient:
        """The async client underneath (its coroutines belong to this client's private loop)."""
        return self._aio

    # -- lifecycle -------------------------------------------------------------------------------

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        if not self._loop.running:
            coro.close()
            raise EpisodeError(f"the client of {self.address} is shut down; make a new one")
        return self._loop.run(coro)

    def wait_ready(self, timeout_s: float = 30.0) -> None:
        """Blocks until the channel connects; raises ``CodeMidasError(UNAVAILABLE)`` otherwise."""
        self._run(self._aio.wait_ready(timeout_s))

    def shutdown(self) -> None:
        """Closes the channel and stops the loop thread (episodes on the server are left alone;
        close them first). Idempotent."""
        with self._shutdown_lock:
            if self._loop.running:
                try:
                    self._loop.run(self._aio.shutdown())
                finally:
                    self._loop.stop()

    def __enter__(self) -> "EnvironmentClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # -- calls -----------------------------------------------------------------------------------

    def list_tasks(self, suite: str = "", language: str = "") -> list[TaskInfo]:
        return self._run(self._aio.list_tasks(suite, language))

    def get_task(self, task_id: str) -> tuple[TaskInfo, str]:
        """Returns the task's info and its prompt."""
        return self._run(self._aio.get_task(task_id))

    def reset(self, task_id: str, seed: int = 0, *, timeout_s: float | None = None) -> EpisodeInfo:
        """Starts one episode of ``task_id`` in a fresh sandbox (never retried)."""
        return self._run(self._aio.reset(task_id, seed, timeout_s=timeout_s))

    def reset_group(self, task_id: str, group_size: int, seed: int = 0, *,
                    timeout_s: float | None = None) -> tuple[str, list[EpisodeInfo]]:
        """Starts ``group_size`` episodes of ``task_id`` (a GRPO group); returns (group_id, episodes)."""
        return self._run(self._aio.reset_group(task_id, group_size, seed, timeout_s=timeout_s))

    def next_step_index(self, episode_id: str) -> int:
        """The index the next Step of this episode will carry (0 for an episode not seen)."""
        return self._aio.next_step_index(episode_id)

    def step(self, episode_id: str, action: Any, *, step_index: int | None = None,
             timeout_s: float | None = None) -> StepResult:
        """Relays one action: a ``codemidas.v1.Action`` or ``{"kind": {fields}}`` (see make_action).

        ``step_index`` defaults to the tracked index of the episode; after a success the tracked
        index becomes the answered index + 1.
        """
        return self._run(self._aio.step(episode_id, action, step_index=step_index, timeout_s=timeout_s))

    def shell(self, episode_id: str, command: str, timeout_ms: int = 0, **kw: Any) -> StepResult:
        """Runs ``command`` with ``sh -c`` in the episode's workdir; ``timeout_ms`` 0: server default."""
        return self._run(self._aio.shell(episode_id, command, timeout_ms, **kw))

    def read_file(self, episode_id: str, path: str, offset: int = 0, limit: int = 0,
                  **kw: Any) -> StepResult:
        """Reads ``path`` (relative to the workdir); the content comes back as ``stdout``."""
        return self._run(self._aio.read_file(episode_id, path, offset, limit, **kw))

    def write_file(self, episode_id: str, path: str, content: str, **kw: Any) -> StepResult:
        return self._run(self._aio.write_file(episode_id, path, content, **kw))

    def edit(self, episode_id: str, path: str, old_text: str, new_text: str, **kw: Any) -> StepResult:
        """Replaces ``old_text`` (which must occur once) by ``new_text`` in ``path``."""
        return self._run(self._aio.edit(episode_id, path, old_text, new_text, **kw))

    def submit(self, episode_id: str, **kw: Any) -> StepResult:
        return self._run(self._aio.submit(episode_id, **kw))

    def call_tool(self, episode_id: str, name: str, arguments: Mapping[str, Any] | None = None,
                  **kw: Any) -> StepResult:
        """Relays a tool call as offered in ``EpisodeInfo.tools``: the tool names are the action
        kinds and their arguments the action's fields, so an LLM's tool call maps straight on."""
        return self._run(self._aio.call_tool(episode_id, name, arguments, **kw))

    def reward(self, episode_id: str, *, timeout_s: float | None = None) -> RewardResult:
        """Scores the episode with the hidden tests (idempotent: a second call returns the same)."""
        return self._run(self._aio.reward(episode_id, timeout_s=timeout_s))

    def reward_group(self, group_id: str, *, timeout_s: float | None = None) -> GroupReward:
        """Scores every episode of the group and returns the GRPO advantages."""
        return self._run(self._aio.reward_group(group_id, timeout_s=timeout_s))

    def close(self, episode_id: str = "", group_id: str = "") -> int:
        """Releases an episode or a whole group (idempotent); returns how many episodes closed."""
        return self._run(self._aio.close(episode_id, group_id))

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

    def __iter__(self) -> Iterator[Episode]:
        return iter(self.episodes)

    def __getitem__(self, i: int) -> Episode:
        return self.episodes[i]

    def __enter__(self) -> "Group":
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        _close_quietly_if_failing(self.close, exc is not None)


def _close_quietly_if_failing(close: Callable[[], None], failing: bool) -> None:
    # While another exception propagates, a failed Close must not hide it.
    try:
        close()
    except CodeMidasError:
        if not failing:
            raise
