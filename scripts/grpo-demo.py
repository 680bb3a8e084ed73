#!/usr/bin/python3
"""GRPO demo: for every task of a suite, one group of 8 episodes, half oracle, half null.

Episodes 0..G/2-1 are "oracle" (write each reference file of the task, then submit); the others are
"null" (submit at once). The group is scored with RewardGroup and a table per task shows each
episode's reward, tests passed and GRPO advantage. Exits non-zero if any oracle reward is not 1.0,
any null reward not 0.0, or the oracle and null advantages are not equal in size and opposite in
sign.

Run it against a running server (scripts/demo.sh does the set-up and starts one):

    /usr/bin/python3 scripts/grpo-demo.py --address 127.0.0.1:50051 [--suite sample]

Needs Debian's python3-grpcio and python3-protobuf (hence /usr/bin/python3).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "clients" / "python"))

from codemidas_client import CodeMidasError, EnvironmentClient, Episode  # noqa: E402

ADVANTAGE_TOLERANCE = 1e-6


def say(text: str = "") -> None:
    print(text, flush=True)


def solution_files(environments: Path, task_id: str) -> dict[str, str]:
    suite, name = task_id.split("/", 1)
    root = environments / suite / name / "solution"
    if not root.is_dir():
        raise SystemExit(f"{task_id}: no reference solution at {root}")
    files = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
             for p in sorted(root.rglob("*")) if p.is_file()}
    if not files:
        raise SystemExit(f"{task_id}: {root} holds no files")
    return files


def suite_task_ids(environments: Path, suite: str) -> list[str] | None:
    """The task ids suite.json lists, or None when the folder is not at hand."""
    index = environments / suite / "suite.json"
    if not index.is_file():
        return None
    names = json.loads(index.read_text(encoding="utf-8")).get("tasks", [])
    return [f"{suite}/{name}" for name in names]


def run_oracle(ep: Episode, files: dict[str, str]) -> None:
    for path, content in files.items():
        result = ep.write_file(path, content)
        if result.exit_code != 0:
            raise RuntimeError(f"{ep.episode_id}: write_file {path} failed: {result.stderr.strip()}")
    if not ep.submit().terminated:
        raise RuntimeError(f"{ep.episode_id}: Submit did not terminate the episode")


def run_null(ep: Episode) -> None:
    if not ep.submit().terminated:
        raise RuntimeError(f"{ep.episode_id}: Submit did not terminate the episode")


def check_group(policies: list[str], rewards: list[float], advantages: list[float],
                mask: list[bool]) -> list[str]:
    """Everything wrong with one group's scores, as sentences (empty: all good)."""
    problems = []
    for i, (policy, reward) in enumerate(zip(policies, rewards)):
        want = 1.0 if policy == "oracle" else 0.0
        if reward != want:
            problems.append(f"episode {i} ({policy}) scored {reward:g}, expected {want:g}")
    if not all(mask):
        problems.append(f"episodes left out of the group statistics (mask): "
                        f"{[i for i, m in enumerate(mask) if not m]}")
    oracle = [a for p, a in zip(policies, advantages) if p == "oracle"]
    null = [a for p, a in zip(policies, advantages) if p == "null"]
    if oracle and null:
        top = oracle[0]
        same = all(math.isclose(a, top, abs_tol=ADVANTAGE_TOLERANCE) for a in oracle)
        mirrored = all(math.isclose(a, -top, abs_tol=ADVANTAGE_TOLERANCE) for a in null)
        if not (same and mirrored and top > 0):
            problems.append(f"advantages are not ±equal: oracle {oracle}, null {null}")
    return problems


