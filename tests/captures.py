"""Access to the recorded RocketMQ traffic in ../shared/captures (the ground truth).

Tests fail, never skip, when the captures are missing: an empty pass would prove nothing.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CAPTURES = Path(__file__).resolve().parents[1].parent / "shared" / "captures"


@dataclass(frozen=True)
class Frame:
    """One recorded remoting frame and where it came from."""

    scenario: str  # e.g. "rocketmq-4.9.8/s04_topicRoute"
    index: int
    stream: int
    server_port: int
    wire: str  # "c2s" | "s2c"
    dir: str  # "request" | "response"
    serialize: str  # "JSON" | "ROCKETMQ"
    header: dict
    header_raw: str
    body: bytes
    frame: bytes


def captures_dir() -> Path:
    if not CAPTURES.is_dir():
        raise FileNotFoundError(
            f"captures folder missing: {CAPTURES} (../shared must sit beside the checkout)"
        )
    return CAPTURES


def scenarios() -> list[Path]:
    """Every recorded scenario, as the path without extension."""
    return sorted(p.with_suffix("") for p in captures_dir().glob("*/*.jsonl"))


@cache
def load_scenario(name: str) -> tuple[Frame, ...]:
    """Frames of one scenario, e.g. ``load_scenario("rocketmq-4.9.8/s04_topicRoute")``."""
    path = captures_dir() / f"{name}.jsonl"
    frames = []
    for i, line in enumerate(path.read_text().splitlines()):
        if not line.strip():
            continue
        d = json.loads(line)
        frames.append(
            Frame(
                scenario=name,
                index=i,
                stream=d["stream"],
                server_port=d["server_port"],
                wire=d["wire"],
                dir=d["dir"],
                serialize=d["serialize"],
                header=d["header"],
                header_raw=d.get("header_raw", ""),
                body=base64.b64decode(d.get("body_b64") or ""),
                frame=bytes.fromhex(d["frame_hex"]),
            )
        )
    return tuple(frames)


def all_frames() -> Iterator[Frame]:
    for p in scenarios():
        yield from load_scenario(f"{p.parent.name}/{p.name}")


def pairs(name: str) -> list[tuple[Frame, Frame | None]]:
    """Requests of a scenario paired with their responses (by stream, port and opaque)."""
    frames = load_scenario(name)
    out: list[tuple[Frame, Frame | None]] = []
    for i, f in enumerate(frames):
        if f.dir != "request":
            continue
        resp = next(
            (
                g
                for g in frames[i + 1 :]
                if g.dir == "response"
                and g.stream == f.stream
                and g.server_port == f.server_port
                and g.header.get("opaque") == f.header.get("opaque")
            ),
            None,
        )
        out.append((f, resp))
    return out
