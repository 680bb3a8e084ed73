"""The asyncio client against the in-process fake of the Environment service (conftest.py).

No pytest-asyncio on Debian's python3: each test runs its coroutine with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio

import grpc
import pytest

from codemidas_client import (AsyncEnvironmentClient, AsyncEpisode, AsyncGroup, CodeMidasError,
                              EpisodeError)


def run(coro):
    return asyncio.run(coro)


def test_calls_convert_results_and_track_step_indexes(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, timeout_s=10) as env:
            await env.wait_ready(10)
            assert [t.task_id for t in await env.list_tasks(suite="sample")] == ["sample/a"]
            a, b = await asyncio.gather(env.reset("sample/a"), env.reset("sample/a"))
            assert a.prompt == "prompt of sample/a" and a.tools[0].parameters == {"type": "object"}
            assert (await env.shell(a.episode_id, "echo hi")).stdout == "hi\n"
            await env.shell(b.episode_id, "echo x")
            await env.write_file(a.episode_id, "solution.py", "right")
            assert (await env.read_file(a.episode_id, "solution.py")).stdout == "right"
            await env.call_tool(a.episode_id, "edit", {"path": "solution.py", "old_text": "x", "new_text": "y"})
            done = await env.submit(a.episode_id)
            assert done.terminated and done.done and done.step_index == 4
            reward = await env.reward(a.episode_id)
            assert (reward.reward, reward.outcome, reward.passed, reward.total) == (1.0, "SCORED", 3, 3)
            assert env.next_step_index(a.episode_id) == 5
            assert await env.close(episode_id=a.episode_id) == 1
            assert await env.close(episode_id=a.episode_id) == 0  # idempotent
            return a, b
    a, b = run(body())
    assert [i for e, i in fake.step_requests if e == a.episode_id] == [0, 1, 2, 3, 4]
    assert [i for e, i in fake.step_requests if e == b.episode_id] == [0]


def test_client_built_outside_a_loop_opens_its_channel_on_first_use(fake):
    env = AsyncEnvironmentClient(fake.address, timeout_s=10)

    async def body():
        try:
            return [t.task_id for t in await env.list_tasks()]
        finally:
            await env.shutdown()
    assert run(body()) == ["sample/a", "other/b"]


def test_errors_carry_status_code_and_message(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, timeout_s=10) as env:
            with pytest.raises(CodeMidasError) as info:
                await env.reset("nope/x")
            ep = await env.reset("sample/a")
            with pytest.raises(CodeMidasError) as gap:
                await env.shell(ep.episode_id, "echo skip", step_index=5)
            # A failed step does not move the tracked index.
            assert (await env.shell(ep.episode_id, "echo ok")).step_index == 0
            with pytest.raises(EpisodeError):
                await env.close()
            return info.value, gap.value
    missing, gap = run(body())
    assert (missing.method, missing.code, missing.code_name) == ("Reset", grpc.StatusCode.NOT_FOUND, "NOT_FOUND")
    assert "unknown task 'nope/x'" in missing.details
    assert gap.code == grpc.StatusCode.FAILED_PRECONDITION and gap.method == "Step"


def test_unavailable_step_is_retried_with_the_same_index(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, timeout_s=10) as env:
            ep = await env.reset("sample/a")
            fake.fail_next_step_unavailable = 1
            return ep, await env.shell(ep.episode_id, "echo once"), env.next_step_index(ep.episode_id)
    ep, result, next_index = run(body())
    assert result.stdout == "once\n" and result.step_index == 0 and next_index == 1
    assert fake.step_requests == [(ep.episode_id, 0), (ep.episode_id, 0)]
    assert fake.executions == 1  # the retry was answered from the server's cache


def test_retries_stop_after_the_configured_count(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, timeout_s=10, retries=1) as env:
            ep = await env.reset("sample/a")
            fake.fail_next_step_unavailable = 2
            with pytest.raises(CodeMidasError) as info:
                await env.shell(ep.episode_id, "echo x")
            return info.value
    err = run(body())
    assert err.code == grpc.StatusCode.UNAVAILABLE and err.method == "Step"
    assert len(fake.step_requests) == 2  # the first try and one retry


def test_reset_is_never_retried(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, timeout_s=10, retries=3) as env:
            fake.fail_next_reset_unavailable = 1
            with pytest.raises(CodeMidasError) as info:
                await env.reset("sample/a")
            return info.value
    err = run(body())
    assert err.code == grpc.StatusCode.UNAVAILABLE and err.method == "Reset"
    assert fake.reset_requests == 1 and fake.episodes == {}


def test_token_is_sent_as_bearer_metadata(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, token="s3cret", timeout_s=10) as env:
            await env.list_tasks()
    run(body())
    assert fake.metadata[-1]["authorization"] == "Bearer s3cret"


def test_episode_context_manager_closes_on_exit_even_on_error(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, timeout_s=10) as env:
            async with env.episode("sample/a") as ep:
                assert isinstance(ep, AsyncEpisode)
                await ep.write_file("solution.py", "right")
                await ep.submit()
                reward = await ep.reward()
            with pytest.raises(RuntimeError):
                async with env.episode("sample/a") as failing:
                    raise RuntimeError("policy crashed")
            awaited = await env.episode("sample/a")  # awaited, not entered: the caller closes it
            return ep, reward, failing, awaited
    ep, reward, failing, awaited = run(body())
    assert reward.reward == 1.0
    assert fake.episodes[ep.episode_id]["closed"] and fake.episodes[failing.episode_id]["closed"]
    assert not fake.episodes[awaited.episode_id]["closed"]


def test_group_of_four_runs_concurrently_scores_and_closes(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, timeout_s=10) as env:
            async with env.group("sample/a", 4) as group:
                assert isinstance(group, AsyncGroup) and len(group) == 4

                async def play(i: int, ep: AsyncEpisode) -> None:
                    if i < 2:
                        await ep.write_file("solution.py", "right")
                    await ep.submit()
                await asyncio.gather(*(play(i, ep) for i, ep in enumerate(group)))
                scores = await group.reward()
            return group, scores
    group, scores = run(body())
    assert [r.reward for r in scores.rewards] == [1.0, 1.0, 0.0, 0.0]
    assert scores.advantages == (0.5, 0.5, -0.5, -0.5) and scores.mask == (True,) * 4
    assert all(fake.episodes[ep.episode_id]["closed"] for ep in group)


def test_group_closes_when_the_body_fails(fake):
    async def body():
        async with AsyncEnvironmentClient(fake.address, timeout_s=10) as env:
            with pytest.raises(ValueError):
                async with env.group("sample/a", 2) as group:
                    raise ValueError("rollout failed")
            return group
    group = run(body())
    assert all(fake.episodes[ep.episode_id]["closed"] for ep in group)


def test_shut_down_client_refuses_calls(fake):
    async def body():
        env = AsyncEnvironmentClient(fake.address, timeout_s=10)
        await env.list_tasks()
        await env.shutdown()
        await env.shutdown()  # idempotent
        with pytest.raises(EpisodeError, match="shut down"):
            await env.list_tasks()
    run(body())


def test_unreachable_server_is_a_clear_unavailable_error():
    async def body():
        async with AsyncEnvironmentClient("127.0.0.1:1", timeout_s=2, retries=0) as env:
            with pytest.raises(CodeMidasError) as call:
                await env.list_tasks()
            with pytest.raises(CodeMidasError) as ready:
                await env.wait_ready(0.5)
            return call.value, ready.value
    call, ready = run(body())
    assert call.code == grpc.StatusCode.UNAVAILABLE
    assert ready.code == grpc.StatusCode.UNAVAILABLE and "no server answered" in ready.details
