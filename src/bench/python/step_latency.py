"""Step(shell `true`) latency from the Python client (grpcio), for `codemidas bench`.

Usage: python3 step_latency.py <address> <task_id> <warmup> <steps> [settle_s]
Prints one JSON line: {"samplesMs": [...], "episodes": n}. Episodes are reset as the step budget
runs out, so any number of steps can be measured; after each Reset the script waits settle_s
(default 1.0) for the server's warm pool to finish replacing the sandbox it handed out.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "clients", "python"))
from codemidas_client import EnvironmentClient  # noqa: E402


def main():
    address, task_id, warmup, steps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    settle_s = float(sys.argv[5]) if len(sys.argv) > 5 else 1.0
    samples = []
    episodes = 0
    with EnvironmentClient(address, token=os.environ.get("CODEMIDAS_AUTH_TOKEN") or None) as env:
        remaining = warmup + steps
        while remaining > 0:
            with env.episode(task_id) as ep:
                episodes += 1
                time.sleep(settle_s)
                budget = max(1, ep.info.limits.max_steps - 1)
                for _ in range(min(budget, remaining)):
                    started = time.perf_counter()
                    ep.shell("true")
                    elapsed = (time.perf_counter() - started) * 1000.0
                    if remaining <= steps:
                        samples.append(elapsed)
                    remaining -= 1
    print(json.dumps({"samplesMs": samples, "episodes": episodes}))


if __name__ == "__main__":
    main()
