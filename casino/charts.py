"""Bar charts as plain SVG, for the daily report (WeasyPrint draws inline SVG) and the audit's
trend pages. Pure functions: labels and amounts (whole, or Decimal) in, markup out."""
from __future__ import annotations

from decimal import Decimal
from html import escape

FONT = 'font-family="Noto Sans CJK TC, DejaVu Sans, sans-serif"'
BAR = "#3b6e8f"
AXIS = "#888888"
BAND = "#e0b04a"
OUTSIDE = "#b03a2e"

Amount = int | Decimal


def _scale(amounts: list[Amount]) -> Amount:
    """The top of the value axis: the largest amount (at least 1, so that an empty chart draws)."""
    return max([*amounts, 1])


def column_chart(bars: list[tuple[str, Amount]], *, width: int = 680, height: int = 180,
                 band: tuple[Amount, Amount, Amount] | None = None, marked: frozenset[int] = frozenset()) -> str:
    """Vertical bars, one per label, left to right (e.g. commission per hour of the day); each
    bar with a nonzero amount carries its amount above it. `band` (low, mean, high) shades the
    expected range behind the bars, the mean as a dashed line; the bars at the `marked` indexes
    are drawn in red (e.g. days outside their band)."""
    left, right, top, bottom = 8, 8, 16, 18
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = _scale([amount for _, amount in bars] + ([band[2]] if band else []))
    slot = plot_w / max(len(bars), 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" {FONT} font-size="8">',
             f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="{AXIS}"/>']
    if band:
        low, mean, high = (round(top + plot_h - plot_h * value / top_value, 1) for value in band)
        parts.append(f'<rect class="band" x="{left}" y="{high}" width="{plot_w}" height="{round(low - high, 1)}" '
                     f'fill="{BAND}" fill-opacity="0.25"/>')
        parts.append(f'<line class="mean" x1="{left}" y1="{mean}" x2="{left + plot_w}" y2="{mean}" stroke="{BAND}" '
                     'stroke-dasharray="4 3"/>')
    for index, (label, amount) in enumerate(bars):
        bar_h = round(plot_h * amount / top_value, 1)
        x = round(left + index * slot + slot * 0.15, 1)
        centre = round(left + (index + 0.5) * slot, 1)
        parts.append(f'<rect x="{x}" y="{round(top + plot_h - bar_h, 1)}" width="{round(slot * 0.7, 1)}" '
                     f'height="{bar_h}" fill="{OUTSIDE if index in marked else BAR}">'
                     f'<title>{escape(label)}: {amount}</title></rect>')
        if amount:
            y = round(top + plot_h - bar_h - 3, 1)
            if len(str(amount)) * 8 * 0.6 <= slot:  # the amount fits across its bar (8-unit digits)
                parts.append(f'<text x="{centre}" y="{y}" text-anchor="middle">{amount}</text>')
            else:  # too wide: written upwards, inside the bar when it is tall enough
                inside = bar_h > len(str(amount)) * 8 * 0.6 + 6
                y = round(top + plot_h - 3, 1) if inside else y
                colour = ' fill="#ffffff"' if inside else ""
                x = round(centre + 3, 1)
                parts.append(f'<text x="{x}" y="{y}" transform="rotate(-90 {x} {y})"{colour}>{amount}</text>')
        parts.append(f'<text x="{centre}" y="{height - 5}" text-anchor="middle" fill="#444444">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(bars: list[tuple[str, int]], *, width: int = 680, row: int = 12) -> str:
    """Horizontal bars, one row per label, top to bottom (e.g. commission per table), the amount
    at the end of each bar; the height grows with the rows."""
    label_w, amount_w, pad = 70, 60, 4
    plot_w = width - label_w - amount_w
    height = pad * 2 + row * max(len(bars), 1)
    top_value = _scale([amount for _, amount in bars])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" {FONT} font-size="8">',
             f'<line x1="{label_w}" y1="{pad}" x2="{label_w}" y2="{height - pad}" stroke="{AXIS}"/>']
    for index, (label, amount) in enumerate(bars):
        y = pad + index * row
        bar_w = round(plot_w * amount / top_value, 1)
        baseline = round(y + row * 0.75, 1)
        parts.append(f'<text x="{label_w - 4}" y="{baseline}" text-anchor="end" fill="#444444">{escape(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{round(y + row * 0.15, 1)}" width="{bar_w}" '
                     f'height="{round(row * 0.7, 1)}" fill="{BAR}"><title>{escape(label)}: {amount}</title></rect>')
        parts.append(f'<text x="{round(label_w + bar_w + 3, 1)}" y="{baseline}">{amount}</text>')
    parts.append("</svg>")
    return "".join(parts)
