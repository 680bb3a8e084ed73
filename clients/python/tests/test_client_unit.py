"""The client against a small in-process fake of the Environment service (no Docker, no Node).

The fake keeps the wire contract's rules that the client depends on: step indexes must follow
0, 1, 2, ... (a gap is FAILED_PRECONDITION, a repeat returns the cached answer), unknown episodes are
NOT_FOUND, Close is idempotent.
"""

from __future__ import annotations

import subprocess
from concurrent import futures
from pathlib import Path

import grpc
import pytest

from codemidas_client import (CodeMidasError, EnvironmentClient, EpisodeError, make_action, pb2,
                              pb2_grpc)

CLIENT_ROOT = Path(__file__).resolve().parent.parent


class FakeEnvironment(pb2_grpc.EnvironmentServicer):
    def __init__(self) -> None:
        self.episodes: dict[str, dict] = {}
        self.groups: dict[str, list[str]] = {}
        self.metadata: list[dict[str, str]] = []
        self.step_requests: list[tuple[str, int]] = []
        self.fail_next_step_unavailable = 0
        self.executions = 0
        self._n = 0

    def _note(self, context) -> None:
        self.metadata.append(dict(context.invocation_metadata()))

    def _new_episode(self, task_id: str) -> pb2.ResetResponse:
        self._n += 1
        eid = f"ep-{self._n}"
        self.episodes[eid] = {"next": 0, "cache": {}, "files": {}, "closed": False, "submitted": False}
        return pb2.ResetResponse(
            episode_id=eid, task_id=task_id, prompt=f"prompt of {task_id}", workdir="/workspace",
            tools=[pb2.ToolSpec(name="shell", description="run", parameters_json='{"type":"object"}')],
            limits=pb2.EpisodeLimits(max_steps=50, max_command_ms=10_000))

    def ListTasks(self, request, context):
        self._note(context)
        return pb2.ListTasksResponse(tasks=[
            pb2.TaskInfo(task_id="sample/a", suite="sample", language="python", title="A", difficulty=-1),
            pb2.TaskInfo(task_id="other/b", suite="other", language="python", title="B", difficulty=0.5),
        ][: 1 if request.suite == "sample" else 2])

    def Reset(self, request, context):
        self._note(context)
        if not request.task_id.startswith("sample/"):
            context.abort(grpc.StatusCode.NOT_FOUND, f"unknown task '{request.task_id}'")
        return self._new_episode(request.task_id)

    def ResetGroup(self, request, context):
        self._note(context)
        gid = f"grp-{len(self.groups) + 1}"
        episodes = [self._new_episode(request.task_id) for _ in range(request.group_size)]
        self.groups[gid] = [e.episode_id for e in episodes]
        return pb2.ResetGroupResponse(group_id=gid, episodes=episodes)

    def Step(self, request, context):
        self._note(context)
        self.step_requests.append((request.episode_id, request.step_index))
        ep = self.episodes.get(request.episode_id)
        if ep is None:
            context.abort(grpc.StatusCode.NOT_FOUND, f"unknown episode '{request.episode_id}'")
        if ep["closed"]:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, "episode is closed")
        if request.step_index in ep["cache"]:
            return ep["cache"][request.step_index]
        if request.step_index != ep["next"]:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                          f"step_index {request.step_index} but next is {ep['next']}")
        self.executions += 1
        kind = request.action.WhichOneof("kind")
        obs = pb2.Observation()
        if kind == "shell":
            obs.stdout = request.action.shell.command.removeprefix("echo ") + "\n"
        elif kind == "write_file":
            ep["files"][request.action.write_file.path] = request.action.write_file.content
        elif kind == "read_file":
            obs.stdout = ep["files"].get(request.action.read_file.path, "")
        elif kind == "submit":
            ep["submitted"] = True
        response = pb2.StepResponse(observation=obs, step_index=request.step_index,
                                    terminated=kind == "submit")
        ep["cache"][request.step_index] = response
        ep["next"] += 1
        if self.fail_next_step_unavailable:
            # The server did the work but the answer is "lost": the client must resend the same index.
            self.fail_next_step_unavailable -= 1
            context.abort(grpc.StatusCode.UNAVAILABLE, "connection reset")
        return response

    def _reward(self, eid: str) -> pb2.RewardResponse:
        ok = self.episodes[eid]["files"].get("solution.py") == "right"
        return pb2.RewardResponse(episode_id=eid, reward=1.0 if ok else 0.0, outcome=pb2.SCORED,
                                  passed=3 if ok else 0, total=3,
                                  tests=[pb2.TestResult(name="t1", status="passed" if ok else "failed")])

    def Reward(self, request, context):
        self._note(context)
        if request.episode_id not in self.episodes:
            context.abort(grpc.StatusCode.NOT_FOUND, f"unknown episode '{request.episode_id}'")
        return self._reward(request.episode_id)

    def RewardGroup(self, request, context):
        self._note(context)
        rewards = [self._reward(e) for e in self.groups[request.group_id]]
        mean = sum(r.reward for r in rewards) / len(rewards)
        return pb2.RewardGroupResponse(group_id=request.group_id, rewards=rewards,
                                       advantages=[r.reward - mean for r in rewards],
                                       mask=[True] * len(rewards))

    def Close(self, request, context):
        self._note(context)
        ids = [request.episode_id] if request.episode_id else self.groups.get(request.group_id, [])
        closed = 0
        for eid in ids:
            ep = self.episodes.get(eid)
            if ep and not ep["closed"]:
                ep["closed"] = True
                closed += 1
        return pb2.CloseResponse(closed=closed)


