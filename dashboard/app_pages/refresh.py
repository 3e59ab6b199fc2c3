"""Refresh status: when the database was last published (by build or refresh) and what changed, the hashes of
the gold lists and submissions it holds, and what was refused with every reason: submissions whose CSV was
refused (nothing of them is loaded) apart from those whose metadata sidecar was refused (still scored)."""

import polars as pl
import streamlit as st
from accuracy_db.dashboard import data, tables
from accuracy_db.dashboard.literal import literal


def counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


# Widths that keep the lists of problems in view at 1440 px (a long message or path ends in …; hover for all).
PROBLEM_COLUMNS = {
    "submission": st.column_config.TextColumn("submission", width=180),
    "lines": st.column_config.TextColumn("lines", width=110, help="The lines of the file with this problem"),
    "times": st.column_config.NumberColumn("times", width=55, help="How many lines have it"),
    "message": st.column_config.TextColumn("message", width=400, help="Hover over a cell for the whole message"),
    "file": st.column_config.TextColumn("file", width=200),
}


def listed(refused: pl.DataFrame) -> str:
    """The refused submissions by name, each with its number of problems."""
    counts = refused.group_by("submission", maintain_order=True).agg(pl.col("times").sum())
    return ", ".join(
        f"**{literal(row['submission'])}** ({counted(row['times'], 'problem', 'problems')})"
        for row in counts.iter_rows(named=True)
    )


frames = data.refresh_status()

st.title("Refresh status")
rejections = frames["rejections"]
refused = rejections.filter("of_csv").drop("of_csv")
refused_metadata = rejections.filter(~pl.col("of_csv")).drop("of_csv")
publications = frames["publications"]
if publications.is_empty():
    st.info("This database has no record of being published.")
else:
    latest = publications.row(0, named=True)
    st.markdown(
        f"Published **{latest['published_at']:%Y-%m-%d %H:%M:%S}** by `accuracy-db {latest['command']}` "
        f"in {latest['seconds']:.1f} s."
    )
    figures = st.columns(6)
    for column, key in zip(figures, ("added", "changed", "unchanged", "retired")):
        column.metric(f"submissions {key}", latest[key])
    # What is refused is what the database holds now (every run counts every refused file again): the list below.
    figures[4].metric("submissions refused", refused["submission"].n_unique(), help="Nothing of them is loaded.")
    figures[5].metric(
        "metadata refused", refused_metadata["submission"].n_unique(), help="Still scored, without their metadata."
    )
    with st.expander(f"Every publication ({len(publications)})"):
        tables.table(publications, key="publications")

st.subheader("Gold lists and submissions")
st.caption("Each list with the SHA-256 of the file it was loaded from; the scores carry the same hashes.")
# In view at 1440 px: when each was loaded and from which file are in the list of input files below.
tables.table(frames["lists"], column_order=["kind", "name", "split", "mistakes", "sha256"], key="lists")

st.subheader("Refused submissions")
if refused.is_empty():
    st.markdown("No submission was refused.")
else:
    count = refused["submission"].n_unique()
    was = "was" if count == 1 else "were"
    st.markdown(
        f"{counted(count, 'submission', 'submissions')} {was} refused, and nothing of them is loaded: "
        f"{listed(refused)}."
    )
    tables.table(refused, column_config=PROBLEM_COLUMNS, key="rejections")

st.subheader("Refused metadata")
if refused_metadata.is_empty():
    st.markdown("No metadata sidecar was refused.")
else:
    count = refused_metadata["submission"].n_unique()
    st.markdown(
        f"The metadata sidecar of {counted(count, 'submission', 'submissions')} {'was' if count == 1 else 'were'} "
        f"refused; the {'submission is' if count == 1 else 'submissions are'} still scored, without "
        f"{'its' if count == 1 else 'their'} metadata: {listed(refused_metadata)}."
    )
    tables.table(refused_metadata, column_config=PROBLEM_COLUMNS, key="metadata_rejections")

with st.expander("Every input file, with its hash"):
    tables.table(frames["sources"], key="sources")
