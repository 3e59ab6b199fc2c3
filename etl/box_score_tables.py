"""The team and player rows of the box scores: Rotowire's strings checked and cast to the columns of team_games and
player_games, and each player's side."""

from __future__ import annotations

import polars as pl

from accuracy_db.errors import Problem, quoted

from .box_score_records import PLAYER_STATS, PLAYER_TEXTS, TEAM_STATS, TEAM_TEXTS


def team_frame(teams: pl.DataFrame, file: str, problems: list[Problem]) -> pl.DataFrame:
    who = pl.format("{} {} team", "text_id", "side")
    require(teams, list(TEAM_TEXTS), who, file, problems)
    teams = parse_stats(teams, TEAM_STATS, who, file, problems)
    return teams.rename(TEAM_TEXTS).drop("line")


def player_frame(players: pl.DataFrame, file: str, problems: list[Problem]) -> pl.DataFrame:
    who = pl.format("{} player {} ({})", "text_id", "player_index", pl.col("PLAYER_NAME").fill_null("no name"))
    require(players, ["PLAYER_NAME"], who, file, problems)
    players = parse_stats(players, PLAYER_STATS, who, file, problems).rename(PLAYER_TEXTS)
    # A bench player's START_POSITION is N/A; a player without minutes did not play.
    return players.with_columns(
        starter=pl.col("start_position").is_not_null(),
        did_not_play=pl.col("minutes").is_null(),
    )


def require(frame: pl.DataFrame, keys: list[str], who: pl.Expr, file: str, problems: list[Problem]) -> None:
    """A problem for each missing value of a key the tables need."""
    for key in keys:
        for line, name in frame.filter(pl.col(key).is_null()).select("line", who).iter_rows():
            problems.append(Problem(file, line, f"{name}: no {key}"))


def parse_stats(
    frame: pl.DataFrame, stats: dict[str, str], who: pl.Expr, file: str, problems: list[Problem]
) -> pl.DataFrame:
    """Cast the stats to integers, renamed to their columns; a value that is not a whole number is a problem."""
    not_number = [pl.col(key).is_not_null() & pl.col(key).cast(pl.Int32, strict=False).is_null() for key in stats]
    if not frame.select(pl.any_horizontal(not_number).any()).item():
        return frame.with_columns(pl.col(list(stats)).cast(pl.Int32, strict=False)).rename(stats)
    for key in stats:
        not_numbers = frame.filter(pl.col(key).is_not_null() & pl.col(key).cast(pl.Int32, strict=False).is_null())
        for line, name, value in not_numbers.select("line", who, key).iter_rows():
            problems.append(Problem(file, line, f"{name}: {key} is not a whole number: {quoted(value, 60)}"))
    return frame.with_columns(pl.col(list(stats)).cast(pl.Int32, strict=False)).rename(stats)


def with_sides(players: pl.DataFrame, games: pl.DataFrame, file: str) -> tuple[pl.DataFrame, list[str]]:
    """Each player's side from TEAM_CITY; NULL, with a warning, where the city does not tell it."""
    home_city, vis_city, team_city = pl.col("home_city"), pl.col("vis_city"), pl.col("team_city")
    players = players.join(games.select("text_id", "home_city", "vis_city"), on="text_id", how="left")
    players = players.with_columns(
        side=pl.when(home_city == vis_city)
        .then(None)
        .when(team_city == home_city)
        .then(pl.lit("home"))
        .when(team_city == vis_city)
        .then(pl.lit("visitor"))
    )
    warnings = []
    for row in players.filter(pl.col("side").is_null()).iter_rows(named=True):
        who = f"{row['text_id']} player {row['player_index']} ({row['player_name']})"
        if row["home_city"] == row["vis_city"]:
            doubt = f"both teams are from {quoted(row['home_city'], 60)}"
        else:
            doubt = (
                f"TEAM_CITY {quoted(row['team_city'], 60)} is neither {quoted(row['home_city'], 60)}"
                f" nor {quoted(row['vis_city'], 60)}"
            )
        warnings.append(str(Problem(file, row["line"], f"{who}: {doubt}; side left NULL")))
    return players.drop("line", "home_city", "vis_city"), warnings
