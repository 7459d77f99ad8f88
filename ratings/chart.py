"""Geometry of the rating history chart, drawn as inline SVG by a template."""

import math

WIDTH, HEIGHT = 600, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44


def _nice_step(span: float, ticks: int = 4) -> int:
    raw = max(span / ticks, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return int(factor * magnitude)
    return int(10 * magnitude)


def rating_chart(points: list) -> dict | None:
    """SVG coordinates for (date, rating) points in time order; None with no points.

    x is the game number (evenly spaced: games, not days, move a rating), y the
    displayed rating, with round-numbered gridlines and the first and last dates
    under the axis.
    """
    if not points:
        return None
    values = [v for _, v in points]
    low, high = min(values), max(values)
    step = _nice_step(high - low)
    y_min = math.floor(low / step) * step
    y_max = math.ceil(high / step) * step
    if y_max == y_min:
        y_min, y_max = y_min - step, y_max + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(i: int) -> float:
        return LEFT + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y_of(v: float) -> float:
        return TOP + plot_h * (y_max - v) / (y_max - y_min)

    coords = [(round(x_of(i), 1), round(y_of(v), 1)) for i, v in enumerate(values)]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "polyline": " ".join(f"{x},{y}" for x, y in coords),
        "dots": [{"x": x, "y": y, "value": v, "date": d}
                 for (x, y), (d, v) in zip(coords, points)],
        "y_ticks": [{"y": round(y_of(v), 1), "value": v}
                    for v in range(int(y_min), int(y_max) + 1, step)],
        "first_date": points[0][0],
        "last_date": points[-1][0],
        "games": len(points),
        "low": low,
        "high": high,
        "last": values[-1],
        "label_y": HEIGHT - BOTTOM + 18,
        "caption_y": HEIGHT - 8,
        "mid_x": LEFT + plot_w / 2,
    }
