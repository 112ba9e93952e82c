"""Store settings, named after the Java ``MessageStoreConfig`` members they stand for."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Java's ``messageDelayLevel`` default: delay levels 1..18.
DEFAULT_DELAY_LEVELS = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h"

_UNIT_MS = {"s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def parse_delay_levels(text: str) -> list[int]:
    """Delay of each level in ms (index 0 is level 1), parsed like ``parseDelayLevel``."""
    levels: list[int] = []
    for item in text.split():
        unit = item[-1]
        if unit not in _UNIT_MS or not item[:-1].isdigit():
            raise ValueError(f"bad delay level {item!r} in {text!r}")
        levels.append(int(item[:-1]) * _UNIT_MS[unit])
    return levels


@dataclass
class StoreConfig:
    """Where the store lives and how big its files are.

    ``commitlog_file_size`` defaults to 64 MiB, not Java's 1 GiB: a development broker should not
    reserve a gigabyte (the files are sparse, but tools that report sizes would show it). Clients
    only see that commit-log offsets jump to a file boundary earlier. The index defaults to the
    100,000 slots / 400,000 entries the recorded Java broker used (8.4 MB per index file) rather
    than Java's 420 MB.
    """

    root: Path
    commitlog_file_size: int = 64 * 1024**2  # mappedFileSizeCommitLog
    cq_entries_per_file: int = 300_000  # mappedFileSizeConsumeQueue / 20
    file_reserved_hours: float = 72.0  # fileReservedTime
    flush_sync: bool = False  # flushDiskType == SYNC_FLUSH
    max_message_size: int = 4 * 1024**2  # maxMessageSize
    # --- additions ---------------------------------------------------------------------------------
    index_hash_slot_num: int = 100_000  # maxHashSlotNum
    index_num: int = 400_000  # maxIndexNum
    message_index_enable: bool = True  # messageIndexEnable
    max_msgs_num_batch: int = 64  # maxMsgsNumBatch (query by key)
    check_crc_on_recover: bool = True  # checkCRCOnRecover
    message_delay_level: str = DEFAULT_DELAY_LEVELS  # messageDelayLevel
    max_transfer_bytes_in_disk: int = 64 * 1024  # maxTransferBytesOnMessageInDisk
    max_transfer_count_in_disk: int = 8  # maxTransferCountOnMessageInDisk
    max_transfer_count_in_memory: int = 32  # maxTransferCountOnMessageInMemory
    access_message_in_memory_max_ratio: int = 40  # accessMessageInMemoryMaxRatio (% of RAM)
    delete_files_batch_max: int = 10  # DELETE_FILES_BATCH_MAX of MappedFileQueue

    def __post_init__(self) -> None:
        self.root = Path(self.root)
        if self.commitlog_file_size < 4096:
            raise ValueError("commitlog_file_size must be at least 4096 bytes")
        if self.cq_entries_per_file < 1:
            raise ValueError("cq_entries_per_file must be positive")
        if self.index_hash_slot_num < 1 or self.index_num < 2:
            raise ValueError("the index needs at least one slot and two entries")
        self.delay_levels_ms = parse_delay_levels(self.message_delay_level)

    @property
    def cq_file_size(self) -> int:
        """Bytes per consume-queue file (a multiple of the 20-byte entry, as Java rounds it)."""
        return self.cq_entries_per_file * 20

    @property
    def commitlog_dir(self) -> Path:
        return self.root / "commitlog"

    @property
    def consumequeue_dir(self) -> Path:
        return self.root / "consumequeue"

    @property
    def index_dir(self) -> Path:
        return self.root / "index"

    @property
    def file_reserved_ms(self) -> int:
        return int(self.file_reserved_hours * 3_600_000)
