"""The synchronous client against the in-process fake of the Environment service (conftest.py;
no Docker, no Node)."""

from __future__ import annotations

import asyncio
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest

from codemidas_client import CodeMidasError, EnvironmentClient, EpisodeError, make_action

CLIENT_ROOT = Path(__file__).resolve().parent.parent


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


def _loop_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("codemidas-client ")]


def test_shutdown_stops_the_loop_thread_and_later_calls_fail_clearly(fake):
    before = len(_loop_threads())
    c = EnvironmentClient(fake.address, timeout_s=10)
    assert len(_loop_threads()) == before + 1
    c.list_tasks()
    with c:
        pass  # leaving `with` shuts the client down
    assert len(_loop_threads()) == before
    c.shutdown()  # idempotent
    with pytest.raises(EpisodeError, match="shut down"):
        c.list_tasks()


def test_one_client_serves_threads_concurrently(client, fake):
    with client.group("sample/a", 4) as group:
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(lambda ep: (ep.shell("echo a"), ep.shell("echo b"), ep.submit()), group))
        assert [[r.step_index for r in rs] for rs in results] == [[0, 1, 2]] * 4
    for ep in group:
        assert [i for e, i in fake.step_requests if e == ep.episode_id] == [0, 1, 2]


def test_sync_client_works_inside_a_running_event_loop(client):
    async def trainer_code() -> list[str]:
        # Blocking, but on the client's own loop: no "event loop is already running" error.
        return [t.task_id for t in client.list_tasks(suite="sample")]
    assert asyncio.run(trainer_code()) == ["sample/a"]


def test_a_blocking_channel_is_refused_with_an_explanation(fake):
    import grpc as blocking
    channel = blocking.insecure_channel(fake.address)
    try:
        with pytest.raises(TypeError, match="grpc.aio"):
            EnvironmentClient(fake.address, channel=channel)
    finally:
        channel.close()


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
