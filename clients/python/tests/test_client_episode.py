"""Real episodes against a running server: set CODEMIDAS_ADDRESS=host:port.

The sync client (reference solution scores 1.0, an untouched workspace 0.0), a GRPO group of 4 on
the aio client (two reference, two null: rewards [1, 1, 0, 0], advantages equal and opposite), and
each trainer-style example of ``clients/python/examples`` playing the reference solution.

Optional: CODEMIDAS_TOKEN (bearer token), CODEMIDAS_ENVIRONMENTS (the suites folder the server
serves; default <repo>/environments), CODEMIDAS_SUITE (default ``sample``), CODEMIDAS_TASK (a task
id; default the suite's first task). Skipped when CODEMIDAS_ADDRESS is unset.

    CODEMIDAS_ADDRESS=127.0.0.1:50051 /usr/bin/python3 -m pytest -q clients/python/tests/test_client_episode.py
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import sys
from pathlib import Path

import pytest

from codemidas_client import AsyncEnvironmentClient, AsyncEpisode, EnvironmentClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import skyrl_env  # noqa: E402
import trl_environment  # noqa: E402
import verl_tool  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[3]
ADDRESS = os.environ.get("CODEMIDAS_ADDRESS", "")
ENVIRONMENTS = Path(os.environ.get("CODEMIDAS_ENVIRONMENTS", REPO_ROOT / "environments"))
SUITE = os.environ.get("CODEMIDAS_SUITE", "sample")

pytestmark = pytest.mark.skipif(not ADDRESS, reason="CODEMIDAS_ADDRESS is not set (no server to talk to)")


def solution_files(task_id: str) -> dict[str, str]:
    """The reference files of a task, keyed by their workspace-relative paths."""
    suite, name = task_id.split("/", 1)
    root = ENVIRONMENTS / suite / name / "solution"
    files = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
             for p in sorted(root.rglob("*")) if p.is_file()}
    assert files, f"no reference files under {root}"
    return files


@pytest.fixture(scope="module")
def client():
    with EnvironmentClient(ADDRESS, token=os.environ.get("CODEMIDAS_TOKEN") or None) as c:
        c.wait_ready(30)
        yield c


@pytest.fixture(scope="module")
def task_id(client) -> str:
    wanted = os.environ.get("CODEMIDAS_TASK")
    if wanted:
        return wanted
    tasks = [t for t in client.list_tasks(suite=SUITE) if t.language == "python"]
    assert tasks, f"the server lists no python task in suite '{SUITE}'"
    return tasks[0].task_id


def test_reference_solution_scores_one(client, task_id):
    with client.episode(task_id) as ep:
        assert ep.info.task_id == task_id
        assert ep.info.prompt.strip(), "Reset returned an empty prompt"

        hello = ep.shell("echo hi")
        assert "hi" in hello.stdout
        assert hello.exit_code == 0 and not hello.timed_out and not hello.done
        assert hello.step_index == 0

        for path, content in solution_files(task_id).items():
            written = ep.write_file(path, content)
            assert written.exit_code == 0, f"write_file {path}: {written.stderr}"

        submitted = ep.submit()
        assert submitted.terminated

        reward = ep.reward()
        assert reward.outcome == "SCORED", reward.detail
        assert reward.reward == 1.0, f"{reward.passed}/{reward.total}: {reward.detail}"
        assert reward.total > 0 and reward.passed == reward.total
        # Reward is idempotent.
        assert client.reward(ep.episode_id).reward == reward.reward


def test_untouched_workspace_scores_zero(client, task_id):
    with client.episode(task_id) as ep:
        reward = ep.reward()
        assert reward.outcome == "SCORED", reward.detail
        assert reward.reward == 0.0, f"{reward.passed}/{reward.total}: {reward.detail}"
        assert reward.total > 0


def test_aio_group_of_four_scores_the_reference_pair_one_and_the_null_pair_zero(task_id):
    files = solution_files(task_id)

    async def play(i: int, ep: AsyncEpisode) -> None:
        if i < 2:
            for path, content in files.items():
                written = await ep.write_file(path, content)
                assert written.exit_code == 0, f"write_file {path}: {written.stderr}"
        assert (await ep.submit()).terminated

    async def body():
        async with AsyncEnvironmentClient(ADDRESS, token=os.environ.get("CODEMIDAS_TOKEN") or None) as env:
            await env.wait_ready(30)
            async with env.group(task_id, 4) as group:
                assert len(group) == 4 and len({ep.episode_id for ep in group}) == 4
                await asyncio.gather(*(play(i, ep) for i, ep in enumerate(group)))
                scores = await group.reward()
            # Closed on exit: a second Close of the group closes nothing.
            assert await env.close(group_id=group.group_id) == 0
            return scores

    scores = asyncio.run(body())
    assert [r.reward for r in scores.rewards] == [1.0, 1.0, 0.0, 0.0], [r.detail for r in scores.rewards]
    assert scores.mask == (True,) * 4
    top = scores.advantages[0]
    assert top > 0
    for a in scores.advantages[:2]:
        assert math.isclose(a, top, abs_tol=1e-6)
    for a in scores.advantages[2:]:
        assert math.isclose(a, -top, abs_tol=1e-6)


def test_trl_example_plays_the_reference_solution(client, task_id):
    with trl_environment.CodeMidasTRLEnvironment(client) as env:
        assert env.reset(task_id=task_id).strip()
        assert "hi" in env.shell("echo hi")
        for path, content in solution_files(task_id).items():
            assert not env.write_file(path, content).startswith("error:")
        assert not env.submit().startswith("error:")
        assert env.reward == 1.0


def test_verl_example_plays_the_reference_solution(task_id):
    async def body():
        tool = verl_tool.CodeMidasVerlTool({"address": ADDRESS, "token": os.environ.get("CODEMIDAS_TOKEN")})
        try:
            instance = await tool.create(task_id=task_id)
            for path, content in solution_files(task_id).items():
                text, _, metrics = await tool.execute(
                    instance, {"name": "write_file", "arguments": {"path": path, "content": content}})
                assert metrics.get("exit_code") == 0, text
            _, _, done = await tool.execute(instance, {"name": "submit", "arguments": {}})
            assert done["done"]
            reward = await tool.calc_reward(instance)
            await tool.release(instance)
            return reward
        finally:
            await tool.shutdown()
    assert asyncio.run(body()) == 1.0


def test_skyrl_example_plays_the_reference_solution(client, task_id):
    env = skyrl_env.CodeMidasSkyRLEnv({}, {"task_id": task_id}, client=client)
    try:
        chat, metadata = env.init()
        assert chat[0]["content"].strip() and {t["name"] for t in metadata["tools"]} >= {"shell", "submit"}
        for path, content in solution_files(task_id).items():
            out = env.step(json.dumps({"name": "write_file", "arguments": {"path": path, "content": content}}))
            assert out["done"] is False and out["metadata"].get("exit_code") == 0, out
        last = env.step(json.dumps({"name": "submit", "arguments": {}}))
        assert last["done"] is True and last["reward"] == 1.0, last
    finally:
        env.close()
