"""The PNG chart (`turnlight export --format png`) and the simulator's key maps: the words
keep their spaces, the x axis has numbered ticks, no team takes a fighter's colour, and
two lines that lie on top of each other can both be seen."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from host.rulesets.korxsol.ruleset import RULESET
from host.screens import board_pictures, chart, pictext

PANELS = RULESET.chart_panels  # KOR per fighter, score per team


def widest_gap(image: Image.Image, background: tuple[int, int, int]) -> int:
    """The widest run of blank columns between inked ones."""
    inked = [
        any(image.getpixel((x, y)) != background for y in range(image.height))
        for x in range(image.width)
    ]
    first, last = inked.index(True), len(inked) - 1 - inked[::-1].index(True)
    widest = run = 0
    for x in range(first, last + 1):
        run = 0 if inked[x] else run + 1
        widest = max(widest, run)
    return widest


def test_words_drawn_on_pictures_keep_a_visible_space() -> None:
    face = pictext.font(12)
    image = Image.new("RGB", (200, 30), (255, 255, 255))
    pictext.draw_text(ImageDraw.Draw(image), (5, 5), "frost add", (0, 0, 0), face)
    assert widest_gap(image, (255, 255, 255)) >= 4
    assert pictext.width("KOR per fighter", face) > pictext.width("KORperfighter", face) + 8


def test_the_key_map_labels_keep_their_spaces(tmp_path: Path) -> None:
    path = board_pictures.write_keymap(tmp_path / "keys.png", "trellis_m4")
    image = Image.open(path).convert("RGB")
    # Key 13 is "counter next": its label's first line, inside the key.
    size, gap = 92, 8
    x, y = gap + 5 * (size + gap), gap + 1 * (size + gap)
    label = image.crop((x + 4, y + 8, x + size - 4, y + 22))
    assert widest_gap(label, image.getpixel((x + 50, y + 50))) >= 4


def timeline(kor: dict[str, list[int]], score: dict[str, list[int]]) -> list[dict]:
    turns = len(next(iter(kor.values())))
    return [
        {"kor": {k: v[t] for k, v in kor.items()}, "score": {k: v[t] for k, v in score.items()}}
        for t in range(turns)
    ]


def bottom_box() -> tuple[int, int, int, int]:
    return chart.LEFT, 350, chart.WIDTH - chart.RIGHT, chart.HEIGHT - 50


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set:
    return {c for _, c in image.crop(box).getcolors(maxcolors=1 << 20) or []}


def test_the_chart_has_numbered_ticks_and_no_team_in_a_fighter_s_colour(tmp_path: Path) -> None:
    turns = 58
    kor = {"Kae": [16 - t // 4 for t in range(turns)], "Vex": [12] * turns}
    score = {"Dawn": list(range(turns)), "Dusk": [t // 2 for t in range(turns)]}
    path = tmp_path / "chart.png"
    chart.write_chart(timeline(kor, score), PANELS, path, "Ember Ridge (game 1)")
    image = Image.open(path).convert("RGB")
    x0, y0, x1, y1 = bottom_box()
    # A tick every 5 turns (58 turns): just under the frame at turn 5, and none at turn 3.
    step = (x1 - x0) / (turns - 1)
    assert chart.tick_step(turns) == 5
    assert image.getpixel((round(x0 + 5 * step), y1 + 3)) == chart.FRAME
    assert image.getpixel((round(x0 + 3 * step), y1 + 3)) == (255, 255, 255)
    # The teams' lines are in colours no fighter line has.
    fighters = set(chart.COLORS[: len(kor)])
    assert not fighters & colours_in(image, (x0 + 1, y0 + 1, x1, y1))
    assert set(chart.TEAM_COLORS[:2]) <= colours_in(image, (x0 + 1, y0 + 1, x1, y1))


def test_two_lines_on_top_of_each_other_both_show(tmp_path: Path) -> None:
    turns = 40
    same = [16 - t // 5 for t in range(turns)]
    kor = {"Kae": same, "Orn": list(same)}
    path = tmp_path / "chart.png"
    chart.write_chart(timeline(kor, {"Dawn": [0] * turns, "Dusk": [0] * turns}), PANELS, path)
    image = Image.open(path).convert("RGB")
    top = (chart.LEFT + 1, 61, chart.WIDTH - chart.RIGHT, 280)
    seen = colours_in(image, top)
    assert chart.COLORS[0] in seen and chart.COLORS[1] in seen


def test_a_pages_rows_are_labelled_with_the_games_own_counter_names() -> None:
    from shared.descriptor_pack import encoded, names

    state, teams = board_pictures.table_state("korxsol")
    counters = names(encoded(state.rules))["counters"]
    assert len(counters) > 2  # more counters than the NeoTrellis's two bar rows
    labels = board_pictures.row_labels("counters", state, teams, rows=4)
    rest = ", ".join(counters[2:])
    assert labels == ["slot", counters[0], f"{counters[1]} (then {rest})", labels[-1]]
    assert "link" in labels[-1]
    # A taller grid has a row for each.
    assert board_pictures.row_labels("counters", state, teams, rows=8)[1 : 1 + len(counters)] == (
        counters
    )


def test_the_scores_rows_are_labelled_with_the_encounters_teams() -> None:
    state, teams = board_pictures.table_state("korxsol")
    labels = board_pictures.row_labels("scores", state, teams, rows=4)
    assert labels[: len(teams)] == teams
    four = ["A", "B", "C", "D"]  # more teams than rows: two to a row, as the board draws them
    assert board_pictures.row_labels("scores", state, four, rows=3)[:2] == ["A / B", "C / D"]


def test_a_labelled_page_shows_the_boards_own_grid() -> None:
    state, teams = board_pictures.table_state("korxsol")
    sim = board_pictures.board_at("trellis_m4", "counters", 1, state)
    try:
        bare = sim.image(40)
    finally:
        sim.stop()
    picture = board_pictures.labelled_page("trellis_m4", "counters", state, teams)
    assert _find(picture, bare) is not None


def _find(sheet: Image.Image, part: Image.Image) -> tuple[int, int] | None:
    """Where `part` lies in `sheet`, pixel for pixel (its first row found, then checked)."""
    first = part.crop((0, 0, part.width, 1)).tobytes()
    for y in range(sheet.height - part.height + 1):
        for x in range(sheet.width - part.width + 1):
            if sheet.crop((x, y, x + part.width, y + 1)).tobytes() == first:
                box = (x, y, x + part.width, y + part.height)
                if sheet.crop(box).tobytes() == part.tobytes():
                    return x, y
    return None


def test_sim_legend_writes_the_key_map_and_every_page_on_one_sheet(tmp_path: Path, capsys) -> None:
    from host.board.firmware_host import PAGE_NAMES
    from host.cli import main

    out = tmp_path / "legend.png"
    assert main(["sim", "--legend", str(out), "--board", "macropad"]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    sheet = Image.open(out).convert("RGB")
    assert _find(sheet, board_pictures.keymap_image("macropad")) is not None
    state, teams = board_pictures.table_state("korxsol")
    width = sheet.width
    shown = board_pictures.shown_pages("macropad", state)
    assert shown == [p for p in PAGE_NAMES if p != "grid"]  # korxsol has no token grid
    for page in shown:
        part = board_pictures.labelled_page("macropad", page, state, teams, width, common=False)
        assert _find(sheet, part) is not None, page


def test_sim_legend_of_an_unknown_ruleset_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys
) -> None:
    from host.cli import main

    out = tmp_path / "legend.png"
    assert main(["sim", "--legend", str(out), "--ruleset", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown ruleset 'nope'" in err
    assert not out.exists()
