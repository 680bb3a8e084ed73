"""The wire contract in one place: actions, retry policy, channel options, and the conversion of
``codemidas.v1`` responses into the plain result types of :mod:`~codemidas_client.results`.

:mod:`~codemidas_client.aio` is the only module that talks to the server; the synchronous client
runs it, so nothing here is duplicated between the two.
"""

from __future__ import annotations

from typing import Any, Mapping

import grpc

from ._stubs import pb2
from .errors import EpisodeError
from .results import (EpisodeInfo, EpisodeLimits, GroupReward, RewardResult, StepResult, TaskInfo,
                      TestResult, ToolSpec, parse_parameters)

#: Action kinds of the wire contract's ``Action`` oneof, with their message types.
ACTION_KINDS: dict[str, str] = {
    "shell": "ShellAction",
    "read_file": "ReadFileAction",
    "write_file": "WriteFileAction",
    "edit": "EditAction",
    "submit": "SubmitAction",
}

_OUTCOMES = {1: "SCORED", 2: "TIMEOUT", 3: "INFRA_ERROR"}
# Only a transport failure is retried: the server never saw the call or its answer was lost.
RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE})
_MAX_MESSAGE_BYTES = 64 * 1024 * 1024
CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.max_receive_message_length", _MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", _MAX_MESSAGE_BYTES),
)


def retry_delay_s(attempt: int) -> float:
    """Back-off before retry number ``attempt + 1``: 0.2 s, 0.4 s, 0.8 s, ..."""
    return 0.2 * 2 ** attempt


def bearer_metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


def make_action(action: Any) -> Any:
    """Builds a wire ``Action`` from one already built or from ``{"kind": {fields}}``.

    ``{"shell": {"command": "ls"}}``, ``{"write_file": {"path": "a.py", "content": "..."}}``,
    ``{"submit": {}}``.
    """
    if isinstance(action, pb2.Action):
        return action
    if isinstance(action, Mapping) and len(action) == 1:
        ((kind, fields),) = action.items()
        if kind in ACTION_KINDS:
            message = getattr(pb2, ACTION_KINDS[kind])(**dict(fields or {}))
            return pb2.Action(**{kind: message})
    raise EpisodeError(
        f"not an action: {action!r}; pass a codemidas.v1.Action or a one-key dict "
        f"{{kind: fields}} with kind one of {sorted(ACTION_KINDS)}")


def task_info(t: Any) -> TaskInfo:
    return TaskInfo(task_id=t.task_id, suite=t.suite, language=t.language, title=t.title,
                    difficulty=t.difficulty, reward_mode=t.reward_mode)


def episode_info(r: Any) -> EpisodeInfo:
    limits = r.limits
    return EpisodeInfo(
        episode_id=r.episode_id,
        task_id=r.task_id,
        prompt=r.prompt,
        workdir=r.workdir,
        tools=tuple(ToolSpec(t.name, t.description, parse_parameters(t.parameters_json)) for t in r.tools),
        limits=EpisodeLimits(limits.max_steps, limits.max_wall_ms, limits.max_command_ms,
                             limits.max_output_bytes, limits.max_file_bytes),
        raw=r,
    )


def step_result(r: Any) -> StepResult:
    o = r.observation
    return StepResult(step_index=r.step_index, stdout=o.stdout, stderr=o.stderr, exit_code=o.exit_code,
                      timed_out=o.timed_out, output_truncated=o.truncated, duration_ms=o.duration_ms,
                      terminated=r.terminated, truncated=r.truncated, raw=r)


def reward_result(r: Any) -> RewardResult:
    return RewardResult(
        episode_id=r.episode_id,
        reward=r.reward,
        outcome=_OUTCOMES.get(r.outcome, "REWARD_OUTCOME_UNSPECIFIED"),
        passed=r.passed,
        total=r.total,
        tests=tuple(TestResult(t.name, t.status, t.message) for t in r.tests),
        detail=r.detail,
        duration_ms=r.duration_ms,
        raw=r,
    )


def group_reward(r: Any) -> GroupReward:
    return GroupReward(
        group_id=r.group_id,
        rewards=tuple(reward_result(x) for x in r.rewards),
        advantages=tuple(r.advantages),
        mask=tuple(r.mask),
        raw=r,
    )
