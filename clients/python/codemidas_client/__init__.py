"""Python client of the CodeMidas environment server (``codemidas.v1.Environment``).

Needs only the standard library, grpcio and protobuf. The gRPC stubs are generated from the
repository's proto by ``clients/python/generate.sh``, which runs on first import when they are
missing.
"""

from ._stubs import pb2, pb2_grpc
from .client import ACTION_KINDS, EnvironmentClient, Episode, Group, make_action
from .errors import CodeMidasError, EpisodeError
from .results import (EpisodeInfo, EpisodeLimits, GroupReward, RewardResult, StepResult, TaskInfo,
                    TestResult, ToolSpec)

__all__ = [
    "ACTION_KINDS", "CodeMidasError", "EnvironmentClient", "Episode", "EpisodeError", "EpisodeInfo",
    "EpisodeLimits", "Group", "GroupReward", "RewardResult", "StepResult", "TaskInfo", "TestResult",
    "ToolSpec", "make_action", "pb2", "pb2_grpc",
]
