"""A CodeMidas episode as a SkyRL-Gym text environment (``init`` / ``step`` / ``close``).

SkyRL-Gym calls ``init(prompt)`` for the chat the episode starts from (answering it and metadata),
then ``step(action_text)`` with each model turn, answering a dict ``observations`` (messages to
append), ``reward``, ``done``, ``metadata``, and ``close()`` at the end. A turn here is one tool
call as JSON text, ``{"name": "shell", "arguments": {"command": "ls"}}`` (text around the JSON
object is ignored); the reward is 0.0 until the episode ends (submit, or its step or time budget
runs out), then the hidden tests' score.

    env = CodeMidasSkyRLEnv({"address": "127.0.0.1:50051"}, {"task_id": "sample/slugify"})

Run it against a server (it plays the task's reference solution as JSON actions):

    /usr/bin/python3 clients/python/examples/skyrl_env.py --address 127.0.0.1:50051 --task sample/slugify

Only the standard library and codemidas_client; SkyRL itself is not imported.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from _example_cli import parse_args, reference_files

from codemidas_client import CodeMidasError, EnvironmentClient, EpisodeError

Messages = list[dict[str, str]]


class CodeMidasSkyRLEnv:
    """SkyRL-Gym's text-environment shape over one CodeMidas episode.

    Args:
        env_config: ``address`` (required unless ``client`` is given), ``token``.
        extras: the sample's extras; ``task_id`` picks the task.
        client: a shared synchronous client (then ``close`` leaves it open).
    """

    def __init__(self, env_config: dict[str, Any], extras: dict[str, Any] | None = None, *,
                 client: EnvironmentClient | None = None) -> None:
        self._task_id = (extras or {}).get("task_id") or env_config.get("task_id")
        if not self._task_id:
            raise ValueError("CodeMidasSkyRLEnv: extras (or env_config) need a task_id")
        self._owns_client = client is None
        self._client = client or EnvironmentClient(env_config["address"], env_config.get("token"))
        self._episode_id: str | None = None

    def init(self, prompt: Messages | None = None) -> tuple[Messages, dict[str, Any]]:
        """Starts the episode; the chat is ``prompt`` when given, else the task's prompt as a user
        message."""
        info = self._client.reset(self._task_id)
        self._episode_id = info.episode_id
        chat = list(prompt) if prompt else [{"role": "user", "content": info.prompt}]
        metadata = {"episode_id": info.episode_id, "task_id": info.task_id,
                    "tools": [{"name": t.name, "description": t.description, "parameters": t.parameters}
                              for t in info.tools]}
        return chat, metadata

    def step(self, action: str) -> dict[str, Any]:
        if self._episode_id is None:
            raise EpisodeError("step before init")
        try:
            name, arguments = parse_tool_call(action)
            result = self._client.call_tool(self._episode_id, name, arguments)
        except (CodeMidasError, EpisodeError, ValueError, TypeError) as err:
            # Unparsable or refused: tell the model and let it try again.
            return {"observations": [{"role": "user", "content": f"error: {err}"}], "reward": 0.0,
                    "done": False, "metadata": {"error": type(err).__name__}}
        metadata: dict[str, Any] = {"step_index": result.step_index, "exit_code": result.exit_code}
        if not result.done:
            return {"observations": [{"role": "user", "content": result.text()}], "reward": 0.0,
                    "done": False, "metadata": metadata}
        scored = self._client.reward(self._episode_id)
        metadata.update(outcome=scored.outcome, passed=scored.passed, total=scored.total)
        return {"observations": [], "reward": scored.reward, "done": True, "metadata": metadata}

    def close(self) -> None:
        """Closes the episode and, when this environment opened the client, the client."""
        episode_id, self._episode_id = self._episode_id, None
        try:
            if episode_id is not None:
                self._client.close(episode_id=episode_id)
        finally:
            if self._owns_client:
                self._client.shutdown()


def parse_tool_call(text: str) -> tuple[str, dict[str, Any]]:
    """``{"name": ..., "arguments": {...}}`` from the first ``{`` to the last ``}`` of ``text``."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError('no JSON object in the action; answer {"name": ..., "arguments": {...}}')
    call = json.loads(text[start:end + 1])
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        raise ValueError('the action needs a string "name"')
    arguments = call.get("arguments") or {}
    if not isinstance(arguments, dict):
        raise ValueError('"arguments" must be a JSON object')
    return call["name"], arguments


def main(argv: list[str] | None = None) -> int:
    args = parse_args(__doc__.split("\n\n")[0], argv)
    env = CodeMidasSkyRLEnv({"address": args.address, "token": args.token}, {"task_id": args.task})
    try:
        chat, metadata = env.init()
        print(f"init: {chat[0]['content'].splitlines()[0]} (tools: {[t['name'] for t in metadata['tools']]})")
        for path, content in reference_files(args.environments, args.task).items():
            out = env.step(json.dumps({"name": "write_file", "arguments": {"path": path, "content": content}}))
            print(f"write_file {path}: {out}")
        print(f"submit: {env.step(json.dumps({'name': 'submit'}))}")
    finally:
        env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
