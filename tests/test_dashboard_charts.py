"""The dashboard's charts are drawn from Vega-Lite specs made once per set of inputs (dashboard/charts.py, issue 36):
Altair's checks and copies of a spec took 0.4 of the leaderboard's 0.5 CPU seconds a visit, under the interpreter
lock every other visitor waits for. A chart drawn so is the one st.altair_chart draws, and its builder runs once for
the same inputs. That no page calls st.altair_chart (whose conversion changes Altair's process-wide settings
under a lock of Streamlit's own, not charts.py's) is test_dashboard_load.py's scan."""

from __future__ import annotations

import json

import pyarrow as pa
import streamlit as st
from streamlit.testing.v1 import AppTest


def two_ways() -> None:
    """A page that draws one chart (layers, a facet, a selection, missing values, Unicode) twice: by
    st.altair_chart, and by charts.draw; and a second builder given the same inputs."""
    import altair as alt
    import polars as pl
    import streamlit as st
    from accuracy_db.dashboard import charts

    def dots(frame: pl.DataFrame, title: str) -> alt.FacetChart:
        st.session_state["built"] = st.session_state.get("built", 0) + 1
        base = alt.Chart(frame).encode(
            y=alt.Y("name:N", sort=frame["name"].to_list()), tooltip=["name", alt.Tooltip("value:Q", format=".3f")]
        )
        click = alt.selection_point(name="picked", fields=["name"])
        layers = base.mark_circle().encode(x="value:Q").add_params(click) + base.mark_rule().encode(
            x="low:Q", x2="high:Q"
        )
        return layers.properties(title=title, width=200).facet(column=alt.Column("group:N", title=None))

    def bars(frame: pl.DataFrame, title: str) -> alt.Chart:
        return alt.Chart(frame).mark_bar().encode(x="value:Q", y="name:N").properties(title=title)

    frame = pl.DataFrame(
        {
            "name": ["année", "b", "c\t", "d"],
            "group": ["x", "x", "y", "y"],
            "value": [0.5, None, 0.0, 1.0],
            "low": [0.25, None, 0.0, 0.75],
            "high": [0.75, None, 0.1, 1.0],
        }
    )
    title = st.session_state.get("title", "τ")
    with st.container(key="by_streamlit"):
        st.altair_chart(dots(frame, title), on_select="rerun", key="streamlit_dots")
    st.session_state["built"] -= 1  # st.altair_chart's build is not counted
    with st.container(key="by_charts"):
        charts.draw(None, dots, frame, title, on_select="rerun", key="cached_dots")
    with st.container(key="other_builder"):
        charts.draw(None, bars, frame, title)
    with st.container(key="many_rows"):  # past Altair's own limit of 5,000 rows, which st.altair_chart lifts
        charts.draw(None, bars, pl.DataFrame({"name": [str(i) for i in range(5001)], "value": range(5001)}), "")


def drawn(at: AppTest, key: str) -> tuple[dict, list[list[dict]]]:
    """The chart in the container of this key: its spec with its datasets' names numbered in the order they occur,
    and the rows of each dataset."""
    [element] = at.get_by_key(key).get("vega_lite_chart")
    text = element.proto.spec
    rows = []
    for number, dataset in enumerate(element.proto.datasets):
        text = text.replace(json.dumps(dataset.name), json.dumps(f"dataset {number}"))
        rows.append(pa.ipc.open_stream(dataset.data.data).read_all().to_pylist())
    return json.loads(text), rows


def test_a_chart_drawn_from_its_spec_is_the_chart_st_altair_chart_draws():
    at = AppTest.from_function(two_ways, default_timeout=60).run()
    assert not at.exception
    ours, our_rows = drawn(at, "by_charts")
    theirs, their_rows = drawn(at, "by_streamlit")
    assert ours == theirs
    assert our_rows == their_rows
    assert [row["name"] for row in our_rows[0]] == ["année", "b", "c\t", "d"] and our_rows[0][1]["value"] is None
    assert ours["params"][0]["name"] == "picked"  # the selection the page reruns on
    _, [many] = drawn(at, "many_rows")
    assert len(many) == 5001


def test_the_builder_runs_once_for_the_same_inputs():
    st.cache_data.clear()  # the specs another test made
    at = AppTest.from_function(two_ways, default_timeout=60).run()
    assert at.session_state["built"] == 1
    first = drawn(at, "by_charts")
    at.run()
    assert at.session_state["built"] == 1
    assert drawn(at, "by_charts") == first
    at.session_state["title"] = "another"  # new inputs: the builder runs again
    at.run()
    assert at.session_state["built"] == 2
    assert drawn(at, "by_charts")[0]["spec"]["title"] == "another"
    other, _ = drawn(at, "other_builder")  # another builder given the same inputs is not answered from dots'
    assert other["mark"] == {"type": "bar"}


def test_a_dataset_s_columns_are_every_key_of_its_rows_with_nulls_where_a_row_lacks_one():
    """pyarrow's from_pylist would take the first row's keys alone."""
    from accuracy_db.dashboard.charts import arrow_bytes

    rows = [{"name": "a", "value": 1}, {"name": "b", "low": 0.5}, {"value": None, "name": "c"}]
    table = pa.ipc.open_stream(arrow_bytes(rows)).read_all()
    assert table.column_names == ["name", "value", "low"]
    assert table.to_pylist() == [
        {"name": "a", "value": 1, "low": None},
        {"name": "b", "value": None, "low": 0.5},
        {"name": "c", "value": None, "low": None},
    ]
    assert pa.ipc.open_stream(arrow_bytes([])).read_all().num_rows == 0


def test_no_module_of_the_package_imports_streamlit_s_dataframe_util():
    """The datasets are made with pyarrow (arrow_bytes), not with Streamlit's internal convert_anything_to_arrow_bytes."""
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    sources = [path for folder in ("accuracy_db", "dashboard", "etl") for path in (repo / folder).rglob("*.py")]
    assert len(sources) > 50
    assert [path.name for path in sources if "dataframe_util" in path.read_text(encoding="utf-8")] == []
