"""A CodeMidas episode in TRL's ``environment_factory`` style (``GRPOTrainer(environment_factory=...)``).

TRL builds one environment object per rollout, calls ``reset(**row)`` with the dataset row's fields
and reads the returned text as the prompt's addition, and offers the object's public methods (but
``reset``) to the model as tools, their docstrings as descriptions; a reward function then reads
each environment's reward. So :class:`CodeMidasTRLEnvironment` has exactly the five actions as
public methods, each returning a text observation, ``reward`` is a property (not a tool), and
cleanup lives in dunder methods: the episode closes on the next ``reset``, when ``reward`` is read,
or on ``with`` exit.

    from trl_environment import codemidas_reward, environment_factory
    trainer = GRPOTrainer(..., environment_factory=environment_factory("127.0.0.1:50051"),
                          reward_funcs=[codemidas_reward])      # dataset rows carry "task_id"

Run it against a server (it plays the task's reference solution through the tool methods):

    /usr/bin/python3 clients/python/examples/trl_environment.py --address 127.0.0.1:50051 --task sample/slugify

Only the standard library and codemidas_client; TRL itself is not imported.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Sequence

from _example_cli import parse_args, reference_files

from codemidas_client import CodeMidasError, EnvironmentClient, Episode, StepResult


class CodeMidasTRLEnvironment:
    """One CodeMidas episode at a time, its actions as TRL tools.

    Args:
        client: the (shared, thread-safe) synchronous client.
        task_id: the task when ``reset`` gets no ``task_id`` keyword.
    """

    def __init__(self, client: EnvironmentClient, task_id: str | None = None) -> None:
        self._client = client
        self._task_id = task_id
        self._episode: Episode | None = None
        self._reward: float | None = None

    def reset(self, **kwargs: Any) -> str:
        """Starts a new episode (closing the previous one); returns the task's prompt."""
        self._release()
        task_id = kwargs.get("task_id") or self._task_id
        if not task_id:
            raise ValueError("reset: no task_id keyword and no default task")
        self._episode = self._client.episode(str(task_id))
        self._reward = None
        return self._episode.info.prompt

    def shell(self, command: str) -> str:
        """Runs a shell command (sh -c) in the repository and returns its output.

        Args:
            command: the command line to run.
        """
        return self._act(lambda ep: ep.shell(command))

    def read_file(self, path: str) -> str:
        """Returns the content of a file of the repository.

        Args:
            path: the file's path, relative to the repository root.
        """
        return self._act(lambda ep: ep.read_file(path))

    def write_file(self, path: str, content: str) -> str:
        """Writes a file of the repository, creating or replacing it.

        Args:
            path: the file's path, relative to the repository root.
            content: the file's whole new content.
        """
        return self._act(lambda ep: ep.write_file(path, content))

    def edit(self, path: str, old_text: str, new_text: str) -> str:
        """Replaces a piece of text, which must occur exactly once, in a file of the repository.

        Args:
            path: the file's path, relative to the repository root.
            old_text: the text to replace.
            new_text: the text to put in its place.
        """
        return self._act(lambda ep: ep.edit(path, old_text, new_text))

    def submit(self) -> str:
        """Ends the episode: the work is handed in for scoring. Call it once, when done."""
        return self._act(lambda ep: ep.submit())

    @property
    def reward(self) -> float:
        """The episode's reward (hidden tests), scored once on first read; the episode is then closed."""
        if self._reward is None:
            if self._episode is None:
                raise ValueError("reward: no episode; call reset first")
            try:
                self._reward = self._episode.reward().reward
            finally:
                self._release()
        return self._reward

    def _act(self, action: Callable[[Episode], StepResult]) -> str:
        if self._episode is None:
            return "error: no episode is running"
        try:
            return action(self._episode).text()
        except CodeMidasError as err:
            # The model sees what went wrong (e.g. a step after submit) instead of crashing the rollout.
            return f"error: {err.code_name}: {err.details}"

    def _release(self) -> None:
        episode, self._episode = self._episode, None
        if episode is not None:
            episode.close()

    def __enter__(self) -> "CodeMidasTRLEnvironment":
        return self

    def __exit__(self, *exc: object) -> None:
        self._release()


def environment_factory(address: str, token: str | None = None,
                        task_id: str | None = None) -> Callable[[], CodeMidasTRLEnvironment]:
    """A zero-argument factory for TRL; every environment it makes shares one client."""
    client = EnvironmentClient(address, token)
    return lambda: CodeMidasTRLEnvironment(client, task_id)


def codemidas_reward(environments: Sequence[CodeMidasTRLEnvironment], **kwargs: Any) -> list[float]:
    """A TRL reward function: each rollout's environment reward."""
    return [env.reward for env in environments]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(__doc__.split("\n\n")[0], argv)
    with EnvironmentClient(args.address, args.token) as client:
        client.wait_ready(30)
        with CodeMidasTRLEnvironment(client) as env:
            prompt = env.reset(task_id=args.task)
            print(f"prompt: {prompt.splitlines()[0] if prompt else ''}")
            print(f"shell('ls'): {env.shell('ls')}")
            for path, content in reference_files(args.environments, args.task).items():
                print(f"write_file({path!r}): {env.write_file(path, content)}")
            print(f"submit(): {env.submit()}")
            print(f"reward: {codemidas_reward([env])[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
