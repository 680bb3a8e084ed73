"""One real episode against a running server: set CODEMIDAS_ADDRESS=host:port.

Optional: CODEMIDAS_TOKEN (bearer token), CODEMIDAS_ENVIRONMENTS (the suites folder the server
serves; default <repo>/environments), CODEMIDAS_SUITE (default ``sample``), CODEMIDAS_TASK (a task
id; default the suite's first task). Skipped when CODEMIDAS_ADDRESS is unset.

    CODEMIDAS_ADDRESS=127.0.0.1:50051 /usr/bin/python3 -m pytest -q clients/python/tests/test_client_episode.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codemidas_client import EnvironmentClient

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
