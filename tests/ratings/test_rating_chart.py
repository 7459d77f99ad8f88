"""The rating chart's geometry: inside the plot area, round gridlines."""

import datetime

from ratings.chart import rating_chart


def test_no_games_no_chart():
    assert rating_chart([]) is None


def test_points_stay_inside_the_plot_and_higher_ratings_are_higher():
    day = datetime.date(2025, 1, 1)
    points = [(day + datetime.timedelta(days=i), v) for i, v in enumerate([1000, 1130, 1062])]
    chart = rating_chart(points)
    ys = [d["y"] for d in chart["dots"]]
    xs = [d["x"] for d in chart["dots"]]
    assert xs == sorted(xs) and xs[0] == chart["left"] and xs[-1] == chart["right"]
    assert all(chart["top"] <= y <= chart["bottom"] for y in ys)
    assert ys[1] < ys[2] < ys[0]
    ticks = [t["value"] for t in chart["y_ticks"]]
    assert ticks[0] <= 1000 and ticks[-1] >= 1130
    assert all(v % 50 == 0 for v in ticks)
    assert chart["first_date"] == day and chart["last"] == 1062


def test_one_game_draws_one_centred_point():
    chart = rating_chart([(datetime.date(2025, 1, 1), 1000)])
    assert len(chart["dots"]) == 1
    assert chart["y_ticks"][0]["value"] < 1000 < chart["y_ticks"][-1]["value"]
