"""Plain result types returned by :class:`~codemidas_client.EnvironmentClient`.

They copy the wire messages into frozen dataclasses so callers never hold protobuf objects
(``raw`` keeps the message for anything not copied).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TaskInfo:
    task_id: str
    suite: str
    language: str
    title: str
    #: Pass rate of a reference policy; negative when unknown.
    difficulty: float
    reward_mode: str


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    #: JSON Schema of the tool's arguments, parsed (an empty dict when the server sent none).
    parameters: dict[str, Any]


@dataclass(frozen=True)
class EpisodeLimits:
    max_steps: int
    max_wall_ms: int
    max_command_ms: int
    max_output_bytes: int
    max_file_bytes: int


@dataclass(frozen=True)
class EpisodeInfo:
    """What Reset returns for one episode."""

    episode_id: str
    task_id: str
    prompt: str
    workdir: str
    tools: tuple[ToolSpec, ...]
    limits: EpisodeLimits
    raw: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class StepResult:
    """One observation plus Gymnasium's episode flags.

    ``output_truncated`` says the command's output was cut (head and tail kept); ``truncated`` says
    a step or time budget of the episode ran out (Gymnasium's meaning); ``terminated`` says the
    agent submitted.
    """

    step_index: int
    stdout: str
    stderr: str
    exit_code: int
    timed_out: bool
    output_truncated: bool
    duration_ms: int
    terminated: bool
    truncated: bool
    raw: Any = field(default=None, repr=False, compare=False)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    def text(self) -> str:
        """The observation as one text, as an LLM would read it: stdout, then stderr, then a note
        when the command failed, timed out or its output was cut."""
        parts = [self.stdout] if self.stdout else []
        if self.stderr:
            parts.append(f"[stderr]\n{self.stderr}")
        if self.timed_out:
            parts.append("[timed out]")
        elif self.exit_code != 0:
            parts.append(f"[exit code {self.exit_code}]")
        if self.output_truncated:
            parts.append("[output truncated]")
        return "\n".join(p.rstrip("\n") for p in parts) or "[no output]"


@dataclass(frozen=True)
class TestResult:
    name: str
    status: str
    message: str

    __test__ = False  # not a pytest test class


@dataclass(frozen=True)
class RewardResult:
    episode_id: str
    reward: float
    #: ``SCORED``, ``TIMEOUT`` or ``INFRA_ERROR``.
    outcome: str
    passed: int
    total: int
    tests: tuple[TestResult, ...]
    detail: str
    duration_ms: int
    raw: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class GroupReward:
    group_id: str
    rewards: tuple[RewardResult, ...]
    #: GRPO advantages, (reward - mean) / (std + eps) over the scored episodes; 0 where masked.
    advantages: tuple[float, ...]
    #: False where the episode did not score (infra error, timeout): left out of the statistics.
    mask: tuple[bool, ...]
    raw: Any = field(default=None, repr=False, compare=False)


def parse_parameters(text: str) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"_unparsed": text}
    return value if isinstance(value, dict) else {"_value": value}
