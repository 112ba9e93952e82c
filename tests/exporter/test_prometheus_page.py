"""Our page writer against ``prometheus_client``'s own: the same bytes, whatever the label values hold.

The exporter writes its pages itself (:func:`mqadmin.exporter.server.gauge_page`) because the
library's per-sample checks took most of a large scrape's rendering time; a scraper must not see one
byte of difference, in the text format or in OpenMetrics.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import generate_latest
from prometheus_client.openmetrics.exposition import generate_latest as generate_openmetrics

from mqadmin.exporter.collect import Scrape
from mqadmin.exporter.server import _OWN_PAGES, _given, gauge_page, registry_of, render

# label values as a hostile cluster could name things: quotes, backslashes, newlines, any unicode
_values = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=12)
_floats = st.floats(allow_nan=True, allow_infinity=True)
_names = st.from_regex(r"rocketmq_[a-z_]{1,12}", fullmatch=True)
_labels = st.lists(st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_]{0,8}", fullmatch=True), max_size=4, unique=True)


@st.composite
def _family(draw: st.DrawFn) -> GaugeMetricFamily:
    labels = draw(_labels)
    family = GaugeMetricFamily(draw(_names), draw(_values), labels=labels)
    for _ in range(draw(st.integers(0, 5))):
        family.add_metric([draw(_values) for _ in labels], draw(_floats))
    return family


def _library(families: list[object], openmetrics: bool) -> bytes:
    registry = _given(families)
    return generate_openmetrics(registry) if openmetrics else generate_latest(registry)


@settings(max_examples=300, deadline=None)
@given(st.lists(_family(), max_size=4), st.booleans())
def test_the_same_bytes_as_the_library(families: list[object], openmetrics: bool) -> None:
    assert gauge_page(families, openmetrics=openmetrics) == _library(families, openmetrics)


def test_a_family_of_another_kind_is_left_to_the_library() -> None:
    counter = CounterMetricFamily("rocketmq_sent", "sent", labels=["a"])
    counter.add_metric(["x"], 3.0)
    gauge = GaugeMetricFamily("rocketmq_up", 'a "doc"\\', labels=["b"])
    gauge.add_metric(['q"\n\\'], math.inf)
    for openmetrics in (False, True):
        page = gauge_page([gauge, counter], openmetrics=openmetrics)
        assert page == _library([gauge, counter], openmetrics)
        assert b"rocketmq_sent_total" in page  # the library's counter spelling, not ours


_ACCEPTS = (
    None,  # curl
    "text/plain;version=0.0.4",
    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
    "text/plain;version=0.0.4;q=0.5,*/*;q=0.1",  # Prometheus 2.42's scrape
    "application/openmetrics-text",
    "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8",
    "text/plain;version=1.0.0;escaping=underscores",
)


def test_every_scrapers_accept_gets_our_page_and_the_librarys_bytes() -> None:
    from prometheus_client.exposition import choose_encoder

    sample = Scrape(namesrv_up=False, seconds=0.01)
    for accept in _ACCEPTS:
        encoder, content_type = choose_encoder(accept or "")
        assert content_type in _OWN_PAGES, accept
        headers, body = render(sample, accept, None, {})
        assert headers == [("Content-Type", content_type)]
        assert body == encoder(registry_of(sample)), accept
        assert b"rocketmq_namesrv_up 0.0\n" in body
