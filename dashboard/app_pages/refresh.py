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
    "line": st.column_config.NumberColumn("line", width=55),
    "message": st.column_config.TextColumn("message", width=440),
    "file": st.column_config.TextColumn("file", width=270),
}


def listed(refused: pl.DataFrame) -> str:
    """The refused submissions by name, each with its number of problems."""
    counts = refused.group_by("submission", maintain_order=True).len()
    return ", ".join(
        f"**{literal(row['submission'])}** ({counted(row['len'], 'problem', 'problems')})"
        for row in counts.iter_rows(named=True)
    )


queries = {
    "publications": "SELECT * FROM publications ORDER BY published_at DESC",
    "lists": """
        SELECT kind, name, split, row_count AS mistakes, sha256, loaded_at, source_file
        FROM annotation_sets
        ORDER BY kind, split DESC, name
    """,
    # A problem of a file that is not the CSV is one of the metadata sidecar (inbox.load_sidecar).
    "rejections": """
        SELECT submission, line, message, file, suffix(file, '.csv') AS of_csv
        FROM rejections
        ORDER BY submission, file, line
    """,
    "sources": "SELECT role, corpus, name, sha256, size, path FROM source_files ORDER BY role, corpus, name",
}
frames = data.read(**queries)

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
