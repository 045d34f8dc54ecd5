# Issue 43: scores the hits rerank-candidates.mjs wrote with nanoranker 1.2 (PyPI, MIT): a
# relevance head (an MLP, reranker_nn_v2.onnx) over Universal Sentence Encoder multilingual vectors
# and character n-gram hashes of question and passage, both in its wheel. Not a cross-encoder: it
# never reads the two texts' tokens together. Each hit gets its raw output (not the package's
# share of the sum over the documents) for its whole message (score_message), its snippet
# (score_passage) and its conversation's title (score_title); rerank-gate.mjs reads them.
# Run in a scratch venv, never in the project's:
#   python3 -m venv /tmp/nr && /tmp/nr/bin/pip install nanoranker==1.2
#   /tmp/nr/bin/python bench/recall-quality/score-nanoranker.py candidates.jsonl scored.jsonl
import json
import sys
import time

started = time.process_time()
import nanoranker  # noqa: E402  (loads both ONNX files on import: timed)
import numpy as np  # noqa: E402

loaded = time.process_time() - started
vectors = {}


def embed(text):
    if text not in vectors:
        vectors[text] = nanoranker.embed(text)
    return vectors[text]


with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        row = json.loads(line)
        question = embed(row["query"])
        for field in ("message", "passage", "title"):
            if not row["hits"]:
                break
            passages = np.array([embed(h[field]) for h in row["hits"]])
            pairs = np.concatenate([np.tile(question, (len(passages), 1)), passages], axis=1)
            scores = nanoranker.reranker_model.run(["output"], {"input": pairs.astype(np.float32)})[0]
            for hit, score in zip(row["hits"], scores.reshape(-1)):
                hit["score_" + field] = float(score)
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
print(f"loaded in {loaded:.2f} s CPU", file=sys.stderr)