def run_task(client: EnvironmentClient, environments: Path, task_id: str, group_size: int,
             number: str) -> tuple[list[str], float]:
    files = solution_files(environments, task_id)
    half = group_size // 2
    policies = ["oracle"] * half + ["null"] * (group_size - half)

    t0 = time.monotonic()
    with client.group(task_id, group_size) as group:
        t_reset = time.monotonic() - t0
        say(f"{number} {task_id}: {len(group)} episodes up in {t_reset:.1f} s; "
            f"{half} oracle (write {len(files)} file(s), submit), {group_size - half} null (submit) ...")
        t1 = time.monotonic()
        # Episodes of a group are independent: drive them at once, as a trainer's rollout workers would.
        with ThreadPoolExecutor(max_workers=group_size) as pool:
            jobs = [pool.submit(run_oracle, ep, files) if policy == "oracle" else pool.submit(run_null, ep)
                    for ep, policy in zip(group, policies)]
            for job in jobs:
                job.result()
        t_act = time.monotonic() - t1
        say(f"{number} {task_id}: actions done in {t_act:.2f} s; scoring the group ...")
        t2 = time.monotonic()
        scores = group.reward()
        t_score = time.monotonic() - t2

    rewards = [r.reward for r in scores.rewards]
    advantages = list(scores.advantages)
    mask = list(scores.mask)
    if len(rewards) != group_size or len(advantages) != group_size:
        return [f"RewardGroup answered {len(rewards)} rewards and {len(advantages)} advantages "
                f"for {group_size} episodes"], time.monotonic() - t0

    say(f"{number} {task_id}: scored in {t_score:.1f} s")
    say(f"    {'episode':>7}  {'policy':<6}  {'reward':>6}  {'passed/total':>12}  {'advantage':>9}  outcome")
    for i, (policy, r, a) in enumerate(zip(policies, scores.rewards, advantages)):
        say(f"    {i:>7}  {policy:<6}  {r.reward:>6.3f}  {f'{r.passed}/{r.total}':>12}  {a:>+9.4f}  {r.outcome}"
            + (f"  ({r.detail})" if r.outcome != "SCORED" and r.detail else ""))
    problems = check_group(policies, rewards, advantages, mask)
    for problem in problems:
        say(f"    FAIL: {problem}")
    say()
    return problems, time.monotonic() - t0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default=os.environ.get("CODEMIDAS_ADDRESS", ""),
                        help="host:port of a running `codemidas serve` (env CODEMIDAS_ADDRESS)")
    parser.add_argument("--token", default=os.environ.get("CODEMIDAS_TOKEN") or None)
    parser.add_argument("--suite", default="sample")
    parser.add_argument("--environments", default=str(REPO_ROOT / "environments"),
                        help="the suites folder the server serves (for the reference solutions)")
    parser.add_argument("--group-size", type=int, default=8)
    args = parser.parse_args(argv)
    if not args.address:
        parser.error("--address is required (or set CODEMIDAS_ADDRESS)")
    if args.group_size < 2 or args.group_size % 2:
        parser.error("--group-size must be an even number ≥ 2 (half oracle, half null)")
    environments = Path(args.environments).resolve()

    started = time.monotonic()
    with EnvironmentClient(args.address, token=args.token) as client:
        client.wait_ready(30)
        served = [t.task_id for t in client.list_tasks(suite=args.suite)]
        listed = suite_task_ids(environments, args.suite)
        missing = [t for t in (listed or []) if t not in served]
        if not served:
            say(f"the server at {args.address} serves no task in suite '{args.suite}'")
            return 1
        say(f"GRPO demo: suite '{args.suite}', {len(served)} task(s), groups of {args.group_size} "
            f"({args.group_size // 2} oracle + {args.group_size - args.group_size // 2} null), "
            f"server {args.address}")
        say()

        failures: dict[str, list[str]] = {}
        if missing:
            failures["(suite)"] = [f"suite.json lists task(s) the server does not serve: {missing}"]
            say(f"FAIL: {failures['(suite)'][0]}")
        for n, task_id in enumerate(served, 1):
            number = f"[{n}/{len(served)}]"
            try:
                problems, _ = run_task(client, environments, task_id, args.group_size, number)
            except (CodeMidasError, RuntimeError) as err:
                problems = [str(err)]
                say(f"{number} {task_id}: FAIL: {err}")
                say()
            if problems:
                failures[task_id] = problems

    elapsed = time.monotonic() - started
    episodes = len(served) * args.group_size
    if failures:
        say(f"GRPO demo: FAIL: {len(failures)} of {len(served)} task(s) wrong "
            f"({', '.join(failures)}); {episodes} episodes in {elapsed:.1f} s")
        return 1
    say(f"GRPO demo: PASS: {len(served)} tasks, {episodes} episodes: every oracle scored 1.0, "
        f"every null 0.0, advantages equal and opposite, in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
