"""Bar charts of figures that can be 0.0 or undefined: a bar of height 0 cannot be seen, and a missing bar cannot
be told from a 0.0, so a 0.0 is drawn as a line on the axis (a zero bar) and an undefined figure (NULL: nothing
to divide by) is written "undefined" where its bar would stand."""

from __future__ import annotations

import altair as alt

from accuracy_db.formatting import UNDEFINED  # the word the command line writes too


def figure_bars(chart: alt.Chart, field: str) -> alt.LayerChart:
    """The bars of a chart whose y is the figure `field`: the bars, a tick for each 0.0, a label for each NULL."""
    bars = chart.mark_bar()
    zeros = chart.mark_tick(thickness=3).transform_filter(f"datum['{field}'] === 0")
    undefined = (
        chart.mark_text(text=UNDEFINED, angle=270, align="left", dy=0, dx=4, fontSize=11, color="#555")
        .encode(y=alt.datum(0))
        .transform_filter(f"!isValid(datum['{field}'])")
    )
    return bars + zeros + undefined
