"""The snapshot layout and its atomic files (pyarrow only: no Spark, no JVM)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from mqadmin import atomicfile
from mqadmin.pipeline import writer
from mqadmin.pipeline.layout import TABLES, file_name, partition_dir
from mqadmin.pipeline.schema import GROUP_OFFSETS_SCHEMA, QUEUE_OFFSETS_SCHEMA, SCHEMAS

T0 = datetime(2024, 5, 1, 23, 59, 30, 250000, tzinfo=UTC)


def queue_row(t: datetime, q: int = 0, offset: int = 10) -> dict[str, object]:
    return {
        "time": t, "run_time": t, "cluster": "C", "broker": "b", "topic": "T", "queue_id": q,
        "min_offset": 0, "max_offset": offset, "last_update_time": None,
    }  # fmt: skip


def files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_one_file_per_table_per_run_in_date_partitions(tmp_path: Path) -> None:
    t1 = T0 + timedelta(minutes=1)  # the next day
    writer.write_run(tmp_path, T0, {"queue_offsets": [queue_row(T0)]})
    writer.write_run(tmp_path, t1, {"queue_offsets": [queue_row(t1, offset=20)]})
    found = [p.relative_to(tmp_path).parts for p in files(tmp_path)]
    assert len(found) == 2 * len(TABLES)
    for table in TABLES:
        parts = sorted(p for p in found if p[0] == table)
        assert [p[1] for p in parts] == ["date=2024-05-01", "date=2024-05-02"]
        assert parts[0][2].startswith(f"{table}-20240501T235930.250Z-") and parts[0][2].endswith(".parquet")
    assert not any(name.startswith(".") for p in found for name in p)


def test_files_read_back_as_a_dataset_with_the_schema(tmp_path: Path) -> None:
    writer.write_run(tmp_path, T0, {"queue_offsets": [queue_row(T0, 0, 5), queue_row(T0, 1, 7)]})
    writer.write_run(tmp_path, T0 + timedelta(minutes=1), {"queue_offsets": [queue_row(T0, 0, 9)]})
    data = ds.dataset(tmp_path / "queue_offsets", format="parquet", partitioning="hive").to_table()
    assert data.num_rows == 3
    assert sorted(data.column("max_offset").to_pylist()) == [5, 7, 9]
    assert data.schema.field("time").type == pa.timestamp("ms", tz="UTC")
    single = pq.read_table(next((tmp_path / "queue_offsets").rglob("*.parquet")))
    assert single.schema.equals(QUEUE_OFFSETS_SCHEMA, check_metadata=False)
    assert single.schema.field("max_offset").metadata[b"doc"]


def test_empty_tables_are_written_with_their_schema(tmp_path: Path) -> None:
    out = writer.write_run(tmp_path, T0, {})
    assert set(out) == set(TABLES)
    for table, path in out.items():
        t = pq.read_table(path)
        assert t.num_rows == 0 and t.schema.equals(SCHEMAS[table], check_metadata=False)


def test_arrow_tables_are_cast_to_the_schema(tmp_path: Path) -> None:
    rows = [
        {"time": T0, "run_time": T0, "cluster": "C", "broker": "b", "group": "G", "topic": "T", "queue_id": 1,
         "broker_offset": 5, "consumer_offset": 3, "lag": 2, "last_consume_time": None}
    ]  # fmt: skip
    loose = pa.Table.from_pylist(rows)  # int64 queue id, microsecond times, columns in another order
    loose = loose.select(list(reversed(loose.column_names)))
    out = writer.write_run(tmp_path, T0, {"group_offsets": loose})
    t = pq.read_table(out["group_offsets"])
    assert t.schema.equals(GROUP_OFFSETS_SCHEMA, check_metadata=False)
    assert t.to_pylist()[0]["lag"] == 2


def test_unknown_table_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown snapshot table"):
        writer.write_run(tmp_path, T0, {"queue_offset": []})
    assert files(tmp_path) == []


def test_a_failed_write_leaves_no_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = pq.write_table
    seen: list[Path] = []

    def half_then_fail(table: pa.Table, where: object, **kw: object) -> None:
        real(table, where, **kw)  # bytes reach the temporary file...
        seen.extend(p for p in tmp_path.rglob(".*.tmp"))
        raise OSError("disk full")  # ...and then the write fails

    monkeypatch.setattr(writer.pq, "write_table", half_then_fail)
    with pytest.raises(OSError, match="disk full"):
        writer.write_run(tmp_path, T0, {"queue_offsets": [queue_row(T0)]})
    assert seen and all(p.name.startswith(".queue_offsets-") for p in seen)
    assert files(tmp_path) == []


def test_temporary_name_is_hidden_and_in_the_final_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renames: list[tuple[Path, Path]] = []
    real = atomicfile.os.replace

    def spy(src: Path, dst: Path) -> None:
        assert not Path(dst).exists()  # the final name only ever appears complete
        renames.append((Path(src), Path(dst)))
        real(src, dst)

    monkeypatch.setattr(atomicfile.os, "replace", spy)
    out = writer.write_run(tmp_path, T0, {"queue_offsets": [queue_row(T0)]})
    assert len(renames) == len(TABLES)
    for src, dst in renames:
        assert src.parent == dst.parent and src.name.startswith(".") and src.name.endswith(".tmp")
    assert out["queue_offsets"] == partition_dir(tmp_path, "queue_offsets", T0) / out["queue_offsets"].name


def test_file_names_sort_by_time() -> None:
    a = file_name("missing", T0, "aaaa")
    b = file_name("missing", T0 + timedelta(milliseconds=1), "0000")
    assert a < b
    naive = file_name("missing", T0.replace(tzinfo=None), "x")
    assert naive == file_name("missing", T0, "x")
