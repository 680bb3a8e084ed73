"""Puts clients/python on sys.path so the tests import the package from the source tree, and
provides ``fake``: a small in-process fake of the Environment service (no Docker, no Node).

The fake keeps the wire contract's rules that the client depends on: step indexes must follow
0, 1, 2, ... (a gap is FAILED_PRECONDITION, a repeat returns the cached answer), unknown episodes are
NOT_FOUND, Close is idempotent. The reward is 1.0 when ``solution.py`` holds ``right``.
"""

import sys
from concurrent import futures
from pathlib import Path

import grpc
import pytest

_CLIENT_ROOT = Path(__file__).resolve().parent.parent
if str(_CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(_CLIENT_ROOT))

from codemidas_client import pb2, pb2_grpc  # noqa: E402


class FakeEnvironment(pb2_grpc.EnvironmentServicer):
    def __init__(self) -> None:
        self.episodes: dict[str, dict] = {}
        self.groups: dict[str, list[str]] = {}
        self.metadata: list[dict[str, str]] = []
        self.step_requests: list[tuple[str, int]] = []
        self.fail_next_step_unavailable = 0
        self.fail_next_reset_unavailable = 0
        self.reset_requests = 0
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
        self.reset_requests += 1
        if self.fail_next_reset_unavailable:
            self.fail_next_reset_unavailable -= 1
            context.abort(grpc.StatusCode.UNAVAILABLE, "connection reset")
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
            self._maybe_lose_the_answer(context)
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
        self._maybe_lose_the_answer(context)
        return response

    def _maybe_lose_the_answer(self, context) -> None:
        if self.fail_next_step_unavailable:
            # The server did the work but the answer is "lost": the client must resend the same index.
            self.fail_next_step_unavailable -= 1
            context.abort(grpc.StatusCode.UNAVAILABLE, "connection reset")

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
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    pb2_grpc.add_EnvironmentServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    servicer.address = f"127.0.0.1:{port}"
    try:
        yield servicer
    finally:
        server.stop(grace=None)
