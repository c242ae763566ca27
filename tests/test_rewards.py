"""rougekit.rewards: ROUGE reward functions in the shape TRL's GRPOTrainer calls them.

Expected values are computed by hand in each test (counts written as fractions, rounded as
ROUGE-1.5.5 rounds per pair), or come from ``rougekit.score`` on the same inputs (the reward is
a front end over it and must give the very same numbers).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import rougekit
from rougekit.errors import InputError, OptionError
from rougekit.rewards import message_text, rouge_reward


def r5(x: float) -> float:
    return float("%7.5f" % x)


def f1(r: float, p: float) -> float:
    return r5(2 * r * p / (r + p)) if r and p else 0.0


def chat(text: str) -> list[dict]:
    """A completion as TRL passes it for conversational data."""
    return [{"role": "assistant", "content": text}]


def test_plain_text_rouge1():
    reward = rouge_reward("ROUGE-1")
    # 3 of the reference's 4 unigrams; all 3 of the candidate's: R = 3/4, P = 1
    assert reward(["the cat sat"], reference=["the cat sat down"]) == [f1(0.75, 1.0)]
    assert rouge_reward("ROUGE-1", stat="recall")(["the cat sat"], reference=["the cat sat down"]) == [0.75]
    assert rouge_reward("ROUGE-1", stat="p")(["the cat sat"], reference=["the cat sat down"]) == [1.0]


def test_rouge_l_and_the_trl_call_shape():
    reward = rouge_reward()  # ROUGE-L F
    out = reward(
        prompts=["Summarize: ...", "Summarize: ..."],
        completions=["police kill the gunman", "the cat sat"],
        completion_ids=[[101, 7], [5, 9]],
        reference=["police killed the gunman", "a dog ran"],
        source=["an article", "another"],  # other dataset columns are ignored
        trainer_state=object(),
    )
    # LCS(police kill the gunman, police killed the gunman) = police the gunman: 3/4 both ways; nothing shared
    assert out == [0.75, 0.0]
    assert all(type(x) is float for x in out)


def test_chat_completions():
    reward = rouge_reward("ROUGE-1", stat="recall")
    completions = [chat("The cat sat."), [{"role": "assistant", "content": [{"type": "text", "text": "the cat"}]}]]
    # "The cat sat." -> the cat sat (lower-cased, punctuation removed): 3 of 4; "the cat": 2 of 4
    assert reward(completions=completions, reference=["the cat sat down"] * 2) == [0.75, 0.5]


def test_message_text():
    messages = [
        {"role": "assistant", "content": "first", "tool_calls": []},
        {"role": "tool", "content": "a tool's answer is not the model's text"},
        {"role": "assistant", "content": [{"type": "image"}, {"type": "text", "text": "second"}]},
        {"role": "assistant", "content": None},
    ]
    assert message_text(messages) == "first\nsecond"
    assert message_text({"content": "no role is the model's"}) == "no role is the model's"
    with pytest.raises(InputError, match="no assistant message"):
        message_text([{"role": "user", "content": "question"}])
    with pytest.raises(InputError, match="content must be"):
        message_text([{"role": "assistant", "content": 42}])


def test_several_references_sum_and_max():
    refs = [["the cat sat down", "a dog"]]
    # -f A (default): hits 3 + 0 over 4 + 2 reference unigrams; peer count 3 per reference: P = 3/6
    assert rouge_reward("ROUGE-1", stat="recall")(["the cat sat"], reference=refs) == [r5(3 / 6)]
    assert rouge_reward("ROUGE-1", stat="precision")(["the cat sat"], reference=refs) == [r5(3 / 6)]
    # multi_ref="max": the best F over the references, the first one here
    assert rouge_reward("ROUGE-1", multi_ref="max")(["the cat sat"], reference=refs) == [f1(0.75, 1.0)]
    # references given as chat messages
    as_messages = [[chat("the cat sat down"), chat("a dog")]]
    assert rouge_reward("ROUGE-1", stat="r")(["the cat sat"], reference=as_messages) == [r5(3 / 6)]
    assert rouge_reward("ROUGE-1", stat="r")(["the cat sat"], reference=[chat("the cat sat down")]) == [0.75]


def test_token_ids():
    reward = rouge_reward("ROUGE-2", completion_field="completion_ids", reference_field="reference_ids")
    # bigrams 1-2, 2-3, 3-4 against 1-2, 2-9, 9-4: one hit of three each way
    out = reward(completions=["ignored text"], completion_ids=[[1, 2, 3, 4]], reference_ids=[[1, 2, 9, 4]])
    assert out == [r5(1 / 3)]
    # numpy arrays, and two references (a list of id lists): -f A sums hits 1 + 1 over 1 + 1 bigrams
    two = reward(completion_ids=[np.array([7, 8], dtype=np.int32)], reference_ids=[[[7, 8], [7, 8, 8]]])
    assert two == [f1(r5(2 / 3), 1.0)]


def test_ignore_ids_drops_eos_and_padding():
    eos, pad = 2, 0
    plain = rouge_reward("ROUGE-1", stat="precision", completion_field="completion_ids")
    clean = rouge_reward("ROUGE-1", stat="precision", completion_field="completion_ids", ignore_ids=[eos, pad])
    ids, ref = [[5, 6, 7, eos]], [[5, 6, 7]]
    assert plain(completion_ids=ids, reference=ref) == [0.75]  # the EOS id counts as a token: 3 of 4
    assert clean(completion_ids=ids, reference=ref) == [1.0]
    assert clean(completion_ids=[[5, pad, pad]], reference=[[[5, eos], [6]]]) == [r5(1 / 2)]  # 1 hit / (1 x 2 refs)


def test_equals_rougekit_score_on_random_texts():
    rng = random.Random(13)
    words = "the a cat dogs ran running sat on mat police killed gunman shot is was".split()

    def text():
        return "\n".join(" ".join(rng.choices(words, k=rng.randint(1, 9))) for _ in range(rng.randint(1, 3)))

    cands = [text() for _ in range(40)]
    refs = [[text() for _ in range(rng.randint(1, 3))] for _ in range(40)]
    cases = [
        ("ROUGE-1", "f", {}),
        ("ROUGE-2", "recall", {"stem": True}),
        ("ROUGE-L", "precision", {"stopwords": True, "multi_ref": "max"}),
        ("ROUGE-SU4", "f", {"stem": True, "multi_ref": "best"}),
        ("ROUGE-W-1.2", "f", {"alpha": 0.2}),
    ]
    for measure, stat, options in cases:
        expected = rougekit.score(cands, refs, measures=[measure], bootstrap=None, **options).values(measure, stat)
        got = rouge_reward(measure, stat, **options)(completions=[chat(c) for c in cands], reference=refs)
        assert got == expected.tolist(), (measure, stat, options)


def test_ids_equal_rougekit_score():
    rng = np.random.default_rng(7)
    cands = [rng.integers(0, 50, size=rng.integers(1, 60)).tolist() for _ in range(30)]
    refs = [rng.integers(0, 50, size=rng.integers(1, 60)).tolist() for _ in range(30)]
    expected = rougekit.score(cands, refs, measures=["ROUGE-L"], bootstrap=None).values("ROUGE-L", "f")
    got = rouge_reward(completion_field="completion_ids")(completion_ids=cands, reference=refs)
    assert got == expected.tolist()


def test_single_valued_measure():
    reward = rouge_reward("BLEU", stat="score")
    # identical 4-word texts: every n-gram precision 1, no brevity penalty
    assert reward(["a b c d"], reference=["a b c d"]) == [1.0]
    with pytest.raises(OptionError, match="stat='score'"):
        rouge_reward("BLEU", stat="recall")


def test_names():
    assert rouge_reward().__name__ == "rouge_l_f"
    assert rouge_reward("ROUGE-W-1.2", stat="recall").__name__ == "rouge_w_1_2_r"
    assert rouge_reward("ROUGE-SU4", name="su4").__name__ == "su4"
    assert "ROUGE-L" in repr(rouge_reward())


def test_no_completions():
    assert rouge_reward()([], reference=[]) == []


def test_missing_reference_column_names_it():
    reward = rouge_reward(reference_field="summary")
    with pytest.raises(InputError, match=r"no dataset column 'summary'.*columns passed: prompts, solution"):
        reward(completions=["x"], prompts=["p"], solution=["y"], trainer_state=object())


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda f: f(completions=["a", "b"], reference=["a"]), InputError, "2 completions but 1 entries"),
        (lambda f: f(reference=["a"]), InputError, "no completions"),
        (lambda f: f("a cat", reference=["a"]), TypeError, "not a string"),
        (lambda f: f(["a"], reference="a"), TypeError, "not a string"),
        (lambda f: f([[{"role": "user", "content": "hi"}]], reference=["a"]), InputError, "completion 1: "),
    ],
)
def test_bad_calls(call, error, message):
    with pytest.raises(error, match=message):
        call(rouge_reward())


def test_an_assistant_message_without_content_is_named_not_scored_0():
    # qa19 F6: {"text": ...} in place of {"content": ...} scored 0.0, silently
    reward = rouge_reward("ROUGE-L")
    chat = [[{"role": "assistant", "content": "the cat"}], [{"role": "assistant", "text": "the cat sat"}]]
    with pytest.raises(
        InputError, match=r"completion 2: the assistant message has no 'content' \(its keys: role, text\)"
    ):
        reward(completions=chat, reference=["the cat sat", "the cat sat"])
    with pytest.raises(InputError, match=r"column 'reference', row 2: the assistant message has no 'content'"):
        reward(completions=["the cat", "a dog"], reference=["the cat", [{"text": "a dog"}]])  # counted from 1
    # content None (a turn of tool calls only) is no text: the other turn is scored, LCS 2 of 3 and 2 of 2
    tool = [{"role": "assistant", "content": None, "tool_calls": []}, {"role": "assistant", "content": "the cat"}]
    assert reward(completions=[tool], reference=["the cat sat"]) == [0.8]  # F = 2 x 2/3 x 1 / (2/3 + 1)


def test_bad_options():
    with pytest.raises(OptionError, match="one measure"):
        rouge_reward(["ROUGE-1", "ROUGE-2"])
    with pytest.raises(OptionError, match="not measures="):
        rouge_reward(measures=["ROUGE-1"])
    with pytest.raises(OptionError, match="stat must be"):
        rouge_reward(stat="fscore")
    with pytest.raises(OptionError, match="completion_field"):
        rouge_reward(completion_field="completion")
    with pytest.raises(OptionError, match="ignore_ids applies"):
        rouge_reward(ignore_ids=[2])
    with pytest.raises(OptionError, match="ignore_ids must hold"):
        rouge_reward(completion_field="completion_ids", ignore_ids=["</s>"])
    with pytest.raises(OptionError):  # an unknown measure, from the registry
        rouge_reward("ROUGE-Q")
    with pytest.raises(OptionError):  # stemming has no meaning on token ids: refused when built, not mid-training
        rouge_reward(completion_field="completion_ids", stem=True)
    with pytest.raises(InputError, match="no completion_ids"):
        rouge_reward(completion_field="completion_ids")(completions=["a"], reference=[[1]])
