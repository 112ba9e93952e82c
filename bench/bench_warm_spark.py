"""``mqadmin analyze`` turnaround on small input: the warm Spark server against a JVM per command.

Writes the tests' synthetic snapshot history (six snapshot days of a few groups and topics), then
times, each as a user runs it (a new process, wall clock):

- ``python -c pass`` (the floor of any command);
- the first ``mqadmin analyze lag`` with an empty cache directory (it starts the warm server);
- later ``mqadmin analyze lag`` calls (they reuse it), alternating with
- ``mqadmin analyze lag --master 'local[*]'`` (the baseline: a JVM of the command's own each time).

Prints ``name value`` lines (seconds, medians over the rounds, and the baseline/warm ratio: above 1
the warm server is faster), then stops the server.

    PYTHONPATH=. python bench/bench_warm_spark.py [--rounds 3]

Numbers on a shared machine are noisy: the alternation makes a busy machine slow both alike.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

from mqadmin.pipeline import warm
from tests.pipeline import synth

MQADMIN = str(Path(sys.executable).with_name("mqadmin"))


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    took = time.perf_counter() - started
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {p.returncode}: {p.stderr.strip()}")
    return took


@click.command()
@click.option("--rounds", type=click.IntRange(1, 20), default=3, show_default=True)
def main(rounds: int) -> None:
    """Print the timings described above."""
    with tempfile.TemporaryDirectory(prefix="bench-warm-") as work:
        root = Path(work)
        history = root / "snapshots"
        synth.write_history(history)
        env = {**os.environ, "XDG_CACHE_HOME": str(root / "cache"), warm.IDLE_ENV: "600"}
        lag = [MQADMIN, "analyze", "lag", "--input", str(history), "--format", "json"]
        try:
            floor = statistics.median(timed([sys.executable, "-c", "pass"], env) for _ in range(5))
            first = timed(lag, env)
            warm_runs: list[float] = []
            local_runs: list[float] = []
            for _ in range(rounds):
                warm_runs.append(timed(lag, env))
                local_runs.append(timed([*lag, "--master", "local[*]"], env))
        finally:
            warm.stop(root / "cache" / "mqadmin")
    second = statistics.median(warm_runs)
    local = statistics.median(local_runs)
    print(f"python_c_pass_s {floor:.3f}")
    print(f"warm_first_call_s {first:.2f}")
    print(f"warm_later_call_s {second:.2f}")
    print(f"local_jvm_call_s {local:.2f}")
    print(f"local_over_warm {local / second:.2f}")


if __name__ == "__main__":
    main()
