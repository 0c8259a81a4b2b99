import numpy as np

from vision import index_synth
from vision.index_net import CLASSES, INPUT_SIZE


def test_samples_are_patches_with_consistent_labels():
    patches, ranks, suits = index_synth.batch(np.random.default_rng(4), 120)
    assert patches.shape == (120, INPUT_SIZE[1], INPUT_SIZE[0], 3) and patches.dtype == np.uint8
    none, joker = CLASSES.index("NONE"), CLASSES.index("JOKER")
    for rank, suit in zip(ranks, suits):
        assert 0 <= rank < len(CLASSES)
        assert (suit == -1) == (rank in (none, joker))
    # most patches show an index, some show none
    assert 0.5 < float(np.mean(ranks < joker)) < 0.8
    assert (ranks == none).any()


def test_the_same_seed_gives_the_same_samples():
    a = index_synth.batch(np.random.default_rng(9), 5)
    b = index_synth.batch(np.random.default_rng(9), 5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_fonts_are_text_fonts_only():
    names = " ".join(index_synth.font_files())
    for symbol_font in ("D050000L", "StandardSymbols", "NotoSansArabic"):
        assert symbol_font not in names


def test_every_rank_and_suit_has_a_glyph_in_every_source():
    bank = index_synth.glyph_bank()
    assert len(bank.ranks) >= 12 and len(bank.suits) >= 12  # Hershey faces and drawn suits at least
    for font in bank.ranks:
        assert all(font[r] is not None and font[r].any() for r in index_synth.RANKS)
    for source in bank.suits:
        assert all(source[s].any() for s in "SHDC")


def test_suit_sources_draw_four_different_shapes():
    # a font without the suit symbols renders one box for all four: never a suit source
    for source in index_synth.glyph_bank().suits:
        masks = [source[s] for s in "SHDC"]
        assert all(a.shape != b.shape or (a != b).any() for k, a in enumerate(masks) for b in masks[k + 1:])
