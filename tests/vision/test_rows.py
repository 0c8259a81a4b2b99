"""Cards land in the slot they lie under, and a card not found leaves its slot empty."""
import numpy as np
import pytest

from vision.rows import lay_of, place_in_row, runs_down, upside_down

W, H = 250, 350  # a card, in px


def card(cx: float, cy: float = 450, angle: float = 0.0) -> np.ndarray:
    quad = np.array([[-W / 2, -H / 2], [W / 2, -H / 2], [W / 2, H / 2], [-W / 2, H / 2]])
    c, s = np.cos(angle), np.sin(angle)
    return quad @ np.array([[c, s], [-s, c]]) + (cx, cy)


ROW = [230, 600, 970, 1340]  # four slots across a 1600 px photo, a card and a half apart
FRAME = (1600, 900)


def test_a_full_row_is_read_left_to_right_whatever_the_order_found():
    outlines = [card(ROW[2]), card(ROW[0]), card(ROW[3]), card(ROW[1])]
    assert place_in_row(outlines, FRAME) == [1, 3, 0, 2]


@pytest.mark.parametrize("missing", [0, 1, 2, 3])
def test_a_card_not_found_leaves_its_own_slot_empty(missing):
    outlines = [card(x) for i, x in enumerate(ROW) if i != missing]
    expected = list(range(3))
    expected.insert(missing, None)
    assert place_in_row(outlines, FRAME) == expected


def test_two_missing_cards_between_and_at_the_end():
    assert place_in_row([card(ROW[0]), card(ROW[2])], FRAME) == [0, None, 1, None]
    assert place_in_row([card(ROW[1]), card(ROW[3])], FRAME) == [None, 0, None, 1]


def test_cards_laid_close_together_in_a_row_photographed_at_an_angle():
    angle = np.radians(12)
    along = np.array([np.cos(angle), np.sin(angle)])
    centres = [np.array([800, 450]) + along * 280 * (i - 1.5) for i in range(4)]
    outlines = [card(*c, angle=angle) for i, c in enumerate(centres) if i != 1]
    assert place_in_row(outlines, FRAME) == [0, None, 1, 2]


def test_a_row_framed_off_centre_keeps_its_missing_end_card_where_there_is_room():
    # three cards pushed against the right edge: the fourth (not found) lay on the left
    outlines = [card(x + 40) for x in ROW[1:]]
    assert place_in_row(outlines, (1420, 900)) == [None, 0, 1, 2]


def test_a_lone_card_sits_in_its_quarter_of_the_photo():
    assert place_in_row([card(ROW[2])], FRAME) == [None, None, 0, None]
    assert place_in_row([], FRAME) == [None] * 4


def test_more_cards_than_slots_places_the_largest():
    small = card(800, 100) * 0.3
    outlines = [card(x) for x in ROW] + [small]
    assert place_in_row(outlines, FRAME) == [0, 1, 2, 3]


def test_two_outlines_in_one_place_are_placed_without_hanging():
    card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    outlines = [card + (50, 100), card + (300, 100), card + (300, 100), card + (550, 100)]
    slots = place_in_row(outlines, (800, 400))
    assert sorted(i for i in slots if i is not None) == sorted(set(i for i in slots if i is not None))
    assert 0 in slots and 3 in slots
    assert place_in_row([card + (300, 100)] * 3, (800, 400)).count(None) >= 1


def test_four_cards_in_a_square_are_placed_row_by_row():
    """Cambio's square (CAB-1: places 1 2 far, 3 4 near): read across the far row, then the near one."""
    frame = (1200, 1000)
    far, near = 280, 720
    outlines = [card(350, near), card(800, far), card(350, far), card(810, near + 20)]
    assert place_in_row(outlines, frame) == [2, 1, 0, 3]


def test_a_row_at_an_angle_is_not_taken_for_a_square():
    angle = np.radians(25)
    along = np.array([np.cos(angle), np.sin(angle)])
    centres = [np.array([800, 450]) + along * 330 * (i - 1.5) for i in range(4)]
    outlines = [card(*c, angle=angle) for c in centres]
    assert place_in_row(outlines, FRAME) == [0, 1, 2, 3]


@pytest.mark.parametrize("jitter", [(0, 0, 0, 0), (30, -25, 10, -40), (-40, 35, -20, 15)])
def test_a_row_photographed_turned_a_quarter_is_placed_from_the_top(jitter):
    """The photo was taken turned a quarter: the row runs down it, the cards on their sides. The slots
    follow the row from the top (never the cards' small sideways offsets), and the row says so."""
    frame = (900, 1600)
    outlines = [card(450 + dx, y, angle=np.pi / 2) for dx, y in zip(jitter, ROW)]
    shuffled = [outlines[2], outlines[0], outlines[3], outlines[1]]
    assert place_in_row(shuffled, frame) == [1, 3, 0, 2]
    assert runs_down(shuffled)
    assert place_in_row([outlines[0], outlines[2], outlines[3]], frame) == [0, None, 1, 2]
    assert place_in_row([outlines[3]], frame) == [None, None, None, 0]  # a lone card: its quarter down


def test_two_upright_cards_askew_are_still_a_row_across():
    outlines = [card(500, 350), card(800, 600)]
    assert place_in_row(outlines, FRAME) == [None, 0, 1, None] and not runs_down(outlines)
    assert not runs_down([card(x) for x in ROW]) and not runs_down([])


@pytest.mark.parametrize("turned, answer", [
    ([True, True, True, True], True),
    ([True, True, None, None], True),  # two faces say so, none says otherwise
    ([True, True, True, False], False),  # faces disagree (one taught the other way up): the photo's order stands
    ([True, True, False], False),
    ([True, None, None, None], False),  # one card alone is not the row
    ([None, None, None, None], False),  # a standard deck: no way up known
    ([False, False, False, False], False),
])
def test_a_row_is_upside_down_when_its_faces_clearly_say_so(turned, answer):
    assert upside_down(turned) is answer


def test_how_the_cards_lie_a_row_a_square_or_strewn_about():
    """A reveal said "left to right" for cards strewn about the photo, whose places are a guess: the row, the
    square (CAB-1) and cards off the row's line are told apart."""
    assert lay_of([card(x) for x in ROW]) == "row"
    assert lay_of([card(x, 450 + dy) for x, dy in zip(ROW, (30, -25, 10, -40))]) == "row"  # a row, laid roughly
    angle = np.radians(25)
    along = np.array([np.cos(angle), np.sin(angle)])
    assert lay_of([card(*(np.array([800, 450]) + along * 330 * (i - 1.5)), angle=angle) for i in range(4)]) == "row"
    assert lay_of([card(350, 720), card(800, 280), card(350, 280), card(810, 740)]) == "square"
    assert lay_of([card(230, 200), card(600, 700), card(970, 250)]) == "scattered"
    assert lay_of([card(230), card(900, 700)]) == "row"  # two cards always lie on a line
