"""Python client of the CodeMidas environment server (``codemidas.v1.Environment``).

Needs only the standard library, grpcio and protobuf. The gRPC stubs are generated from the
repository's proto by ``clients/python/generate.sh``, which runs on first import when they are
missing. :class:`AsyncEnvironmentClient` (``grpc.aio``) does the talking;
:class:`EnvironmentClient` is its synchronous facade.
"""

from ._stubs import pb2, pb2_grpc
from ._wire import ACTION_KINDS, make_action
from .aio import AsyncEnvironmentClient, AsyncEpisode, AsyncGroup
from .client import EnvironmentClient, Episode, Group
from .errors import CodeMidasError, EpisodeError
from .results import (EpisodeInfo, EpisodeLimits, GroupReward, RewardResult, StepResult, TaskInfo,
                      TestResult, ToolSpec)

__all__ = [
    "ACTION_KINDS", "AsyncEnvironmentClient", "AsyncEpisode", "AsyncGroup", "CodeMidasError",
    "EnvironmentClient", "Episode", "EpisodeError", "EpisodeInfo", "EpisodeLimits", "Group",
    "GroupReward", "RewardResult", "StepResult", "TaskInfo", "TestResult", "ToolSpec", "make_action",
    "pb2", "pb2_grpc",
]
