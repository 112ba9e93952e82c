"""What the store answers: put, get and query outcomes with the Java status names."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class StoreError(Exception):
    """The store cannot start or has been used out of order (lock held, wrong file sizes, closed)."""


class PutStatus(Enum):
    """``PutMessageStatus`` of 4.9.8."""

    PUT_OK = "PUT_OK"
    FLUSH_DISK_TIMEOUT = "FLUSH_DISK_TIMEOUT"
    FLUSH_SLAVE_TIMEOUT = "FLUSH_SLAVE_TIMEOUT"
    SLAVE_NOT_AVAILABLE = "SLAVE_NOT_AVAILABLE"
    SERVICE_NOT_AVAILABLE = "SERVICE_NOT_AVAILABLE"
    CREATE_MAPEDFILE_FAILED = "CREATE_MAPEDFILE_FAILED"
    MESSAGE_ILLEGAL = "MESSAGE_ILLEGAL"
    PROPERTIES_SIZE_EXCEEDED = "PROPERTIES_SIZE_EXCEEDED"
    OS_PAGECACHE_BUSY = "OS_PAGECACHE_BUSY"
    UNKNOWN_ERROR = "UNKNOWN_ERROR"
    LMQ_CONSUME_QUEUE_NUM_EXCEEDED = "LMQ_CONSUME_QUEUE_NUM_EXCEEDED"


@dataclass
class PutResult:
    """Outcome of a put; for a batch ``msg_id`` joins every record's id with commas (as Java)."""

    status: PutStatus
    msg_id: str = ""
    commit_log_offset: int = 0
    queue_offset: int = 0
    store_timestamp: int = 0
    wrote_bytes: int = 0
    msg_num: int = 1

    @property
    def ok(self) -> bool:
        return self.status is PutStatus.PUT_OK


class GetStatus(Enum):
    """``GetMessageStatus``; the broker maps each to a PULL response code."""

    FOUND = "FOUND"
    NO_MATCHED_MESSAGE = "NO_MATCHED_MESSAGE"
    MESSAGE_WAS_REMOVING = "MESSAGE_WAS_REMOVING"
    OFFSET_FOUND_NULL = "OFFSET_FOUND_NULL"
    OFFSET_OVERFLOW_BADLY = "OFFSET_OVERFLOW_BADLY"
    OFFSET_OVERFLOW_ONE = "OFFSET_OVERFLOW_ONE"
    OFFSET_TOO_SMALL = "OFFSET_TOO_SMALL"
    NO_MATCHED_LOGIC_QUEUE = "NO_MATCHED_LOGIC_QUEUE"
    NO_MESSAGE_IN_QUEUE = "NO_MESSAGE_IN_QUEUE"


@dataclass
class GetResult:
    """One pull's worth of raw records; ``b"".join(messages)`` is the PULL response body."""

    status: GetStatus
    messages: list[bytes] = field(default_factory=list)
    next_begin_offset: int = 0
    min_offset: int = 0
    max_offset: int = 0
    suggest_pull_from_slave: bool = False
    cold_data_sum: int = 0
    """Bytes of the records read from beyond the in-memory window (Java's ``coldDataSum``, which counts
    records not in the page cache): what cold data flow control adds to the group's account."""

    @property
    def body_size(self) -> int:
        return sum(len(m) for m in self.messages)


@dataclass
class QueryResult:
    """Records found by key, oldest first, and the newest index file's end point (for the header)."""

    messages: list[bytes] = field(default_factory=list)
    index_last_update_timestamp: int = 0
    index_last_update_phyoffset: int = 0
