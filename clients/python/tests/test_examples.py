"""The trainer-style examples (clients/python/examples) against the in-process fake server: each
plays a right and a wrong solution, and its episode is closed afterwards."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

import skyrl_env  # noqa: E402
import trl_environment  # noqa: E402
import verl_tool  # noqa: E402

from codemidas_client import EnvironmentClient  # noqa: E402


@pytest.fixture()
def client(fake):
    with EnvironmentClient(fake.address, timeout_s=10) as c:
        yield c


@pytest.mark.parametrize("content, want", [("right", 1.0), ("wrong", 0.0)])
def test_trl_environment_tools_return_text_and_reward_closes(client, fake, content, want):
    env = trl_environment.CodeMidasTRLEnvironment(client, task_id="sample/a")
    assert env.reset() == "prompt of sample/a"
    assert env.shell("echo hi") == "hi"
    assert env.write_file("solution.py", content) == "[no output]"
    assert env.read_file("solution.py") == content
    env.submit()
    (episode_id,) = fake.episodes
    assert trl_environment.codemidas_reward([env]) == [want]
    assert fake.episodes[episode_id]["closed"]
    assert env.shell("ls").startswith("error:")  # no episode after the reward was read


def test_trl_environment_reports_refused_steps_as_text_and_closes_on_reset(client, fake):
    env = trl_environment.CodeMidasTRLEnvironment(client)
    env.reset(task_id="sample/a")
    (first,) = fake.episodes
    fake.episodes[first]["closed"] = True  # the server now refuses steps of this episode
    assert env.shell("ls") == "error: FAILED_PRECONDITION: episode is closed"
    fake.episodes[first]["closed"] = False
    env.reset(task_id="sample/a")
    assert fake.episodes[first]["closed"]
    # Only the actions are public methods (TRL turns those into tools).
    public = {n for n in dir(env) if not n.startswith("_") and callable(getattr(env, n))}
    assert public == {"reset", "shell", "read_file", "write_file", "edit", "submit"}


def test_verl_tool_create_execute_reward_release(fake):
    async def body():
        tool = verl_tool.CodeMidasVerlTool({"address": fake.address, "task_id": "sample/a"})
        try:
            a = await tool.create("a")
            b = await tool.create("b")
            assert tool.prompt(a) == "prompt of sample/a"
            text, step_reward, metrics = await tool.execute(
                a, {"name": "write_file", "arguments": {"path": "solution.py", "content": "right"}})
            assert (text, step_reward, metrics["step_index"]) == ("[no output]", 0.0, 0)
            bad, _, bad_metrics = await tool.execute(b, {"name": "rm", "arguments": {}})
            assert bad.startswith("error:") and bad_metrics == {"error": "EpisodeError"}
            _, _, done = await tool.execute(a, {"name": "submit"})
            rewards = (await tool.calc_reward(a), await tool.calc_reward(b))
            await tool.release(a)
            await tool.release(a)  # idempotent
            return rewards, done
        finally:
            await tool.shutdown()
    rewards, done = asyncio.run(body())
    assert rewards == (1.0, 0.0) and done["done"]
    assert all(ep["closed"] for ep in fake.episodes.values())  # shutdown released b


def test_skyrl_env_steps_json_tool_calls_and_scores_at_the_end(client, fake):
    env = skyrl_env.CodeMidasSkyRLEnv({}, {"task_id": "sample/a"}, client=client)
    chat, metadata = env.init()
    assert chat == [{"role": "user", "content": "prompt of sample/a"}]
    assert metadata["tools"][0]["name"] == "shell"
    out = env.step('<tool_call>{"name": "shell", "arguments": {"command": "echo hi"}}</tool_call>')
    assert out == {"observations": [{"role": "user", "content": "hi"}], "reward": 0.0, "done": False,
                   "metadata": {"step_index": 0, "exit_code": 0}}
    garbled = env.step("I will now write the file")
    assert garbled["done"] is False and "no JSON object" in garbled["observations"][0]["content"]
    env.step(json.dumps({"name": "write_file", "arguments": {"path": "solution.py", "content": "right"}}))
    last = env.step('{"name": "submit"}')
    assert (last["done"], last["reward"], last["observations"]) == (True, 1.0, [])
    assert (last["metadata"]["passed"], last["metadata"]["total"]) == (3, 3)
    env.close()
    assert fake.episodes[metadata["episode_id"]]["closed"]


@pytest.mark.parametrize("example", [trl_environment, verl_tool, skyrl_env])
def test_example_scripts_play_the_reference_solution(fake, tmp_path, capsys, example):
    solution = tmp_path / "sample" / "a" / "solution"
    solution.mkdir(parents=True)
    (solution / "solution.py").write_text("right")
    status = example.main(["--address", fake.address, "--task", "sample/a",
                           "--environments", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "reward: 1.0" in out or "'reward': 1.0" in out, out
    assert all(ep["closed"] for ep in fake.episodes.values())
