"""The vocabulary files and their schema (assistant.understand.vocab, issue 35)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from assistant.understand import vocab
from assistant.understand.vocab import VOCAB, Vocabulary, VocabularyError, WordList


def _data() -> dict[str, Any]:
    return {name: vocab._read(name) for name in vocab.FILES}


def test_the_shipped_files_load_and_are_lower_case() -> None:
    v = vocab.load()
    assert v == VOCAB
    assert isinstance(VOCAB.grammar.aspect_stopwords, WordList)
    assert "the" in VOCAB.grammar.aspect_stopwords
    assert VOCAB.values.formats["pdfs"] == "pdf"
    assert "US" in VOCAB.places.places  # a name keeps its capitals


def test_a_word_list_keeps_file_order_and_tests_membership_as_a_set() -> None:
    words = WordList(["one", "two", "three"])
    assert list(words) == ["one", "two", "three"]
    assert "two" in words and "four" not in words


@pytest.mark.parametrize(
    ("file", "key", "bad", "message"),
    [
        ("grammar", "auxiliaries", ["should", "Should"], "lower case"),
        ("grammar", "auxiliaries", ["should", "should"], "listed twice"),
        ("grammar", "auxiliaries", [" should"], "lower case"),
        ("followup", "filler", {"en": ["the"], "xx": ["le"]}, "filler.xx"),
        ("values", "formats", {"pdf": "PDF"}, "lower case"),
        ("values", "name_languages", ["en", "klingon"], "name_languages"),
        ("places", "places", ["Chad", "Chad"], "listed twice"),
    ],
)
def test_bad_entries_are_refused_with_the_file_and_entry(
    monkeypatch: pytest.MonkeyPatch, file: str, key: str, bad: Any, message: str
) -> None:
    data = _data()
    data[file] = {**data[file], key: bad}
    monkeypatch.setattr(vocab, "_read", lambda name: data[name])
    with pytest.raises(VocabularyError) as exc:
        vocab.load()
    assert f"{file}.yaml" in str(exc.value) and key in str(exc.value)
    assert message in str(exc.value)


def test_an_unknown_key_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _data()
    data["sides"] = {**data["sides"], "pro_wrods": ["for"]}
    monkeypatch.setattr(vocab, "_read", lambda name: data[name])
    with pytest.raises(VocabularyError, match=r"sides\.yaml: pro_wrods"):
        vocab.load()


def test_a_key_given_twice_in_a_file_is_refused() -> None:
    text = "slang:\n  wat: what\n  wat: which\n"
    with pytest.raises(yaml.constructor.ConstructorError, match="given twice"):
        yaml.load(text, Loader=vocab._UniqueKeyLoader)


def test_the_schema_names_every_file() -> None:
    assert set(Vocabulary.model_fields) == set(vocab.FILES)
