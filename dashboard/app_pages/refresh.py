"""Refresh status: when the database was last published (by build or refresh) and what changed, the hashes of
the gold lists and submissions it holds, and the refused submissions with every reason."""

import streamlit as st
from accuracy_db.dashboard import data, tables

queries = {
    "publications": "SELECT * FROM publications ORDER BY published_at DESC",
    "lists": """
        SELECT kind, name, split, row_count AS mistakes, sha256, loaded_at, source_file
        FROM annotation_sets
        ORDER BY kind, split DESC, name
    """,
    "rejections": "SELECT submission, line, message, file FROM rejections ORDER BY submission, line",
    "sources": "SELECT role, name, sha256, size, path FROM source_files ORDER BY role, name",
}
frames = data.read(**queries)

st.title("Refresh status")
publications = frames["publications"]
if publications.is_empty():
    st.info("This database has no record of being published.")
else:
    latest = publications.row(0, named=True)
    st.markdown(
        f"Published **{latest['published_at']:%Y-%m-%d %H:%M:%S}** by `accuracy-db {latest['command']}` "
        f"in {latest['seconds']:.1f} s."
    )
    figures = st.columns(5)
    for column, key in zip(figures, ("added", "changed", "unchanged", "retired", "refused")):
        column.metric(f"submissions {key}", latest[key])
    with st.expander(f"Every publication ({len(publications)})"):
        tables.table(publications, key="publications")

st.subheader("Gold lists and submissions")
st.caption("Each list with the SHA-256 of the file it was loaded from; the scores carry the same hashes.")
tables.table(frames["lists"], key="lists")

st.subheader("Refused submissions")
rejections = frames["rejections"]
if rejections.is_empty():
    st.markdown("No submission was refused.")
else:
    counts = rejections.group_by("submission", maintain_order=True).len()
    st.markdown(
        f"{len(counts)} submissions were refused, and nothing of them was loaded: "
        + ", ".join(f"**{row['submission']}** ({row['len']} problems)" for row in counts.iter_rows(named=True))
        + "."
    )
    tables.table(rejections, key="rejections")

with st.expander("Every input file, with its hash"):
    tables.table(frames["sources"], key="sources")
