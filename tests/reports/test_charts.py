"""The report's SVG bar charts: pure functions from labels and amounts to markup."""
import xml.etree.ElementTree as ET

from casino.charts import bar_chart, column_chart

SVG = "{http://www.w3.org/2000/svg}"


def rects(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(f"{SVG}rect")


def test_a_column_chart_draws_one_bar_per_label_with_heights_in_proportion():
    svg = column_chart([("06", 0), ("07", 50), ("08", 100)], width=300, height=134)

    bars = rects(svg)
    assert len(bars) == 3
    heights = [float(bar.get("height")) for bar in bars]
    assert heights[0] == 0 and heights[2] == 100 and heights[1] == 50  # plot height 134 - 16 - 18 = 100
    texts = [text.text for text in ET.fromstring(svg).findall(f"{SVG}text")]
    assert "50" in texts and "100" in texts and "06" in texts and "0" not in texts  # no amount on an empty bar


def test_a_bar_chart_grows_one_row_per_label_and_the_longest_bar_is_the_largest_amount():
    svg = bar_chart([("T1", 210), ("T2", 40), ("T3", 800)], width=330, row=10)

    root = ET.fromstring(svg)
    assert root.get("height") == str(8 + 3 * 10)
    widths = [float(bar.get("width")) for bar in rects(svg)]
    assert widths[2] == 200 and widths[0] == round(200 * 210 / 800, 1)  # plot width 330 - 70 - 60


def test_a_chart_with_no_amounts_still_draws_and_labels_are_escaped():
    svg = column_chart([("<b>&", 0)])
    bar_chart([])

    assert "&lt;b&gt;&amp;" in svg
    assert float(rects(svg)[0].get("height")) == 0


def test_an_amount_too_wide_for_its_bar_is_written_upwards():
    svg = column_chart([(f"{hour:02d}", 146730) for hour in range(24)], width=680)

    amounts = [text for text in ET.fromstring(svg).findall(f"{SVG}text") if text.text == "146730"]
    assert len(amounts) == 24 and all(text.get("transform", "").startswith("rotate(-90") for text in amounts)


def test_a_column_chart_of_decimal_amounts_shades_the_band_behind_the_bars():
    from decimal import Decimal

    svg = column_chart([("11-01", Decimal("7.50")), ("11-02", Decimal("10.00"))], width=300, height=134,
                       band=(Decimal("5.00"), Decimal("7.50"), Decimal("20.00")))

    root = ET.fromstring(svg)
    shaded, *bars = rects(svg)
    assert shaded.get("class") == "band"
    # the scale's top is the band's high edge, 20: plot height 100, from y = 16 to y = 116
    assert float(shaded.get("y")) == 16 and float(shaded.get("height")) == 75  # 20 down to 5
    assert [float(bar.get("height")) for bar in bars] == [37.5, 50]
    mean = root.find(f"{SVG}line[@class='mean']")
    assert float(mean.get("y1")) == 116 - 37.5
    assert "7.50" in [text.text for text in root.findall(f"{SVG}text")]


def test_a_marked_column_is_drawn_in_red():
    svg = column_chart([("11-01", 10), ("11-02", 2)], width=300, height=134, marked=frozenset({1}))

    first, second = rects(svg)
    assert first.get("fill") == "#3b6e8f" and second.get("fill") == "#b03a2e"
