import cv2
import numpy as np

from vision.rectify import CARD_H, CARD_W, OutlinedCard, card_image, order_portrait, rectify


def test_order_portrait_starts_on_a_short_edge_and_runs_clockwise():
    landscape = np.float32([[300, 100], [300, 300], [20, 300], [20, 100]])  # 280 wide, 200 tall
    ordered = order_portrait(landscape)
    assert np.linalg.norm(ordered[1] - ordered[0]) < np.linalg.norm(ordered[2] - ordered[1])
    # clockwise on screen: the signed area (shoelace, y down) is positive
    x, y = ordered[:, 0], ordered[:, 1]
    assert 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) > 0


def test_rectify_undoes_a_rotation_and_keeps_the_content():
    card = np.full((CARD_H, CARD_W, 3), 255, np.uint8)
    cv2.rectangle(card, (10, 10), (50, 60), (0, 0, 0), -1)  # mark the top-left corner
    canvas = np.zeros((600, 600, 3), np.uint8)
    src = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    quad = cv2.transform(src[None], cv2.getRotationMatrix2D((0, 0), -30, 1.2))[0] + (250, 80)
    m = cv2.getPerspectiveTransform(src, np.float32(quad))
    canvas = cv2.warpPerspective(card, m, (600, 600), dst=canvas, borderMode=cv2.BORDER_TRANSPARENT)
    flat = rectify(canvas, order_portrait(quad))
    assert flat.shape == (CARD_H, CARD_W, 3)
    corners = [flat[5:60, 5:50].mean(), flat[-60:-5, -50:-5].mean()]
    assert min(corners) < 100  # the mark is in one of the two index corners
    assert flat[CARD_H // 2, CARD_W // 2].mean() > 200


def test_an_outlined_card_warps_its_index_corners_alone_as_the_whole_card_has_them():
    rng = np.random.default_rng(5)
    photo = cv2.GaussianBlur(rng.integers(0, 255, (500, 600, 3), np.uint8), (5, 5), 0)
    quad = order_portrait(np.float32([[120, 60], [400, 110], [380, 470], [90, 430]]))
    whole = rectify(photo, quad)
    card = OutlinedCard(photo, quad)
    top, bottom = card.corners((56, 100))
    assert top.shape == bottom.shape == (100, 56, 3)
    # the same pixels, but for rounding in the last bit
    assert np.abs(top.astype(int) - whole[:100, :56]).max() <= 1
    assert np.abs(bottom.astype(int) - cv2.rotate(whole, cv2.ROTATE_180)[:100, :56]).max() <= 1
    assert np.array_equal(card.whole, whole) and np.array_equal(card_image(card), whole)
    top_again, _ = card.corners((56, 100))  # once warped whole, cut from it
    assert np.array_equal(top_again, whole[:100, :56])


def test_an_outlined_card_is_warped_smaller_without_warping_it_whole():
    photo = np.full((500, 600, 3), 40, np.uint8)
    quad = order_portrait(np.float32([[120, 60], [400, 110], [380, 470], [90, 430]]))
    cv2.fillConvexPoly(photo, quad.astype(np.int32), (250, 250, 250))
    cv2.circle(photo, (250, 260), 30, (0, 0, 200), -1)  # a red mark in the card's middle
    card = OutlinedCard(photo, quad)
    small = card.at((CARD_W // 2, CARD_H // 2))
    assert small.shape == (CARD_H // 2, CARD_W // 2, 3)
    assert card._whole is None  # the whole card was not warped for it
    middle = small[CARD_H // 4 - 5:CARD_H // 4 + 5, CARD_W // 4 - 5:CARD_W // 4 + 5].reshape(-1, 3).mean(axis=0)
    assert middle[2] > 150 and middle[1] < 60  # the red mark is where the card's middle is
    assert card.whole is not None  # warped whole now: the smaller copy is made from it
    assert np.abs(card.at((CARD_W // 2, CARD_H // 2)).astype(int) - small).mean() < 8
