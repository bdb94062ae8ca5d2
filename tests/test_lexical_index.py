"""The Tantivy index: stable ranking of equal scores, the speaker dictionary, clock times."""

from __future__ import annotations

from pathlib import Path

from memory.store.lexical import LexicalDoc, LexicalFilter, LexicalIndex


def doc(node_id: str, body: str, *, space: str = "T1",
        speakers: tuple[str, ...] = ("Ana", "U1")) -> LexicalDoc:
    return LexicalDoc(node_id=node_id, platform="slack", space=space, channel="C1", thread="",
                      speakers=speakers, ts=0, body=body)


def test_equal_scores_rank_by_node_id_not_insertion_order(tmp_path: Path) -> None:
    index = LexicalIndex(tmp_path)
    # Same body, so the same score; tantivy alone would return them as inserted.
    index.upsert([doc(nid, "deploy freeze starts friday") for nid in ("n4", "n3", "n2", "n1")])
    index.upsert([doc("n0", "lunch order")])
    hits = index.search("deploy freeze", LexicalFilter(space="T1"), 2)
    assert [nid for nid, _ in hits] == ["n1", "n2"]
    assert hits[0][1] == hits[1][1]


def test_speaker_words_are_first_names_or_ids_within_the_filter(tmp_path: Path) -> None:
    index = LexicalIndex(tmp_path)
    index.upsert([
        doc("n1", "hello", speakers=("Nate Smith", "U_NATE")),
        doc("n2", "hello", space="T2", speakers=("O'Neil", "U-2")),
        doc("n3", "hello", space="T2", speakers=("Natalie", "U3")),
    ])
    # "nat" begins "natalie" and "nate smith" but is neither's first name; "smith" is a
    # surname, which is not looked up.
    words = ["nate", "smith", "nat", "o'neil", "u_nate", "u-2", "hello", "natalie"]
    assert index.speaker_words(words, LexicalFilter(space="T1")) == {"nate", "u_nate"}
    assert index.speaker_words(words, LexicalFilter(space="T2")) == {"o'neil", "u-2", "natalie"}
    assert index.speaker_words(words, LexicalFilter()) == {
        "nate", "u_nate", "o'neil", "u-2", "natalie"}


def test_a_time_is_found_whether_or_not_its_am_pm_is_glued_on(tmp_path: Path) -> None:
    index = LexicalIndex(tmp_path)
    index.upsert([doc("n1", "change of plan for the meet - 6:30am not 7"),
                  doc("n2", "lunch order is in"),
                  doc("n3", "bbq at 3 pm on the roof")])
    flt = LexicalFilter(space="T1")
    assert [nid for nid, _ in index.search("why are we leaving at 6:30", flt, 1)] == ["n1"]
    assert [nid for nid, _ in index.search("is it 3pm", flt, 1)] == ["n3"]