@pytest.fixture()
def fake():
    servicer = FakeEnvironment()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    pb2_grpc.add_EnvironmentServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    servicer.address = f"127.0.0.1:{port}"
    try:
        yield servicer
    finally:
        server.stop(grace=None)


@pytest.fixture()
def client(fake):
    with EnvironmentClient(fake.address, timeout_s=10) as c:
        c.wait_ready(10)
        yield c


def test_generate_script_is_idempotent_and_leaves_importable_stubs():
    gen = CLIENT_ROOT / "codemidas_client" / "_gen"
    first = subprocess.run(["bash", str(CLIENT_ROOT / "generate.sh")], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    stamp = (gen / "STAMP").read_text()
    mtime = (gen / "environment_pb2.py").stat().st_mtime_ns
    second = subprocess.run(["bash", str(CLIENT_ROOT / "generate.sh")], capture_output=True, text=True)
    assert second.returncode == 0, second.stderr
    assert second.stderr == ""  # nothing regenerated
    assert (gen / "STAMP").read_text() == stamp
    assert (gen / "environment_pb2.py").stat().st_mtime_ns == mtime
    assert "from . import environment_pb2" in (gen / "environment_pb2_grpc.py").read_text()


def test_list_tasks_filters_by_suite(client):
    assert [t.task_id for t in client.list_tasks()] == ["sample/a", "other/b"]
    tasks = client.list_tasks(suite="sample")
    assert [t.task_id for t in tasks] == ["sample/a"]
    assert tasks[0].difficulty == -1


def test_steps_carry_consecutive_indexes_per_episode(client, fake):
    a = client.reset("sample/a")
    b = client.reset("sample/a")
    assert a.prompt == "prompt of sample/a" and a.tools[0].parameters == {"type": "object"}
    assert client.shell(a.episode_id, "echo hi").stdout == "hi\n"
    client.shell(b.episode_id, "echo x")
    client.write_file(a.episode_id, "solution.py", "right")
    assert client.read_file(a.episode_id, "solution.py").stdout == "right"
    result = client.submit(a.episode_id)
    assert result.terminated and result.done and result.step_index == 3
    assert [i for e, i in fake.step_requests if e == a.episode_id] == [0, 1, 2, 3]
    assert [i for e, i in fake.step_requests if e == b.episode_id] == [0]
    assert client.next_step_index(a.episode_id) == 4


def test_errors_carry_status_code_and_message(client):
    with pytest.raises(CodeMidasError) as info:
        client.reset("nope/x")
    assert info.value.code == grpc.StatusCode.NOT_FOUND
    assert info.value.code_name == "NOT_FOUND"
    assert "unknown task 'nope/x'" in info.value.details
    assert info.value.method == "Reset"
    assert "NOT_FOUND" in str(info.value)

    ep = client.reset("sample/a")
    with pytest.raises(CodeMidasError) as gap:
        client.shell(ep.episode_id, "echo skip", step_index=5)
    assert gap.value.code == grpc.StatusCode.FAILED_PRECONDITION
    # A failed step does not move the tracked index.
    assert client.shell(ep.episode_id, "echo ok").step_index == 0


def test_unavailable_step_is_retried_with_the_same_index(client, fake):
    ep = client.reset("sample/a")
    fake.fail_next_step_unavailable = 1
    result = client.shell(ep.episode_id, "echo once")
    assert result.stdout == "once\n" and result.step_index == 0
    assert fake.step_requests == [(ep.episode_id, 0), (ep.episode_id, 0)]
    assert fake.executions == 1  # the retry was answered from the server's cache
    assert client.next_step_index(ep.episode_id) == 1


def test_token_is_sent_as_bearer_metadata(fake):
    with EnvironmentClient(fake.address, token="s3cret", timeout_s=10) as c:
        c.list_tasks()
    assert fake.metadata[-1]["authorization"] == "Bearer s3cret"


def test_episode_context_manager_closes_on_exit_even_on_error(client, fake):
    with client.episode("sample/a") as ep:
        ep.write_file("solution.py", "right")
        ep.submit()
        reward = ep.reward()
    assert reward.reward == 1.0 and reward.outcome == "SCORED" and (reward.passed, reward.total) == (3, 3)
    assert fake.episodes[ep.episode_id]["closed"]

    with pytest.raises(RuntimeError):
        with client.episode("sample/a") as failing:
            raise RuntimeError("policy crashed")
    assert fake.episodes[failing.episode_id]["closed"]


def test_group_rewards_and_close(client, fake):
    with client.group("sample/a", 4) as group:
        assert len(group) == 4
        for i, ep in enumerate(group):
            if i < 2:
                ep.write_file("solution.py", "right")
            ep.submit()
        scores = group.reward()
    assert [r.reward for r in scores.rewards] == [1.0, 1.0, 0.0, 0.0]
    assert scores.advantages == (0.5, 0.5, -0.5, -0.5)
    assert all(fake.episodes[ep.episode_id]["closed"] for ep in group)


def test_make_action_accepts_dicts_and_rejects_garbage():
    assert make_action({"submit": {}}).WhichOneof("kind") == "submit"
    assert make_action({"shell": {"command": "ls"}}).shell.command == "ls"
    with pytest.raises(EpisodeError):
        make_action({"rm": {}})


def test_unreachable_server_is_a_clear_unavailable_error():
    with EnvironmentClient("127.0.0.1:1", timeout_s=2, retries=0) as c:
        with pytest.raises(CodeMidasError) as info:
            c.list_tasks()
    assert info.value.code == grpc.StatusCode.UNAVAILABLE


def _load_grpo_demo():
    import importlib.util
    path = CLIENT_ROOT.parent.parent / "scripts" / "grpo-demo.py"
    spec = importlib.util.spec_from_file_location("grpo_demo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _suite(tmp_path, content: str):
    solution = tmp_path / "sample" / "a" / "solution"
    solution.mkdir(parents=True)
    (solution / "solution.py").write_text(content)
    (tmp_path / "sample" / "suite.json").write_text('{"schemaVersion":1,"name":"sample","tasks":["a"]}')
    return tmp_path


def test_grpo_demo_passes_when_oracle_scores_one_and_null_zero(fake, tmp_path, capsys):
    demo = _load_grpo_demo()
    envs = _suite(tmp_path, "right")
    status = demo.main(["--address", fake.address, "--environments", str(envs), "--group-size", "4"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "GRPO demo: PASS: 1 tasks, 4 episodes" in out
    assert "oracle   1.000" in out and "null     0.000" in out
    assert all(ep["closed"] for ep in fake.episodes.values())


def test_grpo_demo_fails_when_the_oracle_does_not_score_one(fake, tmp_path, capsys):
    demo = _load_grpo_demo()
    envs = _suite(tmp_path, "wrong")
    status = demo.main(["--address", fake.address, "--environments", str(envs), "--group-size", "4"])
    out = capsys.readouterr().out
    assert status == 1
    assert "episode 0 (oracle) scored 0, expected 1" in out
    assert "GRPO demo: FAIL" in out
