"""A CodeMidas episode as a verl tool (the ``BaseTool`` shape of verl's multi-turn rollout).

verl keeps one tool object per tool in its tool config and calls, per trajectory,
``create(instance_id, **create_kwargs)``, then ``execute(instance_id, parameters)`` for each tool
call of the model (answering ``(text, step_reward, metrics)``), ``calc_reward(instance_id)`` and
``release(instance_id)``, all as coroutines. :class:`CodeMidasVerlTool` maps an instance to one
episode on :class:`~codemidas_client.AsyncEnvironmentClient`; its one function, ``codemidas``,
takes the action as ``{"name": "shell", "arguments": {"command": "ls"}}`` so every action of an
episode shares one sandbox. The dataset's ``tools_kwargs`` pass ``task_id`` to ``create``.

    # tool config: class_name: verl_tool.CodeMidasVerlTool, config: {address: "127.0.0.1:50051"}

Run it against a server (it plays the task's reference solution through ``execute``):

    /usr/bin/python3 clients/python/examples/verl_tool.py --address 127.0.0.1:50051 --task sample/slugify

Only the standard library and codemidas_client; verl itself is not imported.
"""

from __future__ import annotations

import asyncio
import sys
import uuid
from typing import Any

from _example_cli import parse_args, reference_files

from codemidas_client import ACTION_KINDS, AsyncEnvironmentClient, CodeMidasError, EpisodeError

#: The OpenAI function schema verl offers the model.
TOOL_SCHEMA: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "codemidas",
        "description": "Act on the repository: run a shell command, read, write or edit a file, or "
                       "submit the work when done.",
        "parameters": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "enum": sorted(ACTION_KINDS)},
                "arguments": {"type": "object",
                              "description": "shell: {command}; read_file: {path}; write_file: "
                                             "{path, content}; edit: {path, old_text, new_text}; "
                                             "submit: {}"},
            },
            "required": ["name"],
        },
    },
}


class CodeMidasVerlTool:
    """verl's tool interface over CodeMidas episodes, one episode per instance.

    Args:
        config: ``address`` (required), ``token``, ``task_id`` (used when ``create`` gets none).
        tool_schema: the schema to offer; default :data:`TOOL_SCHEMA`.
    """

    def __init__(self, config: dict[str, Any], tool_schema: dict[str, Any] | None = None) -> None:
        self.config = config
        self.tool_schema = tool_schema or TOOL_SCHEMA
        self._task_id = config.get("task_id")
        # Opens its channel on the first call, inside verl's event loop.
        self._client = AsyncEnvironmentClient(config["address"], config.get("token"))
        self._episodes: dict[str, str] = {}
        self._prompts: dict[str, str] = {}

    def get_openai_tool_schema(self) -> dict[str, Any]:
        return self.tool_schema

    async def create(self, instance_id: str | None = None, task_id: str | None = None,
                     **kwargs: Any) -> str:
        """Starts an episode of ``task_id``; returns the instance id (a new one when none is given)."""
        instance_id = instance_id or uuid.uuid4().hex
        task = task_id or self._task_id
        if not task:
            raise ValueError("create: no task_id and no config task_id")
        info = await self._client.reset(task)
        self._episodes[instance_id] = info.episode_id
        self._prompts[instance_id] = info.prompt
        return instance_id

    def prompt(self, instance_id: str) -> str:
        """The task prompt of the instance's episode (for the first user message)."""
        return self._prompts[instance_id]

    async def execute(self, instance_id: str, parameters: dict[str, Any],
                      **kwargs: Any) -> tuple[str, float, dict[str, Any]]:
        """Runs one action; returns (text observation, step reward 0.0, metrics)."""
        episode_id = self._episode_id(instance_id)
        name = parameters.get("name", "")
        try:
            result = await self._client.call_tool(episode_id, name, parameters.get("arguments") or {})
        except (CodeMidasError, EpisodeError, TypeError, ValueError) as err:
            # A malformed or refused call is an observation for the model, not a crash of the rollout.
            return f"error: {err}", 0.0, {"error": type(err).__name__}
        metrics = {"step_index": result.step_index, "exit_code": result.exit_code, "done": result.done}
        return result.text(), 0.0, metrics

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        """Scores the episode with its hidden tests."""
        return (await self._client.reward(self._episode_id(instance_id))).reward

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Closes the instance's episode (a second release does nothing)."""
        episode_id = self._episodes.pop(instance_id, None)
        self._prompts.pop(instance_id, None)
        if episode_id is not None:
            await self._client.close(episode_id=episode_id)

    async def shutdown(self) -> None:
        """Closes every remaining episode, then the channel."""
        for instance_id in list(self._episodes):
            await self.release(instance_id)
        await self._client.shutdown()

    def _episode_id(self, instance_id: str) -> str:
        try:
            return self._episodes[instance_id]
        except KeyError:
            raise EpisodeError(f"unknown instance {instance_id!r}; call create first") from None


async def _play(args: Any) -> int:
    tool = CodeMidasVerlTool({"address": args.address, "token": args.token})
    try:
        instance = await tool.create(task_id=args.task)
        print(f"prompt: {tool.prompt(instance).splitlines()[0]}")
        for path, content in reference_files(args.environments, args.task).items():
            text, _, metrics = await tool.execute(
                instance, {"name": "write_file", "arguments": {"path": path, "content": content}})
            print(f"write_file {path}: {text} {metrics}")
        print(f"submit: {await tool.execute(instance, {'name': 'submit'})}")
        print(f"reward: {await tool.calc_reward(instance)}")
        await tool.release(instance)
    finally:
        await tool.shutdown()
    return 0


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(_play(parse_args(__doc__.split("\n\n")[0], argv)))


if __name__ == "__main__":
    sys.exit(main())
