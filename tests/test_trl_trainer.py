"""rougekit.rewards inside a real TRL GRPOTrainer: a few training steps on the CPU with a tiny randomly
initialised model and a word-level tokenizer made here (nothing is downloaded). The rewards the
trainer logs are the mean of what the reward functions returned, and those equal rougekit.score
on the same completions (text) and token ids."""

from __future__ import annotations

import pytest

import rougekit
from rougekit.rewards import rouge_reward

pytestmark = pytest.mark.integration  # CI's integration step; the default run deselects it


def _need(name: str):
    """A module of the integration extra; checked in the test, not at import (the default run deselects
    these tests and must not skip them)."""
    return pytest.importorskip(name, reason=f"{name} is in the integration extra (pip install '.[integration]')")


WORDS = "the a cat dog sat on mat police killed gunman shot was near house river ran fast".split()


def _tokenizer():
    transformers = _need("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {w: k for k, w in enumerate(["<pad>", "<eos>", "<unk>", *WORDS])}
    core = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok = transformers.PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>"
    )
    tok.padding_side = "left"
    return tok


def _model(vocab_size: int):
    torch, transformers = _need("torch"), _need("transformers")
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
        pad_token_id=0,
        eos_token_id=1,
        bos_token_id=1,
    )
    return transformers.LlamaForCausalLM(config)


class Recorder:
    """A reward function that records what TRL passed and what the rougekit reward returned."""

    def __init__(self, reward):
        self.reward = reward
        self.__name__ = reward.__name__
        self.calls: list[dict] = []

    def __call__(self, **kwargs):
        values = self.reward(**kwargs)
        self.calls.append({**kwargs, "values": values})
        return values


def test_grpo_trainer_logs_the_rewards_rougekit_scores(tmp_path):
    torch, trl, datasets = _need("torch"), _need("trl"), _need("datasets")
    tok = _tokenizer()
    prompts = ["the cat", "police killed", "a dog ran", "the river"] * 2
    references = ["the cat sat on the mat", "police killed the gunman", "a dog ran fast", "the house near the river"]
    references = references * 2
    reference_ids = [tok(r, add_special_tokens=False)["input_ids"] for r in references]
    data = datasets.Dataset.from_dict({"prompt": prompts, "reference": references, "reference_ids": reference_ids})
    on_text = Recorder(rouge_reward("ROUGE-L", reference_field="reference"))
    on_ids = Recorder(
        rouge_reward("ROUGE-1", reference_field="reference_ids", completion_field="completion_ids", ignore_ids=[0, 1])
    )
    args = trl.GRPOConfig(
        output_dir=str(tmp_path),
        max_steps=2,
        per_device_train_batch_size=4,
        num_generations=2,
        max_completion_length=6,
        learning_rate=1e-3,
        logging_steps=1,
        report_to=[],
        use_cpu=True,
        seed=1,
        save_strategy="no",
        dataloader_num_workers=0,
    )
    trainer = trl.GRPOTrainer(
        model=_model(len(tok)), reward_funcs=[on_text, on_ids], args=args, train_dataset=data, processing_class=tok
    )
    trainer.train()

    assert on_text.calls and len(on_text.calls) == len(on_ids.calls)
    text_hit = False
    for call in on_text.calls:
        want = rougekit.score(call["completions"], call["reference"], measures=["ROUGE-L"], bootstrap=None)
        assert call["values"] == want.values("ROUGE-L", "f").tolist()
        text_hit = text_hit or any(v > 0 for v in call["values"])
    assert text_hit, "no completion shared a word with its reference: the comparison would be vacuous"
    some_hit = False
    for call in on_ids.calls:
        cands = [[i for i in ids if i not in (0, 1)] for ids in call["completion_ids"]]
        refs = [[i for i in ids if i not in (0, 1)] for ids in call["reference_ids"]]
        want = rougekit.score(cands, refs, measures=["ROUGE-1"], bootstrap=None).values("ROUGE-1", "f").tolist()
        assert call["values"] == want
        some_hit = some_hit or any(v > 0 for v in want)
    assert some_hit, "no completion shared a token with its reference: the comparison would be vacuous"

    logged = [h for h in trainer.state.log_history if f"rewards/{on_text.__name__}/mean" in h]
    assert len(logged) == len(on_text.calls) == 2
    for entry, text_call, ids_call in zip(logged, on_text.calls, on_ids.calls):
        for name, call in ((on_text.__name__, text_call), (on_ids.__name__, ids_call)):
            mean = torch.tensor(call["values"], dtype=torch.float32).mean().item()
            assert entry[f"rewards/{name}/mean"] == pytest.approx(mean, rel=1e-6, abs=1e-7)


def test_torch_tensors_score_as_their_ids():
    # a 1-d tensor is one summary of token ids, a 2-d one (as one pair's summary) its sentences, a
    # 2-d tensor of candidates one row a pair: the numbers of the same ids as numpy arrays (before: a
    # tensor candidate was refused as "expected text")
    torch = _need("torch")
    cand, ref = torch.tensor([1, 2, 3, 4]), torch.tensor([3, 4, 1, 2])
    want = rougekit.score([cand.numpy()], [ref.numpy()], measures="ROUGE-L", bootstrap=None).per_pair()
    assert want == [{"ROUGE-L": {"recall": 0.5, "precision": 0.5, "f": 0.5}}]  # LCS 1 2 (or 3 4) of 4
    assert rougekit.score([cand], [ref], measures="ROUGE-L", bootstrap=None).per_pair() == want
    assert (
        rougekit.score(torch.stack([cand]), torch.stack([ref]), measures="ROUGE-L", bootstrap=None).per_pair() == want
    )
    rows = rougekit.score([cand.reshape(2, 2)], [ref], measures="ROUGE-L", bootstrap=None).per_pair()
    assert rows == [{"ROUGE-L": {"recall": 1.0, "precision": 1.0, "f": 1.0}}]  # sentences 1 2 and 3 4
    with pytest.raises(TypeError, match="token ids must be integers"):
        rougekit.score([torch.tensor([1.0, 2.0])], [[1, 2]], bootstrap=None)
