"""Entry for ``spark-submit`` and ``python -m mqadmin.pipeline.jobs``: the ``analyze`` commands.

``spark-submit --master spark://host:7077 $(python -c 'import mqadmin.pipeline.jobs.__main__ as m;
print(m.__file__)') lag --input s3a://bucket/snapshots --since 1d --format parquet --out s3a://bucket/lag``

Under ``spark-submit`` the master comes from ``spark-submit`` (``--master`` here is then not needed).
"""

from __future__ import annotations

from mqadmin.pipeline.cli import analyze_group


def main() -> None:
    analyze_group.main(prog_name="mqadmin-analyze")


if __name__ == "__main__":
    main()
